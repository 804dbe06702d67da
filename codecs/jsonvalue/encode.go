package jsonvalue

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
)

// Append appends v as compact JSON: members in order; numbers as
// Number.String writes them (NaN and ±Inf as null); strings escaping only
// '"', '\\' and control characters (\b \f \n \r \t, others \u00xx), with
// ill-formed UTF-8 replaced by U+FFFD (textwire.JSON, canonical JSON's
// rule): JavaScript's JSON.stringify of the same value.
func Append(dst []byte, v Value) ([]byte, error) {
	n := len(dst)
	dst, err := appendJSON(dst, v, 0)
	if err != nil {
		return dst[:n], err
	}
	return dst, nil
}

func appendJSON(dst []byte, v Value, depth int) ([]byte, error) {
	if depth > maxAppendDepth {
		return dst, fmt.Errorf("jsonvalue: value nested deeper than %d levels (a cycle?)", maxAppendDepth)
	}
	var err error
	switch x := v.(type) {
	case nil:
		dst = append(dst, "null"...)
	case bool:
		dst = strconv.AppendBool(dst, x)
	case Number:
		dst = x.Append(dst)
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
		dst = textwire.JSON.AppendQuoted(dst, x)
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
		if dup, ok := x.Duplicate(); ok {
			return dst, fmt.Errorf("jsonvalue: object has duplicate key %q", dup)
		}
		dst = append(dst, '{')
		for i, m := range x.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = textwire.JSON.AppendQuoted(dst, m.Key)
			dst = append(dst, ':')
			if dst, err = appendJSON(dst, m.Value, depth+1); err != nil {
				return dst, err
			}
		}
		dst = append(dst, '}')
	default:
		return dst, fmt.Errorf("jsonvalue: cannot encode value of type %T", v)
	}
	return dst, nil
}
