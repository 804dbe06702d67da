package json

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
	"pgregory.net/rapid"
)

// TestDecoderReadsWhatTheWriterQuotes: the decoder reads each string the
// writer quotes back as it was, each byte of invalid UTF-8 as U+FFFD, and
// stops after its closing quote.
func TestDecoderReadsWhatTheWriterQuotes(t *testing.T) {
	alphabet := []string{"a", "é", "\u2028", "😀", "\"", "\\", "\n", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x82", "\xf0\x9f", " ", "abcdefgh"}
	rapid.Check(t, func(t *rapid.T) {
		s := strings.Join(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 24).Draw(t, "s"), "")
		quoted := AppendString(nil, s)
		d := decoder{Scanner: jsonvalue.NewScanner(quoted), l: wire.DefaultLimits()}
		got, err := d.str("s", d.l.MaxStringBytes)
		if want := eachInvalidByteReplaced(s); err != nil || got != want || d.Pos != len(quoted) {
			t.Fatalf("str(%s) = %q, %v at %d; want %q at %d", quoted, got, err, d.Pos, want, len(quoted))
		}
	})
}

// eachInvalidByteReplaced is s with each byte that is not part of valid
// UTF-8 replaced by U+FFFD.
func eachInvalidByteReplaced(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
