package testsupport

import (
	"math"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// JSView returns v as JavaScript holds it, which a differential test
// against a JavaScript implementation compares with: integers beyond
// ±2^53 become the nearest double, written as JavaScript writes it, and in
// every object the keys that are array indices (canonical integers 0 to
// 2^32-2) come first, in ascending order.
func JSView(v jsonvalue.Value) jsonvalue.Value {
	switch x := v.(type) {
	case jsonvalue.Number:
		f := x.Float64()
		big := f == math.Trunc(f) && math.Abs(f) > 1<<53
		if i, ok := x.Int64(); ok && x.IsInt() {
			big = i > 1<<53 || i < -(1<<53)
		}
		if big && math.Abs(f) < 1e21 { // the shortest digits, then zeros
			n, _ := jsonvalue.LiteralNumber(strconv.FormatFloat(f, 'f', -1, 64))
			return n
		}
		return x
	case []jsonvalue.Value:
		out := slices.Clone(x)
		for i := range out {
			out[i] = JSView(out[i])
		}
		return out
	case *jsonvalue.Object:
		var index, other []jsonvalue.Member
		for _, m := range x.Members {
			m.Value = JSView(m.Value)
			if _, ok := arrayIndex(m.Key); ok {
				index = append(index, m)
			} else {
				other = append(other, m)
			}
		}
		slices.SortStableFunc(index, func(a, b jsonvalue.Member) int {
			i, _ := arrayIndex(a.Key)
			j, _ := arrayIndex(b.Key)
			return int(i - j)
		})
		return &jsonvalue.Object{Members: append(index, other...)}
	}
	return v
}

// arrayIndex returns the array index k names, if it is one.
func arrayIndex(k string) (int64, bool) {
	if k == "" || len(k) > 10 || k[0] == '0' && len(k) > 1 || k[0] < '0' || k[0] > '9' { // not "-0", "+1"
		return 0, false
	}
	n, err := strconv.ParseInt(k, 10, 64)
	return n, err == nil && n <= math.MaxUint32-1
}
