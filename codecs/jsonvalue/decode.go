package jsonvalue

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// codecName is the Codec of the *wire.DecodeError values Parse returns:
// they read "json: offset N: ...".
const codecName = "json"

// maxParseDepth bounds the nesting Parse follows; maxAppendDepth the
// nesting Append follows (a deeper value is almost certainly a cycle of
// *Object or []Value references).
const (
	maxParseDepth  = 1000
	maxAppendDepth = 10000
)

// Parse parses one JSON document (RFC 8259) into a Value: objects keep
// their key order, integer literals that fit int64 stay exact, other numbers
// become the nearest float64. Like JavaScript's JSON.parse, a duplicate key
// keeps its first position and takes its last value, and an unpaired UTF-16
// surrogate escape becomes U+FFFD (as does ill-formed UTF-8). Nesting is
// bounded at 1000 levels. Errors are *wire.DecodeError values with a byte
// offset. Strings are read by the module's one JSON string scanner,
// textwire.JSONString. Callers: toonvalue.FromJSON, the CLI, the tests
// that compare generic documents.
func Parse(data []byte) (Value, error) {
	p := jsonParser{data: data}
	if len(data) > 0 {
		p.src = unsafe.String(&data[0], len(data))
	}
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
	src  string // data, sharing its memory
	i    int
	keys map[string]string
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return &wire.DecodeError{Codec: codecName, Offset: int64(p.i), Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) space() { p.i = textwire.SkipJSONSpace(p.data, p.i) }

// listNext reads the ',' or close after an element; more reports a ','.
func (p *jsonParser) listNext(close byte) (more, ok bool) {
	p.i, more, ok = textwire.JSONListNext(p.data, p.i, close)
	return more, ok
}

func (p *jsonParser) value(depth int) (Value, error) {
	if depth > maxParseDepth {
		return nil, p.errorf("nesting deeper than %d levels", maxParseDepth)
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
			if more, ok := p.listNext('}'); !ok {
				return nil, p.errorf("expected ',' or '}' in object")
			} else if !more {
				return o, nil
			}
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
			if more, ok := p.listNext(']'); !ok {
				return nil, p.errorf("expected ',' or ']' in array")
			} else if !more {
				return vs, nil
			}
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
	n, ok := fromLiteral(lit)
	if !ok {
		p.i = start
		return nil, p.errorf("number %s is out of the float64 range", lit)
	}
	return n, nil
}

// str parses a string starting at the opening quote, with
// textwire.JSONString; a key is interned, a value copied out of the input.
func (p *jsonParser) str(isKey bool) (string, error) {
	src := ""
	if isKey {
		src = p.src
	}
	s, next, err := textwire.JSONString(p.data, src, p.i, math.MaxInt)
	if err != nil {
		p.i = err.Off
		return "", p.errorf("%s", err.Msg)
	}
	p.i = next
	if isKey {
		return p.intern(s), nil
	}
	return s, nil
}

// intern returns s, which may share the input's memory, as a string that
// does not, reusing earlier copies of short keys.
func (p *jsonParser) intern(s string) string {
	if len(s) > 64 {
		return strings.Clone(s)
	}
	if k, ok := p.keys[s]; ok {
		return k
	}
	k := strings.Clone(s)
	if p.keys == nil {
		p.keys = make(map[string]string)
	}
	if len(p.keys) < 4096 {
		p.keys[k] = k
	}
	return k
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
