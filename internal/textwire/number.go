package textwire

import (
	"math"
	"strconv"
)

// AppendFloat appends f as canonical JSON writes a float: the shortest
// decimal that reads back as f, in exponent form outside
// 1e-6 ≤ |f| < 1e21 exactly as encoding/json writes it, with ".0"
// appended when the result would otherwise read as an integer. f must be
// finite.
func AppendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		n := len(dst)
		if n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
		return dst
	}
	for _, c := range dst[start:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// ParseInt parses JSON's integer grammar, -?(0|[1-9][0-9]*), exactly into
// an int64; it reports false for anything else or a value out of range.
// "-0" reads as 0; a format that refuses it checks for it first.
func ParseInt[T ~string | ~[]byte](s T) (int64, bool) {
	neg := false
	i := 0
	if len(s) > 0 && s[0] == '-' {
		neg, i = true, 1
	}
	digits := len(s) - i
	if digits == 0 || digits > 19 || (s[i] == '0' && digits > 1) {
		return 0, false
	}
	var u uint64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}
