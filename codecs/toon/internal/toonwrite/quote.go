package toonwrite

import (
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
)

var safeComma, safeTab, safePipe = safeTable(','), safeTable('\t'), safeTable('|')

// structMask flags the bytes of x, eight at a time, that are not safe
// unquoted as ASCII: below 0x20, one of : " \\ [ ] { } or the delimiter.
func (e *Writer) structMask(x uint64) uint64 {
	return textwire.EscMask(x) | textwire.Equal(x, ':') | textwire.Equal(x, '[') | textwire.Equal(x, ']') |
		textwire.Equal(x, '{') | textwire.Equal(x, '}') | textwire.Equal(x, e.delim)
}

// cleanWord reports whether every byte of x is safe unquoted: ASCII, and
// not flagged by structMask.
func (e *Writer) cleanWord(x uint64) bool { return e.structMask(x)|x&textwire.Highs == 0 }

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

// AppendString appends s, quoted when spec §7.2 requires it; the prefix
// safeUnquoted found clean is copied as it is.
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
	if quotedForEnds(s) {
		return false, 0
	}
	// The first ASCII byte not safe unquoted; the prefix must be UTF-8.
	safe := e.safe
	i := 0
	var hi uint64
	for ; i+8 <= len(s); i += 8 {
		x := textwire.Load8(s, i)
		if e.structMask(x) != 0 {
			break
		}
		hi |= x
	}
	for ; i < len(s) && (s[i] >= utf8.RuneSelf || safe[s[i]]); i++ {
		hi |= uint64(s[i])
	}
	if hi&textwire.Highs != 0 && !utf8.ValidString(s[:i]) {
		return e.safeUnquotedByRune(s)
	}
	if i < len(s) {
		return false, i
	}
	return e.unquotedWord(s)
}

// quotedForEnds reports whether s is quoted whatever its middle.
func quotedForEnds(s string) bool {
	if s == "" {
		return true
	}
	switch s[0] {
	case ' ', '\t', '-', '#':
		return true
	}
	c := s[len(s)-1]
	return c == ' ' || c == '\t'
}

// unquotedWord is safeUnquoted for s whose bytes are all safe unquoted.
func (e *Writer) unquotedWord(s string) (bool, int) {
	if s == "true" || s == "false" || s == "null" {
		return false, len(s)
	}
	return !textwire.NumericLike(s), len(s)
}

// safeUnquotedByRune is safeUnquoted for s holding invalid UTF-8.
func (e *Writer) safeUnquotedByRune(s string) (bool, int) {
	safe := e.safe
	i := 0
	for ; i+8 <= len(s) && e.cleanWord(textwire.Load8(s, i)); i += 8 {
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

// PlainKey reports whether key matches ^[A-Za-z_][A-Za-z0-9_.]*$.
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

// AppendKey appends key, quoted unless PlainKey.
func AppendKey(dst []byte, key string) []byte {
	if PlainKey(key) {
		return append(dst, key...)
	}
	return textwire.TOON.AppendQuoted(dst, key)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
