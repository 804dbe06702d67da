package fit_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func adr(t testing.TB) *wire.GraphResponse {
	return testsupport.LoadResponse(t, filepath.Join(corpusDir, "traversal_adr_50u_200mr.json"))
}

func TestOptionsErrors(t *testing.T) {
	r := adr(t)
	for _, tt := range []struct {
		name string
		opts fit.Options
		is   error
		msg  string
	}{
		{"unknown codec", fit.Options{Codec: "yaml", Budget: 100}, wire.ErrUnknownCodec, "goon"},
		{"binary codec", fit.Options{Codec: "cbor", Budget: 100}, fit.ErrBinaryCodec, "cbor"},
		{"estimate counter", fit.Options{Codec: "goon", Counter: "chars", Budget: 100}, nil, "real tokenizer"},
		{"unknown counter", fit.Options{Codec: "goon", Counter: "claude", Budget: 100}, tokens.ErrUnknownCounter, "o200k"},
		{"zero budget", fit.Options{Codec: "goon"}, nil, "positive"},
		{"negative budget", fit.Options{Codec: "goon", Budget: -5}, nil, "positive"},
	} {
		res, err := fit.Page(r, tt.opts)
		if err == nil || res != nil || !strings.HasPrefix(err.Error(), "fit: ") || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, %v; want an error saying %q", tt.name, res, err, tt.msg)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v is not %v", tt.name, err, tt.is)
		}
	}
	if _, err := fit.Page(nil, fit.Options{Codec: "goon", Budget: 100}); err == nil {
		t.Error("nil response: no error")
	}
}

func TestBudgetBelowMinimum(t *testing.T) {
	r := adr(t)
	_, err := fit.Page(r, fit.Options{Codec: "goon", Budget: 10})
	var be *fit.BudgetError
	if !errors.As(err, &be) || be.Budget != 10 || be.Min <= 10 || be.Codec != "goon" || be.Counter != "o200k" {
		t.Fatalf("budget 10: %v, want a BudgetError", err)
	}
	if !strings.Contains(err.Error(), "minimum") || !strings.Contains(err.Error(), "budget 10") {
		t.Errorf("message %q should say the budget and the minimum", err)
	}
	res, err := fit.Page(r, fit.Options{Codec: "goon", Budget: be.Min})
	if err != nil || res.Stats.Units.Kept < 1 || res.Stats.PageTokens > be.Min {
		t.Fatalf("at the minimum %d: %+v, %v", be.Min, res, err)
	}
	if _, err := fit.Page(r, fit.Options{Codec: "goon", Budget: be.Min - 1}); !errors.As(err, &be) {
		t.Errorf("one below the minimum: %v, want a BudgetError", err)
	}
	// A response with no units: the minimum is the empty page's cost.
	empty := &wire.GraphResponse{QueryType: wire.Search}
	_, err = fit.Page(empty, fit.Options{Codec: "json", Budget: 1})
	if !errors.As(err, &be) {
		t.Fatalf("empty response, budget 1: %v", err)
	}
	res, err = fit.Page(empty, fit.Options{Codec: "json", Budget: be.Min})
	if err != nil || res.Stats.Truncated || res.Stats.PageTokens != be.Min {
		t.Fatalf("empty response at its minimum: %+v, %v", res, err)
	}
}

func TestWholeFits(t *testing.T) {
	r := adr(t)
	for _, codec := range []string{"goon", "toon", "json"} {
		res, err := fit.Page(r, fit.Options{Codec: codec, Budget: 1 << 20, JSONBaseline: true, WholeStats: true})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats
		if st.Truncated || st.Pages != 1 || st.Units.Kept != st.Units.Total || st.Nodes != (fit.Tally{Kept: 250, Total: 250}) || st.Edges != (fit.Tally{Kept: 200, Total: 200}) {
			t.Errorf("%s: stats %+v", codec, st)
		}
		want := wiretest.Clone(r)
		want.Pagination = &wire.Pagination{Truncated: wire.Some(false)}
		if diff := wiretest.Diff(want, res.Page, wire.Exact); diff != "" {
			t.Errorf("%s: the page is not the whole (-want +got):\n%s", codec, diff)
		}
		if st.WholeJSONTokens <= st.WholeTokens && codec != "json" || st.Ratio <= 1 && codec != "json" {
			t.Errorf("%s: baseline %d tokens, whole %d, ratio %v", codec, st.WholeJSONTokens, st.WholeTokens, st.Ratio)
		}
		skipped, err := fit.Page(r, fit.Options{Codec: codec, Budget: 1 << 20})
		if err != nil || skipped.Stats.WholeJSONTokens != 0 || skipped.Stats.Ratio != 0 || skipped.Stats.WholeTokens != 0 || skipped.Stats.Pages != 0 {
			t.Errorf("%s: without JSONBaseline and WholeStats: %+v, %v", codec, skipped.Stats, err)
		}
		if skipped.Stats.PageTokens != st.PageTokens || string(skipped.Encoding) != string(res.Encoding) {
			t.Errorf("%s: the page differs with and without the whole's statistics", codec)
		}
	}
}

// TestPagesOfTheADRCase pages through the ADR case at 2,000 tokens in
// every text codec (GOON only under the race detector): every page within
// the budget by the tokenizer, the pages as many as Stats.Pages says, and
// all of them together the case.
func TestPagesOfTheADRCase(t *testing.T) {
	r := adr(t)
	counter, _ := tokens.Get(tokens.O200k)
	codecs := []string{"goon", "toon", "json"}
	if fit.RaceEnabled() {
		codecs = codecs[:1]
	}
	for _, codec := range codecs {
		var nodes, edges int
		var first fit.Stats
		cursor := ""
		for page := 1; ; page++ {
			res, err := fit.Page(r, fit.Options{Codec: codec, Budget: 2000, Cursor: cursor, JSONBaseline: page == 1, WholeStats: page == 1})
			if err != nil {
				t.Fatalf("%s page %d: %v", codec, page, err)
			}
			if page == 1 {
				first = res.Stats
			}
			if n, _ := counter.Count(res.Encoding); n != res.Stats.PageTokens || n > 2000 {
				t.Fatalf("%s page %d: %d tokens (stats %d)", codec, page, n, res.Stats.PageTokens)
			}
			nodes += len(res.Page.Nodes)
			edges += len(res.Page.Edges)
			if !res.Stats.Truncated {
				if page != first.Pages {
					t.Errorf("%s: %d pages, Stats.Pages %d", codec, page, first.Pages)
				}
				break
			}
			cursor = res.Page.Pagination.NextCursor.V
		}
		if nodes != 250 || edges != 200 {
			t.Errorf("%s: pages hold %d nodes and %d edges, want 250 and 200", codec, nodes, edges)
		}
	}
}

func TestCursorOfAnotherResponse(t *testing.T) {
	r := adr(t)
	res, err := fit.Page(r, fit.Options{Codec: "goon", Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	other := wiretest.Clone(r)
	other.Nodes[0].ID++
	_, err = fit.Page(other, fit.Options{Codec: "goon", Budget: 2000, Cursor: res.Page.Pagination.NextCursor.V})
	var ce *fit.CursorError
	if !errors.As(err, &ce) || !ce.Mismatch || !strings.Contains(err.Error(), "different response") {
		t.Fatalf("cursor of another response: %v", err)
	}
	// The same cursor on its own response, in another codec and budget,
	// resumes where the first page ended.
	next, err := fit.Page(r, fit.Options{Codec: "json", Budget: 5000, Cursor: res.Page.Pagination.NextCursor.V})
	if err != nil || next.Stats.FirstUnit != res.Stats.Units.Kept {
		t.Fatalf("resume: %+v, %v", next, err)
	}
}

// TestConcurrentPages calls Page from several goroutines at once (run it
// with -race): the tokenizers and registries it shares are safe, and each
// call gets the page a lone call gets.
func TestConcurrentPages(t *testing.T) {
	r := testsupport.LoadResponse(t, filepath.Join(corpusDir, "traversal_s.json"))
	want, err := fit.Page(r, fit.Options{Codec: "toon", Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	concurrently(t, 4, func(int) (*fit.Result, *fit.Result, error) {
		got, err := fit.Page(r, fit.Options{Codec: "toon", Budget: 300})
		return got, want, err
	})
}
