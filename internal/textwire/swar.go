package textwire

import "unicode/utf8"

// Eight bytes at a time: the scanners of every format look at a string a
// word of eight bytes at a time (SWAR, SIMD within a register) and at its
// bytes one by one only around what a word flags. The masks below have
// the high bit set in the bytes of x they flag; the lowest flagged byte is
// exact (its index is bits.TrailingZeros64(m)/8), higher ones may be
// flagged wrongly by a borrow, and a mask is zero exactly when no byte of
// x is flagged. Bytes from 0x80 up are never flagged: they are UTF-8,
// checked apart.

// Ones has a one in each byte, Highs the high bit of each byte.
const (
	Ones  = 0x0101010101010101
	Highs = 0x8080808080808080
)

// Load8 returns s[i:i+8] as a little-endian word (the compiler makes it
// one load).
func Load8(s string, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// Below flags the bytes of x below n (n <= 0x80).
func Below(x uint64, n byte) uint64 { return (x - Ones*uint64(n)) &^ x & Highs }

// Equal flags the bytes of x equal to c (c < 0x80): the zero bytes of
// x^(Ones*c).
func Equal(x uint64, c byte) uint64 {
	y := x ^ (Ones * uint64(c))
	return (y - Ones) &^ y & Highs
}

// EscMask flags the bytes that a quoted string of JSON, TOON, GOON and GCF
// never holds as they are: control characters, '"' and '\\'.
func EscMask(x uint64) uint64 { return Below(x, 0x20) | Equal(x, '"') | Equal(x, '\\') }

// Digits8 reads the word x of eight bytes (Load8) as eight ASCII digits,
// the first the most significant; ok is false when a byte is not a digit.
func Digits8(x uint64) (v uint64, ok bool) {
	if x&(Highs>>1|Highs>>2|Highs>>3)^Ones*0x30 != 0 || (x+Ones*6)&(Ones*0xF0) != Ones*0x30 {
		return 0, false
	}
	x = (x & (Ones * 0x0F)) * (1 + 10<<8) >> 8
	x = (x & 0x00FF00FF00FF00FF) * (1 + 100<<16) >> 16
	return (x & 0x0000FFFF0000FFFF) * (1 + 10000<<32) >> 32, true
}

// ValidUTF8 is utf8.ValidString with a byte loop in front: the short ASCII
// strings (keys, names) a writer checks most never reach its call.
func ValidUTF8(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s[i:])
		}
	}
	return true
}
