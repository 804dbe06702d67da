package fit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// raceEnabled is set by race_test.go under the race detector, where the
// property tests run fewer cases.
var raceEnabled bool

// propertyCases is how many generated responses the property test pages
// through: 500, 40 under -short, 20 under the race detector.
func propertyCases() int {
	switch {
	case raceEnabled:
		return 20
	case testing.Short():
		return 40
	}
	return 500
}

var textCodecs = []string{"goon", "toon", "json"}

// entityKey names a node the way edges and node cells refer to it.
type entityKey struct {
	typ string
	id  int64
}

// itemKey is an item's canonical JSON, for comparing multisets.
func itemKey(t *testing.T, r *wire.GraphResponse) string {
	t.Helper()
	r.QueryType = wire.Traversal
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type items struct{ nodes, edges, rows []string }

func (it *items) add(t *testing.T, r *wire.GraphResponse) {
	for _, n := range r.Nodes {
		it.nodes = append(it.nodes, itemKey(t, &wire.GraphResponse{Nodes: []wire.Node{n}}))
	}
	for _, e := range r.Edges {
		it.edges = append(it.edges, itemKey(t, &wire.GraphResponse{Edges: []wire.Edge{e}}))
	}
	for _, row := range r.Rows {
		it.rows = append(it.rows, itemKey(t, &wire.GraphResponse{Rows: []wire.Row{row}}))
	}
}

// TestPageProperties pages through generated responses in goon, toon and
// json with both tokenizers and random budgets (changing from page to
// page, since a cursor is stateless), and checks every page: its tokens,
// counted on the final bytes, are within the budget; it is tight (the
// next unit would not fit, by an exact count); it is graph-whole; its
// pagination is v5 and consistent; and all pages together hold every
// node, edge and row exactly once, rows (and in node-led responses nodes)
// in server order.
func TestPageProperties(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{MaxNodes: 16})
	for seed := range propertyCases() {
		r := gen.Example(seed)
		for _, codec := range textCodecs {
			for _, counter := range []string{tokens.O200k, tokens.Cl100k} {
				rnd := rand.New(rand.NewPCG(uint64(seed), 7))
				name := fmt.Sprintf("seed %d/%s/%s", seed, codec, counter)
				checkPages(t, name, r, codec, counter, rnd)
			}
		}
	}
}

func checkPages(t *testing.T, name string, r *wire.GraphResponse, codec, counter string, rnd *rand.Rand) {
	t.Helper()
	f, err := prepare(context.Background(), r, nil, codec, counter)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	whole, err := f.whole()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Delivered keys, for graph-wholeness: every node key of the whole,
	// from node entries and node cells.
	inWhole := map[entityKey]bool{}
	for _, n := range r.Nodes {
		inWhole[entityKey{n.Type, n.ID}] = true
	}
	for _, row := range r.Rows {
		for _, c := range row {
			if c.Node != nil {
				inWhole[entityKey{c.Node.Type, c.Node.ID}] = true
			}
		}
	}
	delivered := map[entityKey]bool{}
	pathPage := map[int64]int{}
	var got items
	budget := 1 + rnd.IntN(whole*11/10+1)
	cursor := ""
	from := 0
	for page := 0; ; page++ {
		if page > f.plan.units+1 {
			t.Fatalf("%s: more pages than units", name)
		}
		res, err := Page(r, Options{Codec: codec, Counter: counter, Budget: budget, Cursor: cursor, JSONBaseline: rnd.IntN(2) == 0, WholeStats: rnd.IntN(2) == 0})
		var be *BudgetError
		if errors.As(err, &be) {
			// Not even the next unit fits: Min is the smallest budget
			// that gives a page.
			if be.Min <= budget {
				t.Fatalf("%s page %d: budget error with Min %d <= budget %d", name, page, be.Min, budget)
			}
			budget = be.Min
			res, err = Page(r, Options{Codec: codec, Counter: counter, Budget: budget, Cursor: cursor})
			if err != nil {
				t.Fatalf("%s page %d: at the minimum budget %d: %v", name, page, budget, err)
			}
		} else if err != nil {
			t.Fatalf("%s page %d: %v", name, page, err)
		}
		st := res.Stats
		enc, err := f.codec.AppendEncode(nil, res.Page)
		if err != nil {
			t.Fatalf("%s page %d: encoding the page: %v", name, page, err)
		}
		if diff := cmp.Diff(string(enc), string(res.Encoding)); diff != "" {
			t.Fatalf("%s page %d: Encoding is not the page's encoding (-want +got):\n%s", name, page, diff)
		}
		exact := testsupport.Tokens(t, counter, res.Encoding)
		if exact != st.PageTokens || exact > budget {
			t.Fatalf("%s page %d: %d tokens by count, %d by stats, budget %d", name, page, exact, st.PageTokens, budget)
		}
		if seg, err := f.pr.price(res.Encoding); err != nil || seg != exact {
			t.Fatalf("%s page %d: segment price %d (%v), exact count %d", name, page, seg, err, exact)
		}
		if st.FirstUnit != from {
			t.Fatalf("%s page %d: first unit %d, want %d", name, page, st.FirstUnit, from)
		}
		to := from + st.Units.Kept
		more := to < f.plan.units
		pg := res.Page.Pagination
		if pg == nil || st.Truncated != more || !pg.Truncated.Valid || (more && (!pg.HasMore || !pg.Truncated.V || !pg.NextCursor.Valid)) {
			t.Fatalf("%s page %d: units [%d,%d) of %d, truncated %v, pagination %+v", name, page, from, to, f.plan.units, st.Truncated, pg)
		}
		if more {
			next := f.plan.page(from, to+1, f.pagination(from, to+1))
			b, err := f.codec.AppendEncode(nil, next)
			if err != nil {
				t.Fatal(err)
			}
			if n := testsupport.Tokens(t, counter, b); n <= budget {
				t.Fatalf("%s page %d: not tight: %d units cost %d, one more costs %d, budget %d", name, page, to-from, exact, n, budget)
			}
		}
		// Graph-whole: both endpoints delivered by this page or before.
		for _, n := range res.Page.Nodes {
			delivered[entityKey{n.Type, n.ID}] = true
		}
		for _, row := range res.Page.Rows {
			for _, c := range row {
				if c.Node != nil {
					delivered[entityKey{c.Node.Type, c.Node.ID}] = true
				}
			}
		}
		for _, e := range res.Page.Edges {
			for _, k := range []entityKey{{e.From, e.FromID}, {e.To, e.ToID}} {
				if inWhole[k] && !delivered[k] {
					t.Fatalf("%s page %d: edge %+v names %v, not delivered yet", name, page, e, k)
				}
			}
			if r.QueryType == wire.PathFinding && e.PathID.Valid {
				if p, ok := pathPage[e.PathID.V]; ok && p != page {
					t.Fatalf("%s: path %d split between pages %d and %d", name, e.PathID.V, p, page)
				}
				pathPage[e.PathID.V] = page
			}
		}
		got.add(t, res.Page)
		if !more {
			if st.Pages != 0 && cursor == "" && st.Pages != 1 {
				t.Fatalf("%s: the first page holds everything, Pages = %d", name, st.Pages)
			}
			break
		}
		cursor, from = pg.NextCursor.V, to
		budget = 1 + rnd.IntN(whole*11/10+1)
	}
	var want items
	want.add(t, r)
	if diff := cmp.Diff(want.rows, got.rows); diff != "" {
		t.Fatalf("%s: rows of all pages (-whole +pages):\n%s", name, diff)
	}
	nodeLed := r.QueryType != wire.PathFinding && r.QueryType != wire.Aggregation
	if nodeLed {
		if diff := cmp.Diff(want.nodes, got.nodes); diff != "" {
			t.Fatalf("%s: nodes of all pages (-whole +pages):\n%s", name, diff)
		}
	}
	slices.Sort(want.nodes)
	slices.Sort(got.nodes)
	slices.Sort(want.edges)
	slices.Sort(got.edges)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(items{})); diff != "" {
		t.Fatalf("%s: items of all pages (-whole +pages):\n%s", name, diff)
	}
}
