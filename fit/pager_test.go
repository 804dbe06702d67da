package fit_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// adopterResponse is a traversal the size of the one the adopter paged:
// 500 users and 3,000 merge requests (3,500 nodes) and 9,000 edges
// between them (authored, reviewed, related), about 227K o200k tokens in
// GOON, 59 pages of 4,000 tokens. It is generated from a fixed seed.
func adopterResponse() *wire.GraphResponse {
	rnd := rand.New(rand.NewPCG(24, 3500))
	words := strings.Fields("the a merge request pipeline fails when runner cache is cold and retries flaky spec in ci job for database migration index backfill review approve comment thread resolve deploy staging production rollback feature flag owner team quarter plan latency error budget alert page")
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = words[rnd.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	const users, nodes, edges = 500, 3500, 9000
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := range users {
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(1000 + i), Properties: []wire.Property{
			wire.Prop("username", wire.String(fmt.Sprintf("user%d", i))),
			wire.Prop("name", wire.String(text(2))),
			wire.Prop("state", wire.String("active")),
		}})
	}
	states := []string{"opened", "merged", "closed"}
	for i := users; i < nodes; i++ {
		r.Nodes = append(r.Nodes, wire.Node{Type: "MergeRequest", ID: int64(50000 + i), Properties: []wire.Property{
			wire.Prop("iid", wire.Int(int64(i))),
			wire.Prop("title", wire.String(text(6))),
			wire.Prop("state", wire.String(states[rnd.IntN(3)])),
			wire.Prop("description", wire.String(text(2))),
			wire.Prop("created_at", wire.String(fmt.Sprintf("2026-%02d-%02dT10:%02d:00Z", 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(60)))),
		}})
	}
	for len(r.Edges) < edges {
		mr := r.Nodes[users+rnd.IntN(nodes-users)]
		switch rnd.IntN(3) {
		case 0, 1:
			u := r.Nodes[rnd.IntN(users)]
			typ := "AUTHORED"
			if rnd.IntN(2) == 0 {
				typ = "REVIEWED"
			}
			r.Edges = append(r.Edges, wire.Edge{From: u.Type, FromID: u.ID, To: mr.Type, ToID: mr.ID, Type: typ})
		default:
			o := r.Nodes[users+rnd.IntN(nodes-users)]
			r.Edges = append(r.Edges, wire.Edge{From: mr.Type, FromID: mr.ID, To: o.Type, ToID: o.ID, Type: "RELATES_TO"})
		}
	}
	return r
}

// checkWalk checks the pages of a walk from the start: each within the
// budget by a count of its encoding, which is the page's encoding in the
// codec; as many as the first page's Stats.Pages, when it was asked for;
// and together the whole
// response, nodes in server order, edges and rows each once.
func checkWalk(t *testing.T, name string, r *wire.GraphResponse, codec string, budget int, pages []*fit.Result) {
	t.Helper()
	c, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	var got wire.GraphResponse
	for i, res := range pages {
		n, err := c.Count(res.Encoding)
		if err != nil || n != res.Stats.PageTokens || n > budget {
			t.Fatalf("%s page %d: %d tokens by count (%v), %d by stats, budget %d", name, i+1, n, err, res.Stats.PageTokens, budget)
		}
		if i == 0 || i == len(pages)-1 {
			enc, err := wire.EncodeWith(codec, res.Page)
			if err != nil || string(enc) != string(res.Encoding) {
				t.Fatalf("%s page %d: Encoding is not the page's %s (%v)", name, i+1, codec, err)
			}
		}
		got.Nodes = append(got.Nodes, res.Page.Nodes...)
		got.Edges = append(got.Edges, res.Page.Edges...)
		got.Rows = append(got.Rows, res.Page.Rows...)
	}
	if want := pages[0].Stats.Pages; want != 0 && len(pages) != want {
		t.Errorf("%s: %d pages, the first page's Stats.Pages says %d", name, len(pages), want)
	}
	key := func(e wire.Edge) string { return fmt.Sprintf("%s/%d-%s-%s/%d", e.From, e.FromID, e.Type, e.To, e.ToID) }
	count := func(es []wire.Edge) map[string]int {
		m := map[string]int{}
		for _, e := range es {
			m[key(e)]++
		}
		return m
	}
	if d := wiretest.Diff(&wire.GraphResponse{Nodes: r.Nodes}, &wire.GraphResponse{Nodes: got.Nodes}, wire.Exact); d != "" {
		t.Errorf("%s: the pages' nodes are not the whole's (-whole +pages):\n%.2000s", name, d)
	}
	if d := cmp.Diff(count(r.Edges), count(got.Edges)); d != "" || len(got.Edges) != len(r.Edges) {
		t.Errorf("%s: the pages' edges are not the whole's (-whole +pages):\n%.2000s", name, d)
	}
	if len(got.Rows) != len(r.Rows) {
		t.Errorf("%s: the pages hold %d rows, the whole %d", name, len(got.Rows), len(r.Rows))
	}
}

// TestPagerServesWhatPageServes pages the ADR case with one Pager, mixing
// budgets and codecs' cursors as a service would, and compares every page
// with the one-shot Page's: the same bytes and the same statistics.
func TestPagerServesWhatPageServes(t *testing.T) {
	r := adr(t)
	ctx := context.Background()
	for _, codec := range []string{"goon", "json"} {
		p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: codec, JSONBaseline: true, WholeStats: true})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := p.WholeTokens(); err != nil || n <= 0 {
			t.Fatalf("%s: WholeTokens %d, %v", codec, n, err)
		}
		budgets := []int{2000, 3500, 1200}
		cursor := ""
		for page := 0; ; page++ {
			budget := budgets[page%len(budgets)]
			got, err := p.Page(ctx, budget, cursor)
			if err != nil {
				t.Fatalf("%s page %d: %v", codec, page+1, err)
			}
			want, err := fit.Page(r, fit.Options{Codec: codec, Budget: budget, Cursor: cursor, JSONBaseline: true, WholeStats: true})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want.Stats, got.Stats); d != "" || string(want.Encoding) != string(got.Encoding) {
				t.Fatalf("%s page %d at %d: the Pager's page differs from Page's (same bytes: %v) (-Page +Pager):\n%s", codec, page+1, budget, string(want.Encoding) == string(got.Encoding), d)
			}
			if !got.Stats.Truncated {
				break
			}
			cursor = got.Page.Pagination.NextCursor.V
		}
	}
}

// TestPagerHonoursContext: a done context stops pricing and paging with
// its error, and the Pager still serves pages afterwards.
func TestPagerHonoursContext(t *testing.T) {
	r := adr(t)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fit.NewPager(done, r, fit.PagerOptions{Codec: "goon"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("NewPager with a cancelled context: %v", err)
	}
	p, err := fit.NewPager(context.Background(), r, fit.PagerOptions{Codec: "goon", WholeStats: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Page(done, 2000, ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("Page with a cancelled context: %v", err)
	}
	res, err := p.Page(context.Background(), 2000, "")
	if err != nil || res.Stats.Pages != 7 {
		t.Fatalf("after a cancelled call: %+v, %v", res, err)
	}
}

// TestPagerConcurrentPages serves pages of one Pager from several
// goroutines at once (run it with -race): each gets the page a lone call
// gets.
func TestPagerConcurrentPages(t *testing.T) {
	r := adr(t)
	ctx := context.Background()
	p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: "toon"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := p.Page(ctx, 1500, "")
	if err != nil {
		t.Fatal(err)
	}
	next := first.Page.Pagination.NextCursor.V
	want, err := fit.Page(r, fit.Options{Codec: "toon", Budget: 1500, Cursor: next})
	if err != nil {
		t.Fatal(err)
	}
	concurrently(t, 6, func(i int) (*fit.Result, *fit.Result, error) {
		if i%2 == 1 {
			got, err := p.Page(ctx, 1500, "")
			return got, first, err
		}
		got, err := p.Page(ctx, 1500, next)
		return got, want, err
	})
}
