package cli_test

import (
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestSniffNamesEveryCodec: every built-in codec's encoding of every fixed
// response (empty ones, every value kind, v2 and v5 pagination) is named
// first, with confidence.
func TestSniffNamesEveryCodec(t *testing.T) {
	n := 0
	for _, info := range wire.List() {
		for i, r := range wiretest.FixedResponses() {
			b, err := wire.EncodeWith(info.Name, r)
			if err != nil {
				continue // a response this codec refuses
			}
			g := wire.Sniff(b)
			if len(g) == 0 || g[0].Name != info.Name || g[0].Confidence < 0.9 {
				t.Errorf("%s of response %d: Sniff = %v, want %s first with confidence ≥ 0.9", info.Name, i, g, info.Name)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no encodings sniffed")
	}
}
