package gcfvalue

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// ParseJSON parses one JSON document into a Value, as jsonvalue.Parse does,
// but refuses an integer literal outside int64 (spec §2.3.2: GCF's numeric
// domain is int64 for integers; a JSON parser that made such a literal a
// float64 would hand the encoder an approximation). The error is a
// *wire.DecodeError at the literal's byte offset wrapping KindOutOfRange.
func ParseJSON(data []byte) (Value, error) {
	if off, lit := bigIntLiteral(data); off >= 0 {
		return nil, &wire.DecodeError{Codec: "json", Offset: int64(off),
			Msg: "the integer " + excerpt(lit) + " is outside int64 (model it as a string)", Err: KindOutOfRange}
	}
	return jsonvalue.Parse(data)
}

// FromJSON encodes a JSON document as generic-profile GCF.
func FromJSON(jsonText []byte, opts Options) ([]byte, error) {
	v, err := ParseJSON(jsonText)
	if err != nil {
		return nil, err
	}
	return Encode(v, opts)
}

// bigIntLiteral returns the offset and text of the first integer literal
// (no '.', 'e' or 'E') outside int64 among the tokens of the JSON text
// data, or -1. Text that is not JSON is left to the parser.
func bigIntLiteral(data []byte) (int, string) {
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '"':
			i++
			for i < len(data) && data[i] != '"' {
				if data[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '-' || isDigit(c):
			j := i + 1
			isInt := true
			for j < len(data) {
				d := data[j]
				if d == '.' || d == 'e' || d == 'E' {
					isInt = false
				} else if !isDigit(d) && d != '+' && d != '-' {
					break
				}
				j++
			}
			if isInt {
				if _, err := strconv.ParseInt(string(data[i:j]), 10, 64); err != nil && isNumberLiteral(string(data[i:j])) {
					return i, string(data[i:j])
				}
			}
			i = j
		default:
			i++
		}
	}
	return -1, ""
}
