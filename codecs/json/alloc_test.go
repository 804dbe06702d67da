//go:build !race

package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/json"
)

// TestEncodeAllocations: encoding any corpus case allocates once, the
// output buffer, and nothing with a caller's buffer large enough.
func TestEncodeAllocations(t *testing.T) {
	for _, c := range corpus.Generate() {
		r := c.Response
		out, err := json.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(3, func() { _, _ = json.Encode(r) }); n != 1 {
			t.Errorf("%s: Encode allocates %v times, want 1", c.ID(), n)
		}
		buf := make([]byte, 0, len(out))
		if n := testing.AllocsPerRun(3, func() { _, _ = json.AppendEncode(buf[:0], r) }); n != 0 {
			t.Errorf("%s: AppendEncode into a large enough buffer allocates %v times, want 0", c.ID(), n)
		}
	}
}
