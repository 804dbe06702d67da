package graphwire_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// The README's paging loop, verbatim between the markers
// (TestReadmePagingExample checks that README.md holds exactly this text).

// README:fit:begin

// pageAll sends an agent every page of a server's result, 8,000 o200k
// tokens of GOON at a time. fetch asks the upstream server for one of its
// pages ("" for the first); a server page may say has_more, with the
// server's next_cursor.
func pageAll(ctx context.Context, fetch func(cursor string) (*wire.GraphResponse, error), send func(page []byte) error) error {
	cursor, upstream := "", ""
	for {
		resp, err := fetch(upstream)
		if err != nil {
			return err
		}
		pager, err := fit.NewPager(ctx, resp, fit.PagerOptions{Codec: "goon"})
		if err != nil {
			return err
		}
		for {
			res, err := pager.Page(ctx, 8000, cursor)
			if err != nil {
				return err
			}
			if err := send(res.Encoding); err != nil { // the counted bytes, as they are
				return err
			}
			next := res.Page.Pagination.NextCursor
			if res.Stats.Truncated { // more of this response: fit's cursor
				cursor = next.V
				continue
			}
			if !next.Valid { // the end (or has_more with no cursor to follow)
				return nil
			}
			cursor, upstream = "", next.V // the server's cursor: its next page
			break
		}
	}
}

// README:fit:end

// README:fitpage:begin

// firstPage is the first page of resp in GOON, at most 8,000 o200k tokens.
func firstPage(resp *wire.GraphResponse) ([]byte, error) {
	res, err := fit.Page(resp, fit.Options{Codec: "goon", Budget: 8000})
	if err != nil {
		return nil, err // *fit.BudgetError: 8,000 tokens cannot hold the next unit
	}
	// res.Page: a *wire.GraphResponse, res.Encoding its GOON;
	// res.Page.Pagination: has_more, truncated, next_cursor (v5);
	// res.Stats.Truncated: more of resp follows, and next_cursor is fit's
	return res.Encoding, nil
}

// README:fitpage:end

// The README's first page of the ADR case is within the budget, is a
// GOON response, and says that more follows with fit's own cursor.
func TestReadmeFirstPage(t *testing.T) {
	resp := upstreamPages(t)[""]
	page, err := firstPage(resp)
	if err != nil {
		t.Fatal(err)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := o200k.Count(page); err != nil || n > 8000 {
		t.Errorf("first page: %d tokens (%v); want at most 8,000", n, err)
	}
	r, err := wire.DecodeWith("goon", page)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Pagination; p == nil || !p.HasMore || fit.CheckCursor(p.NextCursor.V) != nil {
		t.Errorf("first page's pagination %+v; want has_more with fit's cursor", p)
	}
}

func TestReadmePagingExample(t *testing.T) {
	checkReadmeHolds(t, "readme_fit_test.go", "README:fit")
	checkReadmeHolds(t, "readme_fit_test.go", "README:fitpage")
}

// upstreamPages is a server's result in three pages, each a response of
// its own: the ADR case (two fit pages of 8,000 tokens) saying has_more
// with the server's cursor srv-page-2; traversal_s (one fit page), saying
// has_more with srv-page-3; and path_finding_s, the last.
func upstreamPages(t *testing.T) map[string]*wire.GraphResponse {
	t.Helper()
	load := func(name string) *wire.GraphResponse {
		return testsupport.LoadResponse(t, "bench/corpus/text-heavy/"+name+".json")
	}
	more := func(r *wire.GraphResponse, next string) *wire.GraphResponse {
		r.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some(next)}
		return r
	}
	return map[string]*wire.GraphResponse{
		"":           more(load("traversal_adr_50u_200mr"), "srv-page-2"),
		"srv-page-2": more(load("traversal_s"), "srv-page-3"),
		"srv-page-3": load("path_finding_s"),
	}
}

// TestReadmePagingLoop runs the README's loop against an upstream server
// over loopback whose result comes in three pages, each itself paged by
// fit: the server sees its own cursors only, fit only its own (any other
// would fail the loop), every page is within the budget, and the pages
// hold every node and edge of the three server pages, in order.
func TestReadmePagingLoop(t *testing.T) {
	pages := upstreamPages(t)
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := req.URL.Query().Get("cursor")
		asked = append(asked, c)
		r, ok := pages[c]
		if !ok {
			http.Error(w, "unknown cursor "+c, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if err := wire.DefaultRegistry().EncodeTo("json", w, r); err != nil {
			t.Error(err)
		}
	}))
	defer srv.Close()
	fetch := func(cursor string) (*wire.GraphResponse, error) {
		res, err := srv.Client().Get(srv.URL + "/?cursor=" + cursor)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return nil, errors.New(res.Status)
		}
		return wire.DefaultRegistry().DecodeFrom("json", res.Body)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	var got []*wire.GraphResponse
	send := func(page []byte) error {
		if n, err := o200k.Count(page); err != nil || n > 8000 {
			t.Errorf("page %d: %d tokens (%v), budget 8000", len(got)+1, n, err)
		}
		r, err := wire.DecodeWith("goon", page)
		got = append(got, r)
		return err
	}
	if err := pageAll(context.Background(), fetch, send); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"", "srv-page-2", "srv-page-3"}, asked); d != "" {
		t.Errorf("the server was asked for (-want +got):\n%s", d)
	}
	if len(got) != 4 {
		t.Errorf("%d pages, want 4: two of the ADR case, one of each other server page", len(got))
	}
	var wantNodes, gotNodes, wantEdges, gotEdges int
	for _, c := range []string{"", "srv-page-2", "srv-page-3"} {
		wantNodes += len(pages[c].Nodes)
		wantEdges += len(pages[c].Edges)
	}
	for _, r := range got {
		gotNodes += len(r.Nodes)
		gotEdges += len(r.Edges)
	}
	if gotNodes != wantNodes || gotEdges != wantEdges {
		t.Errorf("the pages hold %d nodes and %d edges, the server pages %d and %d", gotNodes, gotEdges, wantNodes, wantEdges)
	}
}

// TestUpstreamCursorIsNamed is the loop the README showed before: it
// followed next_cursor while has_more, and so handed fit the server's
// cursor on the last page, which fit refused as "not a cursor issued by
// fit". The last page's cursor is still the server's; fit now says so,
// and CheckCursor tells it from fit's own without the response.
func TestUpstreamCursorIsNamed(t *testing.T) {
	resp := upstreamPages(t)[""]
	cursor := ""
	for page := 1; ; page++ {
		res, err := fit.Page(resp, fit.Options{Codec: "goon", Budget: 8000, Cursor: cursor})
		var ce *fit.CursorError
		if errors.As(err, &ce) {
			if page != 3 || !ce.Upstream || ce.Mismatch || !strings.Contains(err.Error(), "the upstream server's cursor") {
				t.Fatalf("page %d: %v (upstream %v), want the third call to name the server's cursor", page, err, ce.Upstream)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !res.Page.Pagination.HasMore || page > 2 {
			t.Fatalf("page %d: has_more %v", page, res.Page.Pagination.HasMore)
		}
		cursor = res.Page.Pagination.NextCursor.V
		if fromFit := fit.CheckCursor(cursor) == nil; fromFit != res.Stats.Truncated {
			t.Errorf("page %d: CheckCursor(%q) says fit's: %v; Stats.Truncated %v", page, cursor, fromFit, res.Stats.Truncated)
		}
	}
}
