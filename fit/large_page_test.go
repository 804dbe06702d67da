//go:build unix

package fit_test

import (
	"testing"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// largeTraversal is the response of the token-budget cost measurement:
// a traversal of 100,000 nodes (33,334 users, 66,666 merge requests) and
// 66,666 edges, about 22 MB of canonical JSON.
func largeTraversal() *wire.GraphResponse { return testsupport.ADRTraversal(33_334, 66_666) }

// BenchmarkLargePage measures, on largeTraversal at 4,000 o200k tokens,
// one encoding of the whole (encode), the first page (first) and a page
// from a cursor of the middle of the response, by a call that never saw
// the pages before it (cursor), in goon, toon, json and gcf, with the CPU
// time of each call (cpu-ms/op: on a shared machine wall time follows
// the load). A page costs what the page costs: first and cursor take a
// small fraction of encode.
func BenchmarkLargePage(b *testing.B) {
	r := largeTraversal()
	const budget = 4000
	for _, codec := range []string{"goon", "toon", "json", "gcf"} {
		first, err := fit.Page(r, fit.Options{Codec: codec, Budget: budget})
		if err != nil {
			b.Fatal(err)
		}
		cursor := fit.CursorAt(r, first.Stats.Units.Total/2)
		run := func(name string, call func() error) {
			b.Run(codec+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				t0 := cpuTime()
				for b.Loop() {
					if err := call(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuTime()-t0)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
		run("encode", func() error { _, err := wire.EncodeWith(codec, r); return err })
		run("first", func() error { _, err := fit.Page(r, fit.Options{Codec: codec, Budget: budget}); return err })
		run("cursor", func() error {
			_, err := fit.Page(r, fit.Options{Codec: codec, Budget: budget, Cursor: cursor})
			return err
		})
	}
}
