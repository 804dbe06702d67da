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
	if s == "true" || s == "false" || s == "null" {
		return false, len(s)
	}
	return !textwire.NumericLike(s), len(s)
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
