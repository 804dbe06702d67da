package fit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// TestStatelessPagesOnCorpus walks every text-heavy corpus case in goon,
// toon, json and gcf at 3,000 o200k tokens, each page by a call of Page
// that never saw the pages before it (only the response and the cursor),
// and checks every page: its encoding, counted again, is what the
// statistics say and within the budget; the pages with one, two and
// three more units each cost more than the budget (by an exact count);
// the pages start where the previous one ended; and all of them
// together hold every node, edge and row of the case exactly once.
// The cases of less than 2 MB (traversal_xl is walked by the Pager
// tests); under -short, of less than 200 KB.
func TestStatelessPagesOnCorpus(t *testing.T) {
	if raceEnabled {
		t.Skip("walks every page of the corpus in four codecs")
	}
	const budget = 3000
	paths, err := filepath.Glob(filepath.Join("..", "bench", "corpus", "text-heavy", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	count := func(b []byte) int { return testsupport.Tokens(t, tokens.O200k, b) }
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 2_000_000 || testing.Short() && len(data) > 200_000 {
			continue
		}
		r, err := wire.DecodeWith("json", data)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		for _, codec := range []string{"goon", "toon", "json", "gcf"} {
			f, err := prepare(t.Context(), r, nil, codec, "")
			if err != nil {
				t.Fatal(err)
			}
			var got items
			cursor, from, pages := "", 0, 0
			for ; ; pages++ {
				res, err := Page(r, Options{Codec: codec, Budget: budget, Cursor: cursor})
				if err != nil {
					t.Fatalf("%s in %s, page %d: %v", name, codec, pages+1, err)
				}
				st := res.Stats
				enc, err := f.codec.AppendEncode(nil, res.Page)
				if err != nil || string(enc) != string(res.Encoding) {
					t.Fatalf("%s in %s, page %d: Encoding is not the page's encoding (%v)", name, codec, pages+1, err)
				}
				if n := count(res.Encoding); n != st.PageTokens || n > budget {
					t.Fatalf("%s in %s, page %d: %d tokens by count, %d by stats, budget %d", name, codec, pages+1, n, st.PageTokens, budget)
				}
				if st.FirstUnit != from {
					t.Fatalf("%s in %s, page %d: starts at unit %d, want %d", name, codec, pages+1, st.FirstUnit, from)
				}
				to := from + st.Units.Kept
				for more := 1; more <= 3 && to+more <= f.plan.units; more++ {
					b, err := f.codec.AppendEncode(nil, f.plan.page(from, to+more, f.pagination(from, to+more)))
					if err != nil {
						t.Fatal(err)
					}
					if n := count(b); n <= budget {
						t.Fatalf("%s in %s, page %d: units [%d,%d) served, but [%d,%d) cost %d, within %d", name, codec, pages+1, from, to, from, to+more, n, budget)
					}
				}
				got.add(t, res.Page)
				if !st.Truncated {
					if to != f.plan.units {
						t.Fatalf("%s in %s: the last page ends at unit %d of %d", name, codec, to, f.plan.units)
					}
					break
				}
				cursor, from = res.Page.Pagination.NextCursor.V, to
			}
			var want items
			want.add(t, r)
			for _, it := range []*items{&want, &got} {
				for _, s := range [][]string{it.nodes, it.edges} {
					slices.Sort(s)
				}
			}
			if d := cmp.Diff(want, got, cmp.AllowUnexported(items{})); d != "" {
				t.Fatalf("%s in %s: the pages' items are not the whole's (-whole +pages):\n%.2000s", name, codec, d)
			}
			t.Logf("%-28s %-4s %3d pages", name, codec, pages+1)
		}
	}
}
