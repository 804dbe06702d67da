package fit_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/tokens"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
)

// BenchmarkPage measures Page against its peer, encoding the whole response
// and counting its tokens, in the same run: each iteration times the peer
// and Page at 2K and 32K tokens and at the whole page's cost minus one
// token (the whole misses by one unit), and the x_* metrics are the ratios
// Page / (encode + count), which the token-budget issue wants at most 3.
func BenchmarkPage(b *testing.B) {
	for _, name := range []string{"neighbors_l", "traversal_xl"} {
		r := loadCase(b, filepath.Join(corpusDir, name+".json"))
		for _, codec := range []string{"goon", "toon", "json"} {
			b.Run(name+"/"+codec, func(b *testing.B) {
				counter, err := tokens.Get(tokens.O200k)
				if err != nil {
					b.Fatal(err)
				}
				all, err := fit.Page(r, fit.Options{Codec: codec, Budget: 1 << 30})
				if err != nil {
					b.Fatal(err)
				}
				whole1 := all.Stats.PageTokens - 1
				budgets := []struct {
					name   string
					budget int
					skip   bool
				}{
					{"x_2K", 2000, false}, {"x_32K", 32000, false}, {"x_whole-1", whole1, false},
					{"x_2K_nobase", 2000, true}, {"x_32K_nobase", 32000, true}, {"x_whole-1_nobase", whole1, true},
				}
				var peer time.Duration
				spent := make([]time.Duration, len(budgets))
				for b.Loop() {
					t0 := time.Now()
					enc, err := wire.EncodeWith(codec, r)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := counter.Count(enc); err != nil {
						b.Fatal(err)
					}
					peer += time.Since(t0)
					for i, bu := range budgets {
						t0 := time.Now()
						res, err := fit.Page(r, fit.Options{Codec: codec, Budget: bu.budget, SkipJSONBaseline: bu.skip})
						if err != nil {
							b.Fatal(err)
						}
						spent[i] += time.Since(t0)
						if res.Stats.PageTokens > bu.budget {
							b.Fatalf("%s: page of %d tokens over budget %d", bu.name, res.Stats.PageTokens, bu.budget)
						}
					}
				}
				for i, bu := range budgets {
					b.ReportMetric(float64(spent[i])/float64(peer), bu.name)
				}
			})
		}
	}
}
