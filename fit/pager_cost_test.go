//go:build unix

package fit_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// cost is what one call spent: wall time, CPU time of the process (user +
// system: on a shared machine wall time varies with the load), and heap
// allocations.
type cost struct {
	wall, cpu time.Duration
	allocs    uint64 // objects
	bytes     uint64 // bytes
}

func (c cost) String() string {
	return fmt.Sprintf("%8.1f ms wall %8.1f ms cpu %9d allocs %7.1f MB", ms(c.wall), ms(c.cpu), c.allocs, float64(c.bytes)/1e6)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func measure(call func()) cost {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c0, t0 := cpuTime(), time.Now()
	call()
	wall, cpu := time.Since(t0), cpuTime()-c0
	runtime.ReadMemStats(&after)
	return cost{wall: wall, cpu: cpu, allocs: after.Mallocs - before.Mallocs, bytes: after.TotalAlloc - before.TotalAlloc}
}

// TestPagerCost prints, for the adopter's response (3,500 nodes, 9,000
// edges, about 227K o200k tokens of GOON) and for traversal_xl, what
// paging them at 4,000 tokens costs in GOON beside one encoding and one
// o200k count of the whole, in the same run: pricing (NewPager), the first
// page once priced, a page in the middle once the walk is known, and
// walking every page with a new Pager (pricing included), with the ratio
// of the walk's CPU time to the encode + count's. It prints figures and
// asserts none of them; it asserts that the walk's pages are each within
// the budget, that they are as many as Stats.Pages says, and that together
// they are the whole response.
func TestPagerCost(t *testing.T) {
	if testing.Short() || fit.RaceEnabled() {
		t.Skip("prices two responses of 1-2 MB")
	}
	xl := loadCase(t, filepath.Join(corpusDir, "traversal_xl.json"))
	for _, tc := range []struct {
		name string
		r    *wire.GraphResponse
	}{
		{"adopter 3,500 nodes 9,000 edges", adopterResponse()},
		{"traversal_xl", xl},
	} {
		const codec, budget = "goon", 4000
		ctx := context.Background()
		o200k, err := tokens.Get(tokens.O200k)
		if err != nil {
			t.Fatal(err)
		}
		var whole int
		peer := measure(func() {
			var enc []byte
			if enc, err = wire.EncodeWith(codec, tc.r); err == nil {
				whole, err = o200k.Count(enc)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		var p *fit.Pager
		priced := measure(func() { p, err = fit.NewPager(ctx, tc.r, fit.PagerOptions{Codec: codec}) })
		if err != nil {
			t.Fatal(err)
		}
		var first *fit.Result
		firstPage := measure(func() { first, err = p.Page(ctx, budget, "") })
		if err != nil {
			t.Fatal(err)
		}
		// A page in the middle, from a pager that knows the walk: what a
		// service pays per request once the response is priced.
		cursor := first.Page.Pagination.NextCursor.String
		for range first.Stats.Pages / 2 {
			res, err := p.Page(ctx, budget, cursor)
			if err != nil {
				t.Fatal(err)
			}
			cursor = res.Page.Pagination.NextCursor.String
		}
		middle := measure(func() { _, err = p.Page(ctx, budget, cursor) })
		if err != nil {
			t.Fatal(err)
		}

		var pages []*fit.Result
		walk := measure(func() {
			w, err := fit.NewPager(ctx, tc.r, fit.PagerOptions{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			for cursor := ""; ; {
				res, err := w.Page(ctx, budget, cursor)
				if err != nil {
					t.Fatal(err)
				}
				pages = append(pages, res)
				if !res.Stats.Truncated {
					break
				}
				cursor = res.Page.Pagination.NextCursor.String
			}
		})
		t.Logf("%s, %s, budget %d: whole %d o200k tokens, %d pages", tc.name, codec, budget, whole, len(pages))
		t.Logf("  encode + count of the whole %s", peer)
		t.Logf("  NewPager (pricing)          %s", priced)
		t.Logf("  first page, once priced     %s", firstPage)
		t.Logf("  a middle page, walk known   %s", middle)
		t.Logf("  walk: NewPager + every page %s", walk)
		t.Logf("  walk / (encode + count): %.2fx cpu, %.2fx wall", float64(walk.cpu)/float64(peer.cpu), float64(walk.wall)/float64(peer.wall))

		checkWalk(t, tc.name, tc.r, codec, budget, pages)
	}
}
