package gcfvalue

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// needsQuotesRef is spec §2.4's rule written plainly, byte by byte: the
// reference quoteCheck's word-at-a-time scan is held to.
func needsQuotesRef(s string) bool {
	switch s {
	case "", "-", "~", "^", "true", "false":
		return true
	}
	if isNumberLiteral(s) || isNumericLike(s) {
		return true
	}
	switch s[0] {
	case '#', '@', '.':
		return true
	}
	if s[0] == '^' && s[1%len(s)] == '{' && s[len(s)-1] == '}' {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return true
	}
	open := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20 || c == '"' || c == '\\' || c == '|' || c == ',':
				return true
			case c == '[':
				open = true
			case c == ']' && open && i+1 < len(s) && s[i+1] == ':':
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r >= 0x80 && r <= 0x9F) || r == 0xFEFF || unicode.IsSpace(r) {
			return true
		}
		i += size
	}
	return false
}

// TestQuoteCheck: quoteCheck agrees with the plain rule, and tells valid
// UTF-8 from not, on strings built from the bytes that matter.
func TestQuoteCheck(t *testing.T) {
	pieces := []string{"a", "Z", "0", "1", "-", "+", ".", "e", " ", "\t", "\n", "\"", "\\", "|", ",", "[", "]", ":", "^", "{", "}",
		"#", "@", "~", "true", "false", "é", "\u0085", "\u00a0", "\u2003", "\ufeff", "日本", "\xff", "\xe6\x97", "abcdefgh", "<|endoftext|>"}
	rapid.Check(t, func(rt *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 12).Draw(rt, "parts")
		s := ""
		for _, p := range parts {
			s += p
		}
		q, ok := quoteCheck(s, true)
		if ok != utf8.ValidString(s) {
			rt.Fatalf("%q: valid %v", s, ok)
		}
		if ok && q != needsQuotesRef(s) {
			rt.Fatalf("%q: quote %v, the rule says %v", s, q, needsQuotesRef(s))
		}
		if utf8.ValidString(s) && NeedsQuotes(s) != needsQuotesRef(s) {
			rt.Fatalf("%q: needsQuotes %v, the rule says %v", s, NeedsQuotes(s), needsQuotesRef(s))
		}
	})
}
