package scorecard

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/tokens"
)

// TestBudgetsMatchFitPage checks the token-budget figures of a card
// against what fit.Page gives a caller for the same case, codec and
// budget: the items and tokens of the first page, and the page count;
// and counts each first page's bytes again.
func TestBudgetsMatchFitPage(t *testing.T) {
	cases := smallCorpus(t)
	for _, c := range corpus.Generate() {
		if c.Name == corpus.ADRCase && c.Profile == corpus.Lean {
			cases = append(cases, c)
		}
	}
	card, err := Build(cases)
	if err != nil {
		t.Fatal(err)
	}
	var paged []string
	for _, f := range card.Formats {
		if f.budgets {
			paged = append(paged, f.Name)
		}
	}
	if want := []string{"json", "gcf", "goon", "toon"}; !slices.Equal(paged, want) {
		t.Fatalf("paged formats %v, want the registered text codecs %v", paged, want)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	truncated := 0
	for ci, cs := range card.Cases {
		for fi, f := range card.Formats {
			got := cs.Results[fi].Budgets
			if !f.budgets {
				if got != nil {
					t.Errorf("%s/%s in %s: budgets %v for a format that is not paged", cs.Profile, cs.Name, f.Name, got)
				}
				continue
			}
			var want []Budget
			for _, b := range BudgetSizes {
				r := cases[ci].Response
				w := Budget{Tokens: b, Items: len(r.Nodes) + len(r.Edges) + len(r.Rows)}
				res, err := fit.Page(r, fit.Options{Codec: f.Name, Budget: b, WholeStats: true})
				var be *fit.BudgetError
				switch {
				case errors.As(err, &be):
				case err != nil:
					t.Fatalf("%s/%s in %s at %d: %v", cs.Profile, cs.Name, f.Name, b, err)
				default:
					st := res.Stats
					w.FirstPage = st.Nodes.Kept + st.Edges.Kept + st.Rows.Kept
					w.FirstPageTokens, w.Pages = st.PageTokens, st.Pages
					n, err := o200k.Count(res.Encoding)
					if err != nil {
						t.Fatal(err)
					}
					if n != st.PageTokens || n > b {
						t.Errorf("%s/%s in %s at %d: the first page counts %d, reported %d", cs.Profile, cs.Name, f.Name, b, n, st.PageTokens)
					}
					if st.Truncated {
						truncated++
					}
				}
				want = append(want, w)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s/%s in %s: budgets differ from fit.Page (-fit.Page +card):\n%s", cs.Profile, cs.Name, f.Name, d)
			}
		}
	}
	if truncated == 0 {
		t.Error("no first page is truncated: the cases do not exercise paging")
	}
}

func TestBudgetCells(t *testing.T) {
	inf := math.Inf(1)
	for _, tt := range []struct {
		n    int
		want string
	}{{2000, "2K"}, {32000, "32K"}, {1500, "1,500"}} {
		if got := budgetLabel(tt.n); got != tt.want {
			t.Errorf("budgetLabel(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := median([]float64{1, 2, inf, inf}); pagesCell(got) != "n/a" {
		t.Errorf("a median among cases that cannot be paged prints %q, want n/a", pagesCell(got))
	}
	if got := pagesCell(median([]float64{1, 2, 4, inf})); got != "3" {
		t.Errorf("median pages %q, want 3", got)
	}
	if got := pagesCell(median([]float64{1, 2})); got != "1.5" {
		t.Errorf("median pages %q, want 1.5", got)
	}
	if b := (Budget{FirstPage: 3, Items: 12}); pct(b.Share()) != "25.0%" {
		t.Errorf("share %s, want 25.0%%", pct(b.Share()))
	}
}
