package fit_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// bigTraversal is testsupport.People(n) and its canonical JSON size.
func bigTraversal(t testing.TB, n int) (*wire.GraphResponse, int) {
	t.Helper()
	r := testsupport.People(n)
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	return r, len(b)
}

// A cursor that cannot resume a response is refused before the response
// is encoded or counted: the refusal allocates a small fraction of the
// response, however large the response.
func TestBadCursorIsRefusedBeforeAnyWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100K-node response")
	}
	r, size := bigTraversal(t, 100_000)
	other := &wire.GraphResponse{QueryType: wire.Traversal, Nodes: r.Nodes[:10]}
	small, err := fit.Page(other, fit.Options{Codec: "goon", Budget: 90})
	if err != nil {
		t.Fatal(err)
	}
	foreign := small.Page.Pagination.NextCursor.V
	if foreign == "" {
		t.Fatal("the small response gave no cursor to try")
	}
	for _, tt := range []struct {
		name, cursor, msg string
		maxAlloc          uint64 // as a divisor of the response's JSON size
	}{
		{"not base64", "!!!", "not a cursor issued by fit", 200},
		{"too long", strings.Repeat("A", 10_000), "too long", 200},
		{"another response's", foreign, "different response", 200},
		{"past the end", fit.CursorAt(r, len(r.Nodes)+5), "outside the response", 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			fp := wiretest.Measure(func() {
				_, err = fit.Page(r, fit.Options{Codec: "goon", Budget: 500, Cursor: tt.cursor})
			})
			t.Logf("%d nodes, %d bytes of JSON: %v", len(r.Nodes), size, fp)
			var ce *fit.CursorError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error %v, want a CursorError saying %q", err, tt.msg)
			}
			if limit := uint64(size) / tt.maxAlloc; fp.TotalAlloc > limit {
				t.Errorf("refusing the cursor allocated %d bytes, want at most %d (1/%d of the response's %d bytes)", fp.TotalAlloc, limit, tt.maxAlloc, size)
			}
		})
	}
	// For scale: the first page, with all the work a good cursor costs.
	fp := wiretest.Measure(func() {
		_, err = fit.Page(r, fit.Options{Codec: "goon", Budget: 500})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a first page of the same response: %v", fp)
}

func TestCheckCursor(t *testing.T) {
	r, _ := bigTraversal(t, 10)
	res, err := fit.Page(r, fit.Options{Codec: "toon", Budget: 90})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Page.Pagination.NextCursor.V
	if err := fit.CheckCursor(c); err != nil {
		t.Errorf("CheckCursor(%q) = %v for a cursor Page issued", c, err)
	}
	for _, bad := range []string{"!!!", "", c[:len(c)-1], c + "AA", strings.Repeat("A", 65), "AQAAAAAAAAAAAAAAAAAAAA"} {
		var ce *fit.CursorError
		if err := fit.CheckCursor(bad); !errors.As(err, &ce) {
			t.Errorf("CheckCursor(%q) = %v, want a *CursorError", bad, err)
		}
	}
}

// NewPager checks its codec and counter names before it prices anything,
// and a priced Pager checks the budget and the cursor before it encodes or
// counts: a bad argument costs nothing proportional to the response.
func TestPagerChecksItsArgumentsFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100K-node response")
	}
	r, size := bigTraversal(t, 100_000)
	for _, tt := range []struct {
		name string
		opts fit.PagerOptions
		msg  string
	}{
		{"an unknown codec", fit.PagerOptions{Codec: "nope"}, "nope"},
		{"a binary codec", fit.PagerOptions{Codec: "msgpack"}, "binary"},
		{"an estimating counter", fit.PagerOptions{Codec: "goon", Counter: "chars"}, "estimate"},
	} {
		var err error
		fp := wiretest.Measure(func() { _, err = fit.NewPager(context.Background(), r, tt.opts) })
		t.Logf("%s: %v: %v", tt.name, fp, err)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.msg)
		}
		if limit := uint64(size) / 1000; fp.TotalAlloc > limit {
			t.Errorf("%s: allocated %d bytes before refusing, want at most %d", tt.name, fp.TotalAlloc, limit)
		}
	}

	small, _ := bigTraversal(t, 10)
	res, err := fit.Page(small, fit.Options{Codec: "goon", Budget: 90})
	if err != nil {
		t.Fatal(err)
	}
	foreign := res.Page.Pagination.NextCursor.V
	r.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("srv-page-2")}
	p, err := fit.NewPager(context.Background(), r, fit.PagerOptions{Codec: "goon"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, cursor string
		budget       int
		msg          string
	}{
		{"a budget of 0", "", 0, "budget 0"},
		{"not base64", "!!!", 500, "not a cursor issued by fit"},
		{"the upstream server's", "srv-page-2", 500, "upstream server's cursor"},
		{"another response's", foreign, 500, "different response"},
		{"past the end", fit.CursorAt(r, len(r.Nodes)+5), 500, "outside the response"},
	} {
		var err error
		fp := wiretest.Measure(func() { _, err = p.Page(context.Background(), tt.budget, tt.cursor) })
		t.Logf("%s: %v: %v", tt.name, fp, err)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.msg)
		}
		if limit := uint64(size) / 1000; fp.TotalAlloc > limit {
			t.Errorf("%s: allocated %d bytes before refusing, want at most %d", tt.name, fp.TotalAlloc, limit)
		}
	}
}
