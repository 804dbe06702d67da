package toon_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/toon"
)

// BenchmarkCorpusDecode decodes the lean benchmark corpus, one case at a
// time, in TOON.
func BenchmarkCorpusDecode(b *testing.B) {
	cases, err := corpus.LoadCommitted()
	if err != nil {
		b.Fatal(err)
	}
	for _, cs := range cases {
		if cs.Profile != "lean" {
			continue
		}
		data, err := toon.Encode(cs.Response)
		if err != nil {
			b.Fatal(err)
		}
		runBench(b, cs.Name, len(data), func() error { _, err := toon.Decode(data); return err })
	}
}
