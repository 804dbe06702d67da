package toonwrite

import (
	"strings"
	"testing"

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
				if got := e.cleanWord(load8(string(w), 0)); got != want {
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
