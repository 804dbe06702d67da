package textwire

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// AppendFloat appends f as canonical JSON writes a float: AppendShortest's
// text, with ".0" appended when it would otherwise read as an integer. f
// must be finite.
func AppendFloat(dst []byte, f float64) []byte {
	start := len(dst)
	dst = AppendShortest(dst, f)
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// AppendShortest appends the shortest decimal that reads back as f, in
// exponent form outside 1e-6 ≤ |f| < 1e21 exactly as encoding/json and
// JavaScript write it (1e-7, 1e+21). f must be finite.
func AppendShortest(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	if abs == 0 || abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	// Clean up e-09 to e-9, as encoding/json does.
	n := len(dst)
	if n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst
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

// AppendInt appends i in decimal, as strconv.AppendInt(b, i, 10) does,
// writing the digits in place two at a time: the writers' integers.
func AppendInt(b []byte, i int64) []byte {
	u := uint64(i)
	if i < 0 {
		b = append(b, '-')
		u = -u
	}
	if u < 10 {
		return append(b, byte('0'+u))
	}
	n := DecimalLen(u)
	l := len(b)
	b = slices.Grow(b, n)[:l+n]
	d := b[l : l+n]
	for k := n; u >= 100; {
		q := u / 100
		r := (u - q*100) * 2
		k -= 2
		d[k], d[k+1] = digitPairs[r], digitPairs[r+1]
		u = q
	}
	if u >= 10 {
		d[0], d[1] = digitPairs[2*u], digitPairs[2*u+1]
	} else {
		d[0] = byte('0' + u)
	}
	return b
}

const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" +
	"60616263646566676869" + "70717273747576777879" + "80818283848586878889" + "90919293949596979899"

// DecimalLen is the number of decimal digits of u: t, from its bit length
// (log10(2) is about 1233/4096), is the number or one less, and which of
// the two u's comparison with 10^t tells.
func DecimalLen(u uint64) int {
	t := (bits.Len64(u|1) * 1233) >> 12
	if t > 0 && u < pow10[t] {
		return t
	}
	return t + 1
}

// pow10[i] is 10 to the power i, up to the largest a uint64 holds.
var pow10 = func() (t [20]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()
