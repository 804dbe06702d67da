package toonwrite

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/internal/textwire"
)

// cleanWord says a word is safe exactly when each of its bytes is ASCII
// and safe unquoted under the delimiter (the byte table the byte-by-byte
// scan reads), for every byte at every position.
func TestCleanWord(t *testing.T) {
	for _, delim := range []byte{',', '\t', '|'} {
		e := New(nil, nil, delim, 2)
		for b := 0; b < 256; b++ {
			for k := range 8 {
				w := []byte("abcdefgh")
				w[k] = byte(b)
				want := b < 0x80 && e.safe[b]
				if got := e.cleanWord(textwire.Load8(string(w), 0)); got != want {
					t.Errorf("delim %q, byte %#x at %d: cleanWord %v, want %v", delim, b, k, got, want)
				}
			}
		}
	}
}

// A long string is quoted for a byte that needs it wherever it sits, and
// quoted as the TOON escaping quotes it whole, though the clean prefix
// is copied without a second scan.
func TestSafeUnquotedLong(t *testing.T) {
	e := New(nil, nil, ',', 2)
	base := strings.Repeat("plain text ", 3)
	if ok, _ := e.safeUnquoted(base + "x"); !ok {
		t.Fatalf("%q is not safe", base)
	}
	for i := range len(base) {
		for _, c := range []string{",", ":", "\"", "\\", "[", "]", "{", "}", "\n", "\xff"} {
			s := base[:i] + c + base[i:] + "x"
			if ok, _ := e.safeUnquoted(s); ok {
				t.Errorf("%q (%q at %d) is safe", s, c, i)
			}
			want := textwire.TOON.AppendQuoted(nil, s)
			if got := e.AppendString(nil, s); string(got) != string(want) {
				t.Errorf("AppendString(%q) = %q, want %q", s, got, want)
			}
		}
	}
}

// safeUnquotedRef is safeUnquoted as the rule reads: the checks of the
// ends, then byte by byte and rune by rune.
func (e *Writer) safeUnquotedRef(s string) (bool, int) {
	if quotedForEnds(s) {
		return false, 0
	}
	return e.safeUnquotedByRune(s)
}

// TestSafeUnquotedMatchesTheRule: the word-at-a-time scan, which lets
// non-ASCII bytes through and checks UTF-8 once, says what the rule says
// byte by byte, and finds the same clean prefix, on strings of every
// delimiter, structural byte, valid and broken UTF-8 at every offset.
func TestSafeUnquotedMatchesTheRule(t *testing.T) {
	alphabet := []byte{'a', '1', ' ', '.', ',', '\t', '|', ':', '"', '\\', '[', ']', '{', '}', '#', '-', '\n', 0, 0x7f,
		0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0xff}
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 40).Draw(t, "s"))
		for _, delim := range []byte{',', '\t', '|'} {
			e := New(nil, nil, delim, 2)
			ok, n := e.safeUnquoted(s)
			wantOK, wantN := e.safeUnquotedRef(s)
			if ok != wantOK || n != wantN {
				t.Fatalf("delimiter %q: safeUnquoted(%q) = %v, %d; want %v, %d", delim, s, ok, n, wantOK, wantN)
			}
		}
	})
}
