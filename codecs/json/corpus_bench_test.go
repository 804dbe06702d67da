package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// The corpus's large cases, the ones issue 21's speed table is taken over;
// BenchmarkCorpus encodes and decodes each (encode/<case>, decode/<case>) so
// that two commits compare with benchstat. MB/s is over the case's
// canonical JSON, which is the codec's own output.
var largeCases = []string{
	"lean/traversal_adr_50u_200mr", "text-heavy/traversal_adr_50u_200mr",
	"lean/neighbors_l", "text-heavy/neighbors_l",
	"text-heavy/traversal_xl", "text-heavy/aggregation_l",
	"text-heavy/search_l", "text-heavy/path_finding_l",
}

func corpusCases(b *testing.B) map[string]*wire.GraphResponse {
	b.Helper()
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		b.Fatal(err)
	}
	cases, err := corpus.Load(root + "/" + corpus.Dir)
	if err != nil {
		b.Fatal(err)
	}
	byID := make(map[string]*wire.GraphResponse, len(cases))
	for _, c := range cases {
		byID[c.ID()] = c.Response
	}
	for _, id := range largeCases {
		if byID[id] == nil {
			b.Fatalf("corpus has no case %s", id)
		}
	}
	return byID
}

func BenchmarkCorpus(b *testing.B) {
	cases := corpusCases(b)
	for _, id := range largeCases {
		data, err := json.Encode(cases[id])
		if err != nil {
			b.Fatal(err)
		}
		bench(b, "encode/"+id, len(data), func() error { _, err := json.Encode(cases[id]); return err })
		bench(b, "decode/"+id, len(data), func() error { _, err := json.Decode(data); return err })
	}
}
