package toonwrite

import (
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
)

var safeComma, safeTab, safePipe = safeTable(','), safeTable('\t'), safeTable('|')

// Eight bytes at a time: safeUnquoted skips whole words of bytes that are
// safe unquoted (ASCII from 0x20, none of the structural characters or
// the delimiter), and looks at bytes one by one from the first word that
// holds anything else.

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

// hasByte is non-zero in the high bits exactly when a byte of x equals the
// byte repeated in c (a zero byte of x^c).
func hasByte(x, c uint64) uint64 {
	y := x ^ c
	return (y - ones) &^ y
}

// cleanWord reports whether every byte of x is safe unquoted: in
// 0x20-0x7F and none of : " \ [ ] { } or the delimiter. (x-ones*0x20)&^x
// has a high bit set when a byte is below 0x20; the high bits of x, when
// a byte is 0x80 or above.
func (e *Writer) cleanWord(x uint64) bool {
	bad := (x - ones*0x20) &^ x
	bad |= hasByte(x, ones*':') | hasByte(x, ones*'"') | hasByte(x, ones*'\\') |
		hasByte(x, ones*'[') | hasByte(x, ones*']') | hasByte(x, ones*'{') | hasByte(x, ones*'}') |
		hasByte(x, ones*uint64(e.delim))
	return (bad|x)&highs == 0
}

func safeTable(delim byte) [256]bool {
	var t [256]bool
	for c := 0x20; c < 256; c++ {
		t[c] = true
	}
	for _, c := range []byte{':', '"', '\\', '[', ']', '{', '}', delim} {
		t[c] = false
	}
	return t
}

// AppendString appends s, quoted when spec §7.2 requires it. A quoted
// string's prefix that safeUnquoted found clean is copied as it is: no
// byte TOON escapes (a quote, a backslash, a control character) or
// replaces (invalid UTF-8) is safe unquoted, and the prefix ends at a
// rune's boundary, so only the rest is scanned again for escaping.
func (e *Writer) AppendString(dst []byte, s string) []byte {
	ok, clean := e.safeUnquoted(s)
	if ok {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	dst = append(dst, s[:clean]...)
	dst = textwire.TOON.Append(dst, s[clean:])
	return append(dst, '"')
}

// safeUnquoted reports whether s is written unquoted, and the length of
// the prefix of s it found safe unquoted.
func (e *Writer) safeUnquoted(s string) (bool, int) {
	if s == "" {
		return false, 0
	}
	switch s[0] {
	case ' ', '\t', '-', '#':
		return false, 0
	}
	if c := s[len(s)-1]; c == ' ' || c == '\t' {
		return false, 0
	}
	// Find the first ASCII byte not safe unquoted eight bytes at a time,
	// letting non-ASCII bytes through; the prefix before it must then be
	// valid UTF-8, which one check of the whole prefix tells.
	safe := e.safe
	i := 0
	var hi uint64
	for ; i+8 <= len(s); i += 8 {
		x := load8(s, i)
		if e.unsafeMask(x) != 0 {
			break
		}
		hi |= x
	}
	for ; i < len(s) && (s[i] >= utf8.RuneSelf || safe[s[i]]); i++ {
		hi |= uint64(s[i])
	}
	if hi&highs != 0 && !utf8.ValidString(s[:i]) {
		return e.safeUnquotedByRune(s)
	}
	if i < len(s) {
		return false, i
	}
	return e.unquotedWord(s)
}

// unsafeMask is non-zero exactly when an ASCII byte of x is not safe
// unquoted: below 0x20, one of : " \ [ ] { } or the delimiter. Bytes from
// 0x80 up do not count.
func (e *Writer) unsafeMask(x uint64) uint64 {
	bad := (x - ones*0x20) &^ x
	bad |= hasByte(x, ones*':') | hasByte(x, ones*'"') | hasByte(x, ones*'\\') |
		hasByte(x, ones*'[') | hasByte(x, ones*']') | hasByte(x, ones*'{') | hasByte(x, ones*'}') |
		hasByte(x, ones*uint64(e.delim))
	return bad & highs
}

// unquotedWord is safeUnquoted for s whose bytes are all safe unquoted:
// unquoted unless it reads as a literal or a number.
func (e *Writer) unquotedWord(s string) (bool, int) {
	if s == "true" || s == "false" || s == "null" {
		return false, len(s)
	}
	return !textwire.NumericLike(s), len(s)
}

// safeUnquotedByRune is safeUnquoted for s, past its first and last byte's
// checks, holding invalid UTF-8: byte by byte, rune by rune, to the first
// byte that is not safe.
func (e *Writer) safeUnquotedByRune(s string) (bool, int) {
	safe := e.safe
	i := 0
	for ; i+8 <= len(s) && e.cleanWord(load8(s, i)); i += 8 {
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !safe[c] {
				return false, i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false, i // quoted, so that appendQuoted replaces the bad byte
		}
		i += size
	}
	return e.unquotedWord(s)
}

// PlainKey reports whether key is written unquoted (the codec's error paths
// quote the others): whether it matches ^[A-Za-z_][A-Za-z0-9_.]*$.
func PlainKey(key string) bool {
	if key == "" {
		return false
	}
	if c := key[0]; !(c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z') {
		return false
	}
	for i := 1; i < len(key); i++ {
		c := key[i]
		if !(c == '_' || c == '.' || isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z') {
			return false
		}
	}
	return true
}

// AppendKey appends key, quoted unless it matches ^[A-Za-z_][A-Za-z0-9_.]*$.
func AppendKey(dst []byte, key string) []byte {
	if PlainKey(key) {
		return append(dst, key...)
	}
	return textwire.TOON.AppendQuoted(dst, key)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
