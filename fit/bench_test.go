//go:build unix

package fit_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// BenchmarkPage measures Page against its peer, encoding the whole response
// and counting its tokens, in the same run: each iteration runs the peer
// and Page at 2K and 32K tokens and at the whole page's cost minus one
// token (the whole misses by one unit), with and without the JSON
// baseline (_nobase: without Options.JSONBaseline), and the x_* metrics are the ratios
// of the CPU time (user + system, of the process: wall time on a shared
// machine varies with its load) Page / (encode + count). The token-budget
// issue wants them at most 3.
func BenchmarkPage(b *testing.B) {
	for _, name := range []string{"neighbors_l", "traversal_xl"} {
		r := testsupport.LoadResponse(b, filepath.Join(corpusDir, name+".json"))
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
					t0 := cpuTime()
					enc, err := wire.EncodeWith(codec, r)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := counter.Count(enc); err != nil {
						b.Fatal(err)
					}
					peer += cpuTime() - t0
					for i, bu := range budgets {
						t0 := cpuTime()
						res, err := fit.Page(r, fit.Options{Codec: codec, Budget: bu.budget, JSONBaseline: !bu.skip})
						if err != nil {
							b.Fatal(err)
						}
						spent[i] += cpuTime() - t0
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

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
