package scorecard

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
)

// budgetLabel names a budget: 2K, 8K, 32K, or the number when it is not
// a whole thousand.
func budgetLabel(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "K"
	}
	return num(n)
}

// budgetList names the budgets: "2K, 8K or 32K".
func budgetList() string {
	var labels []string
	for _, b := range BudgetSizes {
		labels = append(labels, budgetLabel(b))
	}
	if len(labels) < 2 {
		return strings.Join(labels, "")
	}
	return strings.Join(labels[:len(labels)-1], ", ") + " or " + labels[len(labels)-1]
}

// budgetHead is the budget columns' header: the first page's share and
// the pages, per budget.
func budgetHead() []string {
	var head []string
	for _, b := range BudgetSizes {
		head = append(head, budgetLabel(b)+" first page", budgetLabel(b)+" pages")
	}
	return head
}

// pagesCell formats a page count: n/a when some unit alone exceeds the
// budget (no paging delivers the whole).
func pagesCell(n float64) string {
	if math.IsInf(n, 1) || math.IsNaN(n) {
		return "n/a"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

func (c *Card) budgetSection(w *writer, _ []Chart) {
	var formats []int
	for fi, f := range c.Formats {
		if f.budgets {
			formats = append(formats, fi)
		}
	}
	if len(formats) == 0 {
		return
	}
	w.p("\n## Token budgets: what the first page delivers\n\n")
	w.p("An agent with %s o200k tokens left asks how much of a result fits. Each text codec's response is cut into pages by package `fit`: a page is the longest prefix, in the server's order, of graph-whole units (a node with the edges that complete it, a whole path, an aggregation row with the nodes it names) whose encoding costs at most the budget, counted by o200k on the page's own bytes, with a `next_cursor` for the rest. **First page** is the share of the case's items (nodes + edges + rows) the first page holds; **pages** is how many pages of that budget hold the whole case (n/a when some unit alone exceeds the budget). Medians over each profile's cases; the per-case figures are under each case below. The method is in the package documentation of `bench/scorecard`; every first page of %s is counted against gpt-tokenizer by the test suite.\n\n", budgetList(), budgetLabel(BudgetSizes[0]))
	var rows [][]string
	for _, p := range c.Profiles() {
		rows = append(rows, c.budgetRows(p, formats)...)
	}
	head := append([]string{"profile", "format"}, budgetHead()...)
	w.table(head, rows, 2)
	c.stdlibBlock(w, func() {
		w.p("\n")
		w.table(head, c.budgetRows(corpus.Stdlib, formats), 2)
	})
}

// budgetRows are the budget summary's rows of profile p: per codec of
// formats, the median first-page share and page count at each budget.
func (c *Card) budgetRows(p string, formats []int) [][]string {
	var rows [][]string
	for _, fi := range formats {
		row := []string{profileLabel(p), c.Formats[fi].Name}
		for bi := range BudgetSizes {
			var shares, pages []float64
			for _, cs := range c.Cases {
				if cs.Profile != p {
					continue
				}
				b := cs.Results[fi].Budgets[bi]
				if sh := b.Share(); !math.IsNaN(sh) {
					shares = append(shares, sh)
				}
				if b.Pages > 0 {
					pages = append(pages, float64(b.Pages))
				} else {
					pages = append(pages, math.Inf(1))
				}
			}
			row = append(row, pct(median(shares)), pagesCell(median(pages)))
		}
		rows = append(rows, row)
	}
	return rows
}

// caseBudgets writes a case's token-budget table: per registered text
// codec and budget, the first page's items of the case's and its tokens,
// and the pages needed.
func (c *Card) caseBudgets(w *writer, cs Case) {
	var rows [][]string
	for fi, f := range c.Formats {
		if !f.budgets {
			continue
		}
		row := []string{f.Name}
		for _, b := range cs.Results[fi].Budgets {
			first := fmt.Sprintf("%s/%s (%s), %s tok", num(b.FirstPage), num(b.Items), pct(b.Share()), num(b.FirstPageTokens))
			pages := "n/a"
			if b.Pages > 0 {
				pages = num(b.Pages)
			}
			row = append(row, first, pages)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return
	}
	w.p("\nToken budgets (o200k): items of the first page and its tokens, pages for the whole.\n\n")
	w.table(append([]string{"format"}, budgetHead()...), rows, 1)
}
