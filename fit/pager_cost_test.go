//go:build unix

package fit_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
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
// o200k count of the whole, in the same run: NewPager (the plan), the
// first page (and the fingerprint its cursor carries), a page in the middle after the pages
// before it, and walking every page with a new Pager, with the ratio of
// the walk's CPU time to the encode + count's. It prints figures and
// asserts none of them; it asserts that the walk's pages are each within
// the budget and that together they are the whole response.
func TestPagerCost(t *testing.T) {
	if testing.Short() || fit.RaceEnabled() {
		t.Skip("prices two responses of 1-2 MB")
	}
	xl := testsupport.LoadResponse(t, filepath.Join(corpusDir, "traversal_xl.json"))
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
		planned := measure(func() { p, err = fit.NewPager(ctx, tc.r, fit.PagerOptions{Codec: codec}) })
		if err != nil {
			t.Fatal(err)
		}
		var first *fit.Result
		firstPage := measure(func() { first, err = p.Page(ctx, budget, "") })
		if err != nil {
			t.Fatal(err)
		}
		// A page in the middle, from a pager that served the pages before
		// it.
		cursor := first.Page.Pagination.NextCursor.V
		for res := first; res.Stats.FirstUnit < res.Stats.Units.Total/2; {
			if res, err = p.Page(ctx, budget, cursor); err != nil {
				t.Fatal(err)
			}
			cursor = res.Page.Pagination.NextCursor.V
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
				cursor = res.Page.Pagination.NextCursor.V
			}
		})
		t.Logf("%s, %s, budget %d: whole %d o200k tokens, %d pages", tc.name, codec, budget, whole, len(pages))
		t.Logf("  encode + count of the whole %s", peer)
		t.Logf("  NewPager (plan)             %s", planned)
		t.Logf("  first page                  %s", firstPage)
		t.Logf("  a middle page               %s", middle)
		t.Logf("  walk: NewPager + every page %s", walk)
		t.Logf("  walk / (encode + count): %.2fx cpu, %.2fx wall", float64(walk.cpu)/float64(peer.cpu), float64(walk.wall)/float64(peer.wall))

		checkWalk(t, tc.name, tc.r, codec, budget, pages)
	}
}

// TestPagerCostOnCorpus walks every page of every text-heavy corpus case
// at 2,000 tokens in goon, toon and json with a new Pager, and asserts
// that the walk costs at most maxWalkRatio times one encoding and count of
// the whole, in CPU time: a walk has no fixed cost beyond that, whether
// the response takes one page or hundreds. Each figure is the least of a
// few rounds (minRounds, more while a case is over the bound, up to
// maxRounds), each round repeating the call until it has taken at least
// 20 ms and charging it the collection of its own garbage, so that the
// load of other processes and the collector's timing do not decide the
// outcome, while a walk that does cost more stays over the bound in
// every round. It also asserts the walk's deterministic cost: the bytes given
// to the tokenizer are at most 1.75 times the whole's (each unit once,
// where the search of a page first reads it, and the lines of each
// candidate page that no text before held in that order: headers,
// cursors, the seams between them), plus 512 a page.
func TestPagerCostOnCorpus(t *testing.T) {
	if testing.Short() || fit.RaceEnabled() {
		t.Skip("walks every page of 21 cases in 3 codecs")
	}
	entries, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	const (
		budget       = 2000
		maxWalkRatio = 2.5
		minRounds    = 2
		maxRounds    = 9
	)
	ctx := context.Background()
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	// The first use of a codec and of the tokenizer loads tables: not a
	// cost of any walk.
	for _, codec := range []string{"goon", "toon", "json"} {
		enc, err := wire.EncodeWith(codec, testsupport.LoadResponse(t, entries[0]))
		if err == nil {
			_, err = o200k.Count(enc)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	worst := map[string]float64{}
	worstName := map[string]string{}
	for _, path := range entries {
		r := testsupport.LoadResponse(t, path)
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		for _, codec := range []string{"goon", "toon", "json"} {
			var wholeBytes int
			peerCall := func() {
				enc, err := wire.EncodeWith(codec, r)
				if err == nil {
					_, err = o200k.Count(enc)
				}
				if err != nil {
					t.Fatal(err)
				}
				wholeBytes = len(enc)
			}
			var pages, tokenized int
			walkCall := func() {
				p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: codec})
				if err != nil {
					t.Fatal(err)
				}
				pages = 0
				for cursor := ""; ; pages++ {
					res, err := p.Page(ctx, budget, cursor)
					if err != nil {
						t.Fatalf("%s in %s: %v", name, codec, err)
					}
					if !res.Stats.Truncated {
						break
					}
					cursor = res.Page.Pagination.NextCursor.V
				}
				pages++
				tokenized = fit.TokenizedBytes(p)
			}
			peer, walk := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
			rounds := 0
			for ; rounds < minRounds || rounds < maxRounds && float64(walk) > maxWalkRatio*float64(peer); rounds++ {
				peer = min(peer, perCall(peerCall))
				walk = min(walk, perCall(walkCall))
			}
			ratio := float64(walk) / float64(peer)
			t.Logf("%-28s %-4s %4d pages: walk %9.3f ms cpu, encode + count %9.3f ms (least of %d rounds): %.2fx; tokenized %.2fx the whole's bytes",
				name, codec, pages, ms(walk), ms(peer), rounds, ratio, float64(tokenized)/float64(wholeBytes))
			if ratio > worst[codec] {
				worst[codec], worstName[codec] = ratio, name
			}
			if ratio > maxWalkRatio {
				t.Errorf("%s in %s: walking %d pages cost %.2fx one encode + count of the whole (%.3f ms / %.3f ms cpu), want at most %.1fx",
					name, codec, pages, ratio, ms(walk), ms(peer), maxWalkRatio)
			}
			if limit := wholeBytes*7/4 + pages*512; tokenized > limit {
				t.Errorf("%s in %s: the walk tokenized %d bytes, want at most %d (1.75 times the whole's %d, and 512 a page)", name, codec, tokenized, limit, wholeBytes)
			}
		}
	}
	for _, codec := range []string{"goon", "toon", "json"} {
		t.Logf("worst walk / (encode + count) in %s: %.2fx (%s)", codec, worst[codec], worstName[codec])
	}
}

// perCall runs call until it has taken at least 20 ms of CPU time (at
// least once), collecting the garbage left before it starts and charging
// it the collection of its own, and returns the CPU time of one call.
func perCall(call func()) time.Duration {
	runtime.GC()
	start := cpuTime()
	for n := 1; ; n++ {
		call()
		if spent := cpuTime() - start; spent >= 20*time.Millisecond {
			runtime.GC()
			return (cpuTime() - start) / time.Duration(n)
		}
	}
}
