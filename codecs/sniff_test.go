package codecs_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestNewRegistrySniffs: codecs built with other options judge their
// encodings as the default ones do, so a registry of one's own detects
// formats exactly as the default registry.
func TestNewRegistrySniffs(t *testing.T) {
	if raceEnabled {
		t.Skip("every codec's encoding of the whole corpus, sniffed on one goroutine; .ci/run runs it without -race")
	}
	reg, err := codecs.NewRegistry(codecs.Options{
		Limits:      wire.Limits{MaxInputBytes: 8 << 20, MaxDepth: 8},
		GOONVersion: "4.0.1",
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range corpus.Generate() {
		for _, info := range reg.List() {
			b, err := reg.EncodeWith(info.Name, c.Response)
			if err != nil {
				t.Fatalf("%s as %s: %v", c.Name, info.Name, err)
			}
			g := wirecodec.Sniff(reg, b)
			if len(g) == 0 || g[0].Name != info.Name || g[0].Confidence < 0.9 {
				t.Errorf("%s as %s: Sniff = %v, want %s first with confidence ≥ 0.9", c.Name, info.Name, g, info.Name)
			}
			if diff := cmp.Diff(wirecodec.Sniff(wire.DefaultRegistry(), b), g); diff != "" {
				t.Errorf("%s as %s: the default registry's guesses (-) and this one's (+):\n%s", c.Name, info.Name, diff)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("nothing encoded")
	}
}
