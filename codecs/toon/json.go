package toon

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// FromJSON converts JSON text to TOON: the JSON is read with ParseJSON
// (object key order kept, numbers exact) and encoded with opts. It is what
// a user of the reference TOON library gets from encode(JSON.parse(text)),
// except that integers beyond 2^53 stay exact.
func FromJSON(jsonText []byte, opts EncodeOptions) ([]byte, error) {
	v, err := ParseJSON(jsonText)
	if err != nil {
		return nil, err
	}
	return Marshal(v, opts)
}

// ToJSON converts TOON text to compact JSON (see AppendJSON).
func ToJSON(toonText []byte, opts DecodeOptions) ([]byte, error) {
	v, err := Unmarshal(toonText, opts)
	if err != nil {
		return nil, err
	}
	return AppendJSON(nil, v)
}

// ParseJSON parses one JSON document (RFC 8259) into a Value: objects keep
// their key order, integer literals that fit int64 stay exact, other numbers
// become the nearest float64. Like JavaScript's JSON.parse, a duplicate key
// keeps its first position and takes its last value, and an unpaired UTF-16
// surrogate escape becomes U+FFFD (as does ill-formed UTF-8). Nesting is
// bounded by DefaultMaxDepth. Errors are *wire.DecodeError values with a
// byte offset.
func ParseJSON(data []byte) (Value, error) {
	p := jsonParser{data: data}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.data) {
		return nil, p.errorf("unexpected data after the JSON value")
	}
	return v, nil
}

type jsonParser struct {
	data []byte
	i    int
	keys map[string]string
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return &wire.DecodeError{Codec: codecName, Offset: int64(p.i), Msg: "JSON input: " + fmt.Sprintf(format, args...)}
}

func (p *jsonParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (Value, error) {
	if depth > DefaultMaxDepth {
		return nil, p.errorf("nesting deeper than %d levels", DefaultMaxDepth)
	}
	p.space()
	if p.i >= len(p.data) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.i]; c {
	case '{':
		p.i++
		o := &Object{Members: []Member{}}
		var idx map[string]int
		p.space()
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != '"' {
				return nil, p.errorf("expected a string key")
			}
			key, err := p.str(true)
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return nil, p.errorf("expected ':' after object key")
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			dup := -1
			if idx != nil {
				if j, ok := idx[key]; ok {
					dup = j
				}
			} else {
				for j := range o.Members {
					if o.Members[j].Key == key {
						dup = j
						break
					}
				}
			}
			if dup >= 0 {
				o.Members[dup].Value = v
			} else {
				o.Members = append(o.Members, Member{Key: key, Value: v})
				if idx != nil {
					idx[key] = len(o.Members) - 1
				} else if len(o.Members) > 24 {
					idx = make(map[string]int, 2*len(o.Members))
					for j, m := range o.Members {
						idx[m.Key] = j
					}
				}
			}
			p.space()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == '}' {
				p.i++
				return o, nil
			}
			return nil, p.errorf("expected ',' or '}' in object")
		}
	case '[':
		p.i++
		vs := []Value{}
		p.space()
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			return vs, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
			p.space()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == ']' {
				p.i++
				return vs, nil
			}
			return nil, p.errorf("expected ',' or ']' in array")
		}
	case '"':
		return p.str(false)
	case 't':
		return p.literal("true", true)
	case 'f':
		return p.literal("false", false)
	case 'n':
		return p.literal("null", nil)
	default:
		if c == '-' || isDigit(c) {
			return p.number()
		}
		return nil, p.errorf("unexpected character %q", rune(c))
	}
}

func (p *jsonParser) literal(word string, v Value) (Value, error) {
	if len(p.data)-p.i >= len(word) && string(p.data[p.i:p.i+len(word)]) == word {
		p.i += len(word)
		return v, nil
	}
	return nil, p.errorf("invalid literal")
}

func (p *jsonParser) number() (Value, error) {
	start := p.i
	for p.i < len(p.data) {
		c := p.data[p.i]
		if isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.i++
			continue
		}
		break
	}
	lit := string(p.data[start:p.i])
	if !isNumberLiteral(lit) {
		p.i = start
		return nil, p.errorf("invalid number %q", lit)
	}
	n, ok := numberFromLiteral(lit)
	if !ok {
		p.i = start
		return nil, p.errorf("number %s is out of the float64 range", lit)
	}
	return n, nil
}

// str parses a string starting at the opening quote.
func (p *jsonParser) str(isKey bool) (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes, valid UTF-8, no control characters.
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c == '"' {
			s := p.data[start:p.i]
			p.i++
			if isKey {
				return p.intern(s), nil
			}
			return string(s), nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	b := append([]byte(nil), p.data[start:p.i]...)
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c == '\\':
			if p.i+1 >= len(p.data) {
				return "", p.errorf("unterminated string")
			}
			e := p.data[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.errorf("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
						save := p.i
						p.i += 2
						if x, ok := p.hex4(); ok {
							r2 = x
						} else {
							p.i = save
						}
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
						} else {
							p.i = save
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", p.errorf("invalid escape \\%c", rune(e))
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, p.data[p.i:p.i+size]...)
			}
			p.i += size
		default:
			b = append(b, c)
			p.i++
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.data) {
		return 0, false
	}
	r := rune(0)
	for _, h := range p.data[p.i : p.i+4] {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

func (p *jsonParser) intern(b []byte) string {
	if len(b) > 64 {
		return string(b)
	}
	if k, ok := p.keys[string(b)]; ok {
		return k
	}
	k := string(b)
	if p.keys == nil {
		p.keys = make(map[string]string)
	}
	if len(p.keys) < 4096 {
		p.keys[k] = k
	}
	return k
}

// AppendJSON appends v as compact JSON: members in order; numbers as
// Number.String writes them (NaN and ±Inf as null); strings escaping only
// '"', '\\' and control characters (\b \f \n \r \t, others \u00xx), with
// ill-formed UTF-8 replaced by U+FFFD. This is the byte form of
// JavaScript's JSON.stringify for the same value.
func AppendJSON(dst []byte, v Value) ([]byte, error) {
	n := len(dst)
	dst, err := appendJSON(dst, v, 0)
	if err != nil {
		return dst[:n], err
	}
	return dst, nil
}

func appendJSON(dst []byte, v Value, depth int) ([]byte, error) {
	if depth > maxEncodeDepth {
		return dst, fmt.Errorf("toon: value nested deeper than %d levels (a cycle?)", maxEncodeDepth)
	}
	var err error
	switch x := v.(type) {
	case nil:
		dst = append(dst, "null"...)
	case bool:
		dst = strconv.AppendBool(dst, x)
	case Number:
		dst = appendNumber(dst, x)
	case int:
		dst = strconv.AppendInt(dst, int64(x), 10)
	case int64:
		dst = strconv.AppendInt(dst, x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			dst = append(dst, "null"...)
		} else {
			dst = appendFloat(dst, x)
		}
	case string:
		dst = gjson.AppendString(dst, x)
	case []Value:
		dst = append(dst, '[')
		for i, item := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendJSON(dst, item, depth+1); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	case *Object:
		if x == nil {
			return append(dst, "null"...), nil
		}
		if dup, ok := duplicateKey(x.Members); ok {
			return dst, fmt.Errorf("toon: object has duplicate key %q", dup)
		}
		dst = append(dst, '{')
		for i, m := range x.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = gjson.AppendString(dst, m.Key)
			dst = append(dst, ':')
			if dst, err = appendJSON(dst, m.Value, depth+1); err != nil {
				return dst, err
			}
		}
		dst = append(dst, '}')
	default:
		return dst, fmt.Errorf("toon: cannot encode value of type %T", v)
	}
	return dst, nil
}
