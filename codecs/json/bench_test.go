package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// The corpus's large cases, which BenchmarkEncode and BenchmarkDecode run
// the codec on (<case> as the sub-benchmark), so that two commits compare
// with benchstat; bench/speed sets the codec beside encoding/json,
// goccy/go-json and sonic. MB/s is over the case's canonical JSON, which
// is the codec's own output.
var largeCases = []string{
	"lean/traversal_adr_50u_200mr", "text-heavy/traversal_adr_50u_200mr",
	"lean/traversal_l", "lean/neighbors_l", "text-heavy/neighbors_l",
	"text-heavy/traversal_xl", "text-heavy/aggregation_l",
	"text-heavy/search_l", "text-heavy/path_finding_l",
}

func BenchmarkEncode(b *testing.B) {
	benchCorpus(b, func(r *wire.GraphResponse, _ []byte) error { _, err := json.Encode(r); return err })
}

func BenchmarkDecode(b *testing.B) {
	benchCorpus(b, func(_ *wire.GraphResponse, data []byte) error { _, err := json.Decode(data); return err })
}

// benchCorpus runs op on each of largeCases, given the case's response
// and its canonical JSON.
func benchCorpus(b *testing.B, op func(r *wire.GraphResponse, data []byte) error) {
	cases, err := corpus.LoadCommitted()
	if err != nil {
		b.Fatal(err)
	}
	for _, id := range largeCases {
		c, ok := corpus.Find(cases, id)
		if !ok {
			b.Fatalf("corpus has no case %s", id)
		}
		data, err := json.Encode(c.Response)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(id, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := op(c.Response, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
