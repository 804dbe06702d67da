package fit_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// A response that fits the budget whole costs one encoding and one count
// of it: the Pager tokenizes the page's bytes once, and nothing else (no
// empty page to anchor a search), and reads the response for no
// fingerprint, since no cursor is read or written. A walk that does write
// cursors takes the fingerprint. Checked on every corpus case up to
// 300 KB of JSON, in every text codec, by counts rather than time (under
// the race detector the _s case of each shape; .ci/run runs it whole).
func TestWholeFitsCostsOneCount(t *testing.T) {
	entries, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	ctx := context.Background()
	for _, path := range entries {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		if st, err := os.Stat(path); err != nil || st.Size() > 300_000 || sized(name) != path {
			continue // too large, or under the race detector not the smallest of its shape
		}
		r := testsupport.LoadResponse(t, path)
		for _, codec := range []string{"goon", "toon", "json", "gcf"} {
			p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Page(ctx, 1<<30, "")
			if err != nil {
				t.Fatalf("%s in %s: %v", name, codec, err)
			}
			if res.Stats.Truncated || res.Stats.Units.Kept != res.Stats.Units.Total {
				t.Fatalf("%s in %s: %d of %d units, truncated %v; want the whole", name, codec, res.Stats.Units.Kept, res.Stats.Units.Total, res.Stats.Truncated)
			}
			if got := fit.TokenizedBytes(p); got != len(res.Encoding) {
				t.Errorf("%s in %s: the page of %d bytes that fits whole tokenized %d bytes, want its own bytes once", name, codec, len(res.Encoding), got)
			}
			if fit.FingerprintTaken(p) {
				t.Errorf("%s in %s: a page that fits whole took the response's fingerprint, which no cursor needs", name, codec)
			}
			// One token less: a page of fewer units, with fit's cursor.
			less, err := p.Page(ctx, res.Stats.PageTokens-1, "")
			var be *fit.BudgetError
			if errors.As(err, &be) {
				continue // not even the first unit fits with a cursor
			}
			if err != nil {
				t.Fatalf("%s in %s at %d tokens: %v", name, codec, res.Stats.PageTokens-1, err)
			}
			if !less.Stats.Truncated || !fit.FingerprintTaken(p) {
				t.Errorf("%s in %s: the page one token short of the whole: truncated %v, fingerprint taken %v; want both", name, codec, less.Stats.Truncated, fit.FingerprintTaken(p))
			}
		}
	}
}
