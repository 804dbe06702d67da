package codecs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
)

var allCodecs = []string{"json", "goon", "toon", "msgpack", "cbor"}

// TestInMemorySizeOfTheCorpus: every corpus case (and GKG's reference
// inputs when GOON_REFERENCE_DIR is set), in every codec, decodes under
// the default Limits with its in-memory size and its materialised size
// at most half of MaterializedLimit of its encoding: a clear margin under
// the limit that refuses dense inputs. It logs the largest ratio of the
// in-memory size to the input per codec.
func TestInMemorySizeOfTheCorpus(t *testing.T) {
	cases, err := corpus.Load("../bench/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("GOON_REFERENCE_DIR"); dir != "" {
		ref, err := corpus.Reference(filepath.Clean(dir))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, ref...)
	}
	lim := wire.DefaultLimits()
	for _, codec := range allCodecs {
		var worst float64
		var worstCase string
		for _, c := range cases {
			data, err := wire.EncodeWith(codec, c.Response)
			if err != nil {
				t.Errorf("%s, %s: %v", c.ID(), codec, err)
				continue
			}
			r, err := wire.DecodeWith(codec, data)
			if err != nil {
				t.Errorf("%s, %s: %v", c.ID(), codec, err)
				continue
			}
			mem, size := wire.InMemorySize(r), wire.MaterializedSize(r)
			if ratio := float64(mem) / float64(len(data)); ratio > worst {
				worst, worstCase = ratio, c.ID()
			}
			if limit := lim.MaterializedLimit(int64(len(data))); 2*max(mem, size) > limit {
				t.Errorf("%s, %s: %d bytes in, %d in memory, %d as JSON: within %d but not by a clear margin", c.ID(), codec, len(data), mem, size, limit)
			}
		}
		t.Logf("%s: %d cases; the largest in-memory size is %.2fx the input (%s)", codec, len(cases), worst, worstCase)
	}
}
