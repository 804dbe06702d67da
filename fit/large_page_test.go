//go:build unix

package fit_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
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

// liveHeap returns the live heap after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestPageCostFollowsThePage pages largeTraversal at 4,000 tokens, the
// first page and one from a cursor of the middle, in goon, toon, json and
// gcf, and checks what each costs against the page rather than the
// response: the bytes given to the tokenizer are at most 4 times the
// page's encoding (every candidate page holds at most about twice the
// page's units, and each is tokenized only where no candidate before it
// held the same lines), and Page's peak heap is at most the response's
// in-memory size plus 4 MiB (the plan and the fingerprint: one cheap
// pass each).
func TestPageCostFollowsThePage(t *testing.T) {
	if testing.Short() || fit.RaceEnabled() {
		t.Skip("builds a 100,000-node response")
	}
	before := liveHeap()
	r := largeTraversal()
	size := liveHeap() - before
	const budget = 4000
	ctx := context.Background()
	for _, codec := range []string{"goon", "toon", "json", "gcf"} {
		first, err := fit.Page(r, fit.Options{Codec: codec, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		for _, cursor := range []string{"", fit.CursorAt(r, first.Stats.Units.Total/2)} {
			var res *fit.Result
			fp := wiretest.Measure(func() { res, err = fit.Page(r, fit.Options{Codec: codec, Budget: budget, Cursor: cursor}) })
			if err != nil {
				t.Fatal(err)
			}
			p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Page(ctx, budget, cursor); err != nil {
				t.Fatal(err)
			}
			tokenized := fit.TokenizedBytes(p)
			t.Logf("%-4s page from unit %6d: %4d tokens, %6d bytes; tokenized %7d bytes; response %d MiB in memory; %v",
				codec, res.Stats.FirstUnit, res.Stats.PageTokens, len(res.Encoding), tokenized, size>>20, fp)
			if limit := 4 * len(res.Encoding); tokenized > limit {
				t.Errorf("%s from unit %d: tokenized %d bytes for a page of %d, want at most %d", codec, res.Stats.FirstUnit, tokenized, len(res.Encoding), limit)
			}
			if limit := size + 4<<20; fp.PeakHeap > limit {
				t.Errorf("%s from unit %d: peak heap %d bytes, want at most %d (the response's %d in memory and 4 MiB)", codec, res.Stats.FirstUnit, fp.PeakHeap, limit, size)
			}
		}
	}
}
