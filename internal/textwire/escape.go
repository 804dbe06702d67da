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

// cleanWord reports whether every byte of x is in 0x20–0x7E and is neither
// '"' nor '\\': written as it is under every rule.
func cleanWord(x uint64) bool { return specialMask(x)|x&Highs == 0 }

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
			x := Load8(s, i)
			if m := specialMask(x); m != 0 {
				n := bits.TrailingZeros64(m) >> 3
				hi |= x & (1<<(8*n) - 1) // the bytes before it
				i += n
				break
			}
			hi |= x
			i += 8
		}
		if run := s[start:i]; hi&Highs == 0 || utf8.ValidString(run) {
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

// specialMask flags the special bytes of x (see special).
func specialMask(x uint64) uint64 { return EscMask(x) | Equal(x, 0x7f) }

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
	for ; i+8 <= len(s) && cleanWord(Load8(s, i)); i += 8 {
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
