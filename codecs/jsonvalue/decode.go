package jsonvalue

import "math"

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

// Parse parses one JSON document (RFC 8259) into a Value (see the package
// documentation). Like JavaScript's JSON.parse, a duplicate key keeps its
// first position and takes its last value, and an unpaired UTF-16
// surrogate escape becomes U+FFFD (as does ill-formed UTF-8).
func Parse(data []byte) (Value, error) {
	s := NewScanner(data)
	s.Space()
	v, err := parse(&s)
	if err != nil {
		return nil, err
	}
	return v, s.End("JSON value")
}

// parse reads the value at the scanner's position and the white space
// after it.
func parse(s *Scanner) (v Value, err error) {
	switch c := s.Peek(); {
	case c == '{' || c == '[':
		if err := s.Enter(maxParseDepth, "values"); err != nil {
			return nil, err
		}
		if c == '{' {
			v, err = parseObject(s)
		} else {
			v, err = parseArray(s)
		}
		s.Leave()
	case c == '"':
		v, err = s.String(math.MaxInt)
	case s.Literal("true"):
		v = true
	case s.Literal("false"):
		v = false
	case s.Literal("null"):
		v = nil
	case c == '-' || (c >= '0' && c <= '9'):
		lit, _, nerr := s.Number("value")
		if nerr != nil {
			return nil, nerr
		}
		n, ok := fromLiteral(lit)
		if !ok {
			return nil, s.Err(s.Pos-len(lit), "number "+lit+" is out of the float64 range")
		}
		v = n
	default:
		return nil, s.Expected("a value")
	}
	if err != nil {
		return nil, err
	}
	s.Space()
	return v, nil
}

func parseObject(s *Scanner) (*Object, error) {
	o := &Object{Members: []Member{}}
	var idx map[string]int // past 24 members, the index of each key
	more, err := s.Open('{', "an")
	for ; more && err == nil; more, err = s.Next('}', "object") {
		key, _, err := s.Key(math.MaxInt)
		if err != nil {
			return nil, err
		}
		v, err := parse(s)
		if err != nil {
			return nil, err
		}
		i, ok := idx[key]
		if idx == nil {
			i = o.index(key)
			ok = i >= 0
		}
		switch {
		case ok:
			o.Members[i].Value = v
		case idx != nil:
			idx[key] = len(o.Members)
			fallthrough
		default:
			o.Add(key, v)
			if idx == nil && len(o.Members) > 24 {
				idx = make(map[string]int, 2*len(o.Members))
				for j, m := range o.Members {
					idx[m.Key] = j
				}
			}
		}
	}
	return o, err
}

func parseArray(s *Scanner) ([]Value, error) {
	vs := []Value{}
	more, err := s.Open('[', "an")
	for ; more && err == nil; more, err = s.Next(']', "array") {
		v, err := parse(s)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, err
}
