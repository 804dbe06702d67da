package gcf_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	_ "github.com/graphwire/graphwire/codecs" // the other built-in codecs
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestSniffAmongCodecs: beside every built-in codec, the default registry
// names gcf first for gcf's encodings, and gcf claims no other codec's.
func TestSniffAmongCodecs(t *testing.T) {
	for _, cs := range corpus.Generate() {
		for _, info := range wire.List() {
			data, err := wire.EncodeWith(info.Name, cs.Response)
			if err != nil {
				t.Fatalf("%s as %s: %v", cs.ID(), info.Name, err)
			}
			if info.Name == gcf.Name {
				if g := wirecodec.Sniff(wire.DefaultRegistry(), data); len(g) == 0 || g[0].Name != gcf.Name {
					t.Errorf("%s: the registry's guesses for gcf text are %v", cs.ID(), g)
				}
				continue
			}
			if s := gcf.Default().Sniff(data); s != 0 {
				t.Errorf("%s as %s: gcf's Sniff gives %v", cs.ID(), info.Name, s)
			}
		}
	}
}
