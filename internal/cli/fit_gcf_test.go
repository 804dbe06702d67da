package cli_test

import (
	"strconv"
	"testing"

	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// TestFitPagesGCF pages through the ADR case at 2,000 cl100k tokens in
// gcf, following next_cursor: every page's stdout is a gcf document that
// costs at most 2,000 tokens by cl100k, is what the statistics counted, and
// decodes to the nodes and edges the statistics say; together the pages
// hold every node and edge of the case once.
func TestFitPagesGCF(t *testing.T) {
	seen := map[string]bool{}
	edges := 0
	pages := walkFit(t, adrFile(t), tokens.Cl100k, []string{"-f", "gcf"}, func(page int, stdout string, st fitStats) {
		got, err := wire.DecodeWith("gcf", []byte(stdout))
		if err != nil {
			t.Fatalf("page %d: gcf does not read the page: %v\n%.300s", page, err, stdout)
		}
		if len(got.Nodes) != st.NodesKept || len(got.Edges) != st.EdgesKept {
			t.Fatalf("page %d: %d nodes and %d edges, the statistics say %d and %d", page, len(got.Nodes), len(got.Edges), st.NodesKept, st.EdgesKept)
		}
		for _, nd := range got.Nodes {
			k := nd.Type + ":" + strconv.FormatInt(nd.ID, 10)
			if seen[k] {
				t.Fatalf("page %d: node %s again", page, k)
			}
			seen[k] = true
		}
		edges += len(got.Edges)
	})
	if pages < 2 {
		t.Errorf("%d pages, want several", pages)
	}
	if len(seen) != 250 || edges != 200 {
		t.Errorf("the pages hold %d nodes and %d edges; want 250 and 200", len(seen), edges)
	}
}
