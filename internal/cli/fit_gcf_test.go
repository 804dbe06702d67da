package cli_test

import (
	"encoding/json"
	"strconv"
	"strings"
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
	file := adrFile(t)
	counter, err := tokens.Get(tokens.Cl100k)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	edges, pages := 0, 0
	cursor := ""
	for page := 1; page <= 50; page++ {
		args := []string{"fit", "-f", "gcf", "-t", "cl100k", "-budget", "2000", "-stats-json"}
		if cursor != "" {
			args = append(args, "-cursor", cursor)
		} else {
			args = append(args, "-whole") // the page count, on the first page
		}
		res := run("", append(args, file)...)
		if res.code != 0 || strings.Count(res.stderr, "\n") != 1 {
			t.Fatalf("page %d: %+v", page, res)
		}
		var st struct {
			PageTokens int    `json:"page_tokens"`
			NodesKept  int    `json:"nodes_kept"`
			EdgesKept  int    `json:"edges_kept"`
			Pages      int    `json:"pages"`
			Truncated  bool   `json:"truncated"`
			NextCursor string `json:"next_cursor"`
		}
		if err := json.Unmarshal([]byte(res.stderr), &st); err != nil {
			t.Fatalf("page %d: stats %q: %v", page, res.stderr, err)
		}
		n, err := counter.Count([]byte(res.stdout))
		if err != nil || n != st.PageTokens || n > 2000 {
			t.Fatalf("page %d: stdout counts %d cl100k tokens, stats say %d, budget 2000", page, n, st.PageTokens)
		}
		got, err := wire.DecodeWith("gcf", []byte(res.stdout))
		if err != nil {
			t.Fatalf("page %d: gcf does not read the page: %v\n%.300s", page, err, res.stdout)
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
		if page == 1 {
			pages = st.Pages
		}
		if !st.Truncated {
			if page != pages || pages < 2 {
				t.Errorf("%d pages, the first page's statistics say %d", page, pages)
			}
			break
		}
		cursor = st.NextCursor
	}
	if len(seen) != 250 || edges != 200 {
		t.Errorf("the pages hold %d nodes and %d edges; want 250 and 200", len(seen), edges)
	}
}
