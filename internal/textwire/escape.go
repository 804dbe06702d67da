package textwire

import (
	"math/bits"
	"unicode/utf8"
)

// Escaping is one format's rule for writing a string inside quotes: each
// ASCII byte is written as it is, replaced by an escape, or dropped.
// Ill-formed UTF-8 is written as U+FFFD under every rule.
type Escaping struct {
	plain [utf8.RuneSelf]bool   // written as it is
	repl  [utf8.RuneSelf]string // otherwise: its escape, or "" to drop it
}

const hexDigits = "0123456789abcdef"

// newEscaping builds a rule: '"' and '\\' are escaped with a backslash,
// the control characters named in short by their letter escape, every
// other control character by \u00XX (uHex) or dropped (!uHex); del says
// whether U+007F is dropped rather than written.
func newEscaping(short map[byte]byte, uHex, dropDEL bool) *Escaping {
	e := new(Escaping)
	for c := 0; c < utf8.RuneSelf; c++ {
		b := byte(c)
		switch {
		case b == '"' || b == '\\':
			e.repl[c] = string([]byte{'\\', b})
		case b < 0x20:
			if l, ok := short[b]; ok {
				e.repl[c] = string([]byte{'\\', l})
			} else if uHex {
				e.repl[c] = string([]byte{'\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf]})
			}
		case b == 0x7f && dropDEL:
		default:
			e.plain[c] = true
		}
	}
	return e
}

// The formats' rules.
var (
	// JSON is canonical JSON's (RFC 8259 as encoding/json writes it, less
	// its HTML escapes): \" \\ \n \r \t \b \f, other control characters as
	// \u00XX; everything else, U+007F included, as it is.
	JSON = newEscaping(map[byte]byte{'\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}, true, false)

	// TOON is TOON's (spec §7.1): \" \\ \n \r \t, other control characters
	// as \u00XX.
	TOON = newEscaping(map[byte]byte{'\n': 'n', '\r': 'r', '\t': 't'}, true, false)

	// GOON is GOON 1.0.0's quoted values: \" \\ \n \r \t; every other
	// control character (U+0000–U+001F, U+007F) is dropped.
	GOON = newEscaping(map[byte]byte{'\n': 'n', '\r': 'r', '\t': 't'}, false, true)
)

// Eight bytes at a time: a word of printable ASCII other than '"', '\\'
// and DEL is written as it is under every rule, so Append and Plain skip
// such words whole and look at bytes one by one only in a word that holds
// something else.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load8 returns s[i:i+8] as a little-endian word (the compiler makes it one
// load).
func load8(s string, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// cleanWord reports whether every byte of x is in 0x20–0x7E and is neither
// '"' nor '\\'. (x-ones*n)&^x&highs is non-zero exactly when a byte of x is
// below n (n <= 0x80); a byte equal to c is a zero byte of x^(ones*c).
func cleanWord(x uint64) bool {
	const (
		quote = ones * '"'
		slash = ones * '\\'
		del   = ones * 0x7f
	)
	bad := (x - ones*0x20) &^ x
	y := x ^ quote
	bad |= (y - ones) &^ y
	y = x ^ slash
	bad |= (y - ones) &^ y
	y = x ^ del
	bad |= (y - ones) &^ y
	return (bad|x)&highs == 0
}

// Append appends s escaped under e, without quotes. Each run of bytes up
// to the next ASCII byte the rule may not write as it is (a control
// character, '"', '\\', DEL), found eight bytes at a time, is copied with
// one append once it is known to be valid UTF-8 (at once when it is
// ASCII); a run ends at an ASCII byte, so at a rune boundary.
func (e *Escaping) Append(dst []byte, s string) []byte {
	start, i := 0, 0
	for {
		var hi uint64 // the bytes of the run or'ed: its high bits say non-ASCII
		for {
			if i+8 > len(s) {
				for ; i < len(s) && !special(s[i]); i++ {
					hi |= uint64(s[i])
				}
				break
			}
			x := load8(s, i)
			if m := specialMask(x); m != 0 {
				n := bits.TrailingZeros64(m) >> 3
				hi |= x & (1<<(8*n) - 1) // the bytes before it
				i += n
				break
			}
			hi |= x
			i += 8
		}
		if run := s[start:i]; hi&highs == 0 || utf8.ValidString(run) {
			dst = append(dst, run...)
		} else {
			dst = appendReplacingInvalid(dst, run)
		}
		if i == len(s) {
			return dst
		}
		if c := s[i]; e.plain[c] {
			dst = append(dst, c)
		} else {
			dst = append(dst, e.repl[c]...)
		}
		i++
		start = i
	}
}

// special reports whether c is an ASCII byte some rule does not write as
// it is: a control character, '"', '\\' or DEL.
func special(c byte) bool { return c < 0x20 || c == '"' || c == '\\' || c == 0x7f }

// specialMask has the high bit set in the lowest byte of x that is
// special, if any: its index is bits.TrailingZeros64(m)/8. Higher bits may
// be set wrongly (a borrow), but the lowest is exact, and the mask is zero
// exactly when x holds no special byte. Bytes from 0x80 up never count.
func specialMask(x uint64) uint64 {
	bad := (x - ones*0x20) &^ x
	y := x ^ (ones * '"')
	bad |= (y - ones) &^ y
	y = x ^ (ones * '\\')
	bad |= (y - ones) &^ y
	y = x ^ (ones * 0x7f)
	bad |= (y - ones) &^ y
	return bad & highs
}

// appendReplacingInvalid appends s, which holds no special byte, with each
// byte that is not part of valid UTF-8 written as U+FFFD.
func appendReplacingInvalid(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			start = i + 1
		}
		i += size
	}
	return append(dst, s[start:]...)
}

// AppendQuoted appends s escaped under e, between double quotes.
func (e *Escaping) AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = e.Append(dst, s)
	return append(dst, '"')
}

// Plain reports whether Append writes s unchanged: no byte escaped or
// dropped, valid UTF-8.
func (e *Escaping) Plain(s string) bool {
	i := 0
	for ; i+8 <= len(s) && cleanWord(load8(s, i)); i += 8 {
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return utf8.ValidString(s[i:]) && e.plainFrom(s[i:])
		}
		if !e.plain[c] {
			return false
		}
	}
	return true
}

func (e *Escaping) plainFrom(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && !e.plain[c] {
			return false
		}
	}
	return true
}
