package wire

import (
	"math"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
)

// AppendValueJSON appends v as compact canonical JSON, lists included,
// writing a float canonical JSON cannot carry (NaN, ±Inf) as null, as
// JavaScript's JSON.stringify does. goon writes a list value's text with
// it, and the scorecard keys its token cache by it; Value.MarshalJSON,
// which refuses a non-finite float instead, is the strict form.
func AppendValueJSON(dst []byte, v Value) []byte {
	switch v.Kind() {
	case KindBool:
		return strconv.AppendBool(dst, v.Bool())
	case KindInt:
		return strconv.AppendInt(dst, v.Int(), 10)
	case KindFloat:
		if f := v.Float(); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return textwire.AppendFloat(dst, f)
		}
	case KindString:
		return textwire.JSON.AppendQuoted(dst, v.Text())
	case KindList:
		dst = append(dst, '[')
		for i, x := range v.List() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendValueJSON(dst, x)
		}
		return append(dst, ']')
	}
	return append(dst, "null"...)
}
