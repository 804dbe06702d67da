package wirecodec

import (
	"math/bits"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
)

// jsonQuotedLen returns the length of s as a canonical JSON string without
// writing it: the Meter's measure of a string. A string JSON writes as it
// is (textwire.JSON.Plain) is its bytes and quotes; for another it jumps
// from one byte to escape to the next eight bytes at a time, adding what
// each escape adds, and counts the bytes of invalid UTF-8 only when s is
// not valid UTF-8.
func jsonQuotedLen(s string) int64 {
	n := int64(len(s)) + 2
	if textwire.JSON.Plain(s) {
		return n
	}
	var hi uint64
	for i := 0; i < len(s); {
		if i+8 > len(s) {
			for ; i < len(s); i++ {
				c := s[i]
				hi |= uint64(c)
				if c < utf8.RuneSelf && jsonLen[c] != 1 {
					n += int64(jsonLen[c]) - 1
				}
			}
			break
		}
		x := textwire.Load8(s, i)
		hi |= x
		m := textwire.EscMask(x)
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		n += int64(jsonLen[s[i]]) - 1
		i++
	}
	if hi&textwire.Highs == 0 || utf8.ValidString(s) {
		return n
	}
	// Each byte that is not part of valid UTF-8 is written as the three
	// bytes of U+FFFD.
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += int64(len("\ufffd")) - 1
		}
		i += size
	}
	return n
}

// jsonLen[c] is the length canonical JSON writes for the ASCII byte c
// (textwire.JSON's rule), and 0 for the bytes of multi-byte sequences.
var jsonLen = func() (t [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case textwire.JSON.Plain(string(rune(c))):
			t[c] = 1
		case c == '"', c == '\\', c == '\n', c == '\r', c == '\t', c == '\b', c == '\f':
			t[c] = 2
		default:
			t[c] = 6 // \u00XX
		}
	}
	return t
}()
