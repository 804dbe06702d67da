package textwire

import (
	"encoding/binary"
	"math"
	"math/bits"
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

// SmallInt reads a token of 1 to 18 ASCII digits without a leading zero,
// the integers most cells hold, as the number it is, eight digits at a
// time; any other token is not one (ParseInt and each format's number
// grammar read the rest).
func SmallInt(t string) (int64, bool) {
	if len(t) == 0 || len(t) > 18 || t[0] == '0' && len(t) > 1 {
		return 0, false
	}
	var v int64
	i := 0
	for ; len(t)-i >= 8; i += 8 { // the ids of a graph
		d, ok := Digits8(Load8(t, i))
		if !ok {
			return 0, false
		}
		v = v*1e8 + int64(d)
	}
	for ; i < len(t); i++ {
		c := t[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int64(c)
	}
	return v, true
}

// AppendInt appends i in decimal, as strconv.AppendInt(b, i, 10) does,
// eight digits a word (Eight), written in place when b has room for two
// words past its end.
func AppendInt(b []byte, i int64) []byte {
	u := uint64(i)
	if i < 0 {
		b = append(b, '-')
		u = -u
	}
	if u < 10 { // a count or an index, often
		return append(b, byte('0'+u))
	}
	l, n := len(b), DecimalLen(u)
	if n > 16 || cap(b)-l < 16 {
		return strconv.AppendUint(b, u, 10)
	}
	b = b[:l+16]
	if n <= 8 {
		binary.LittleEndian.PutUint64(b[l:], Eight(u)>>(64-8*n)) // no leading zero
	} else {
		binary.LittleEndian.PutUint64(b[l:], Eight(u/1e8)>>(128-8*n))
		binary.LittleEndian.PutUint64(b[l+n-8:], Eight(u%1e8))
	}
	return b[:l+n]
}

// Eight returns the eight decimal digits of u < 1e8, leading zeros
// included, as ASCII in a little-endian word (the first digit its lowest
// byte), without a division: u splits into two halves of four digits in
// 32-bit lanes, each into two of two digits in 16-bit lanes, each into
// two digits in bytes, each split a multiply by a reciprocal and a shift.
func Eight(u uint64) uint64 {
	x := u/10000 | u%10000<<32
	hi := x * 10486 >> 20 & (0x7F | 0x7F<<32) // x/100 in each lane, below 10000
	x = (x-hi*100)<<16 | hi
	hi = x * 103 >> 10 & (ones16 * 0xF) // x/10 in each 16-bit lane, below 100
	return (x-hi*10)<<8 | hi | Ones*'0'
}

// ones16 has a one in each 16-bit lane.
const ones16 = 0x0001000100010001

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
