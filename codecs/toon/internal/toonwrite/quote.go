package toonwrite

import (
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
)

var safeComma, safeTab, safePipe = safeTable(','), safeTable('\t'), safeTable('|')

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

// AppendString appends s, quoted when spec §7.2 requires it.
func (e *Writer) AppendString(dst []byte, s string) []byte {
	if e.safeUnquoted(s) {
		return append(dst, s...)
	}
	return textwire.TOON.AppendQuoted(dst, s)
}

func (e *Writer) safeUnquoted(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case ' ', '\t', '-', '#':
		return false
	}
	if c := s[len(s)-1]; c == ' ' || c == '\t' {
		return false
	}
	safe := e.safe
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !safe[c] {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false // quoted, so that appendQuoted replaces the bad byte
		}
		i += size
	}
	if s == "true" || s == "false" || s == "null" {
		return false
	}
	return !textwire.NumericLike(s)
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
