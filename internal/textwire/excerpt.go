package textwire

import (
	"strconv"
	"unicode/utf8"
)

// MaxExcerpt is the most bytes of the input an error message quotes.
const MaxExcerpt = 64

// Excerpt quotes s for an error message (Go syntax, so that control
// characters cannot break the one-line message), cut to its first
// MaxExcerpt bytes at a code point boundary with "..." after the closing
// quote when cut.
func Excerpt(s string) string {
	if len(s) <= MaxExcerpt {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cutAt(s, MaxExcerpt)]) + "..."
}

// Clip returns s for an error message unquoted, for text already known to
// be printable (a name, a number's literal): s itself, or its first
// MaxExcerpt bytes and "...".
func Clip(s string) string {
	if len(s) <= MaxExcerpt {
		return s
	}
	return s[:cutAt(s, MaxExcerpt)] + "..."
}

// cutAt returns the largest offset not above n that starts a code point
// of s (len(s) > n).
func cutAt(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
