package gcfvalue

import (
	"math"
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
// (no fraction or exponent) outside int64 among the tokens of the JSON
// text data, or -1. Text that is not JSON is left to the parser.
func bigIntLiteral(data []byte) (int, string) {
	s := jsonvalue.NewScanner(data)
	for s.Pos < s.Len() {
		switch c := s.Peek(); {
		case c == '"':
			if _, err := s.String(math.MaxInt); err != nil {
				return -1, ""
			}
		case c == '-' || isDigit(c):
			at := s.Pos
			lit, isFloat, err := s.Number("a number")
			if err != nil {
				return -1, ""
			}
			if _, err := strconv.ParseInt(lit, 10, 64); err != nil && !isFloat {
				return at, lit
			}
		default:
			s.Pos++
		}
	}
	return -1, ""
}
