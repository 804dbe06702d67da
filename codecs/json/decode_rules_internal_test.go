package json

import (
	stdjson "encoding/json"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
	"pgregory.net/rapid"
)

// TestDecoderReadsWhatTheWriterQuotes: the decoder reads each string the
// writer quotes as encoding/json reads it, and stops after its closing
// quote.
func TestDecoderReadsWhatTheWriterQuotes(t *testing.T) {
	alphabet := []string{"a", "é", "\u2028", "😀", "\"", "\\", "\n", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x82", "\xf0\x9f", " ", "abcdefgh"}
	rapid.Check(t, func(t *rapid.T) {
		s := strings.Join(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 24).Draw(t, "s"), "")
		quoted := AppendString(nil, s)
		var want string
		if err := stdjson.Unmarshal(quoted, &want); err != nil {
			t.Fatalf("encoding/json refuses %s: %v", quoted, err)
		}
		d := decoder{Scanner: jsonvalue.NewScanner(quoted), l: wire.DefaultLimits()}
		got, err := d.str("s", d.l.MaxStringBytes)
		if err != nil || got != want || d.Pos != len(quoted) {
			t.Fatalf("str(%s) = %q, %v at %d; want %q at %d", quoted, got, err, d.Pos, want, len(quoted))
		}
	})
}
