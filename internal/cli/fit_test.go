package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/tokens"
)

func adrFile(t *testing.T) string {
	t.Helper()
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, corpus.Dir, corpus.TextHeavy, corpus.ADRCase+".json")
}

// TestFitPagesThroughTheADRCase pages through the ADR case (250 nodes,
// 200 edges) at 2,000 tokens in GOON, following next_cursor: every page's
// stdout costs at most 2,000 o200k tokens and is what the statistics
// counted, each page starts where the previous one ended, the pages are as
// many as the first page's statistics say, and together they hold every
// node and edge of the case.
func TestFitPagesThroughTheADRCase(t *testing.T) {
	var perPage []int
	nodes, edges, units := 0, 0, 0
	walkFit(t, adrFile(t), tokens.O200k, []string{"-f", "goon"}, func(page int, stdout string, st fitStats) {
		if !strings.Contains(stdout, "\nnodes:"+strconv.Itoa(st.NodesKept)+"\nedges:"+strconv.Itoa(st.EdgesKept)+"\n") {
			t.Fatalf("page %d: the GOON header does not say %d nodes and %d edges:\n%.200s", page, st.NodesKept, st.EdgesKept, stdout)
		}
		if st.FirstUnit != units || st.NodesTotal != 250 || st.EdgesTotal != 200 || st.UnitsTotal != 250 {
			t.Fatalf("page %d: %+v, want it to start at unit %d of 250", page, st, units)
		}
		perPage = append(perPage, st.PageTokens)
		nodes, edges, units = nodes+st.NodesKept, edges+st.EdgesKept, units+st.UnitsKept
	})
	t.Logf("ADR case, goon, 2000 o200k tokens: %d pages of %v tokens", len(perPage), perPage)
	if nodes != 250 || edges != 200 || units != 250 {
		t.Errorf("the pages hold %d nodes, %d edges, %d units; want 250, 200, 250", nodes, edges, units)
	}
}

// fitStats is the statistics line of "wirebench fit -stats-json".
type fitStats struct {
	PageTokens int    `json:"page_tokens"`
	NodesKept  int    `json:"nodes_kept"`
	NodesTotal int    `json:"nodes_total"`
	EdgesKept  int    `json:"edges_kept"`
	EdgesTotal int    `json:"edges_total"`
	FirstUnit  int    `json:"first_unit"`
	UnitsKept  int    `json:"units_kept"`
	UnitsTotal int    `json:"units_total"`
	Pages      int    `json:"pages"`
	Truncated  bool   `json:"truncated"`
	NextCursor string `json:"next_cursor"`
}

// walkFit pages through file with "wirebench fit" and args (the codec) at
// 2,000 tokens of the counter named, following next_cursor, and calls each
// with every page's stdout and statistics. Every page must cost at most
// 2,000 tokens by that counter and be what its statistics counted, and the
// pages must be as many as the first page's statistics say (-whole); it
// returns how many there were.
func walkFit(t *testing.T, file, counterName string, args []string, each func(page int, stdout string, st fitStats)) int {
	t.Helper()
	counter, err := tokens.Get(counterName)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	cursor := ""
	for page := 1; page <= 50; page++ {
		args := append([]string{"fit", "-t", counterName, "-budget", "2000", "-stats-json"}, args...)
		if cursor != "" {
			args = append(args, "-cursor", cursor)
		} else {
			args = append(args, "-whole") // the page count, on the first page
		}
		res := run("", append(args, file)...)
		if res.code != 0 || strings.Count(res.stderr, "\n") != 1 {
			t.Fatalf("page %d: %+v", page, res)
		}
		var st fitStats
		if err := json.Unmarshal([]byte(res.stderr), &st); err != nil {
			t.Fatalf("page %d: stats %q: %v", page, res.stderr, err)
		}
		n, err := counter.Count([]byte(res.stdout))
		if err != nil || n != st.PageTokens || n > 2000 {
			t.Fatalf("page %d: stdout counts %d %s tokens, stats say %d, budget 2000", page, n, counterName, st.PageTokens)
		}
		each(page, res.stdout, st)
		if page == 1 {
			pages = st.Pages
		}
		if !st.Truncated {
			if page != pages {
				t.Errorf("%d pages, the first page's statistics say %d", page, pages)
			}
			return page
		}
		cursor = st.NextCursor
	}
	t.Fatalf("more than 50 pages")
	return 0
}

func TestFitStatsLine(t *testing.T) {
	res := run("", "fit", "-f", "llm", "-budget", "2000", adrFile(t))
	if res.code != 0 || !strings.HasPrefix(res.stderr, "fit: goon o200k: page ") || !strings.Contains(res.stderr, "; truncated, next_cursor ") || strings.Count(res.stderr, "\n") != 1 {
		t.Errorf("stats line: %+v", res.stderr)
	}
	if strings.Contains(res.stderr, "whole") || strings.Contains(res.stderr, "pages") {
		t.Errorf("stats line without -whole names the whole's statistics: %+v", res.stderr)
	}
	whole := run("", "fit", "-f", "json", "-t", "cl100k", "-budget", "100000", "-whole", adrFile(t))
	if whole.code != 0 || strings.Contains(whole.stderr, "truncated") || !strings.Contains(whole.stderr, "json cl100k") || !strings.Contains(whole.stderr, "1 pages") || !strings.Contains(whole.stderr, "; whole ") {
		t.Errorf("whole response: %+v", whole.stderr)
	}
}

func TestFitErrors(t *testing.T) {
	file := adrFile(t)
	for _, tt := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no codec", []string{"fit", "-budget", "100", file}, cli.ExitUsage, "missing -f"},
		{"unknown codec", []string{"fit", "-f", "yaml", "-budget", "100", file}, cli.ExitUsage, "unknown codec"},
		{"binary codec", []string{"fit", "-f", "cbor", "-budget", "100", file}, cli.ExitUsage, "binary"},
		{"no budget", []string{"fit", "-f", "goon", file}, cli.ExitUsage, "-budget"},
		{"bad budget", []string{"fit", "-f", "goon", "-budget", "lots", file}, cli.ExitUsage, "-budget"},
		{"estimate counter", []string{"fit", "-f", "goon", "-t", "chars", "-budget", "100", file}, cli.ExitUsage, "real tokenizer"},
		{"below the minimum", []string{"fit", "-f", "goon", "-budget", "5", file}, cli.ExitError, "minimum"},
		{"bad cursor", []string{"fit", "-f", "goon", "-budget", "2000", "-cursor", "nope", file}, cli.ExitError, "cursor"},
		{"missing file", []string{"fit", "-f", "goon", "-budget", "2000", file + ".missing"}, cli.ExitError, "missing"},
	} {
		res := run("", tt.args...)
		if res.code != tt.code || res.stdout != "" || !strings.Contains(res.stderr, tt.msg) || strings.Count(res.stderr, "\n") != 1 {
			t.Errorf("%s: %+v, want exit %d and one line saying %q", tt.name, res, tt.code, tt.msg)
		}
	}
	bad := run("{", "fit", "-f", "goon", "-budget", "100")
	checkBadInput(t, bad, "json")
}

// TestFitUpstreamCursor gives fit the upstream server's cursor that a
// response's last page carries (neighbors_m says has_more with a
// next_cursor of its server): the error says whose cursor it is, before
// the response is read.
func TestFitUpstreamCursor(t *testing.T) {
	file := filepath.Join(filepath.Dir(adrFile(t)), "neighbors_m.json")
	last := run("", "fit", "-f", "goon", "-budget", "32000", "-stats-json", file)
	if last.code != 0 || !strings.Contains(last.stderr, `"truncated":false`) || strings.Contains(last.stderr, "next_cursor") {
		t.Fatalf("the whole case in one page: %+v", last.stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var own struct {
		Pagination struct {
			NextCursor string `json:"next_cursor"`
		} `json:"pagination"`
	}
	if err := json.Unmarshal(data, &own); err != nil || own.Pagination.NextCursor == "" {
		t.Fatalf("neighbors_m has no next_cursor of its own: %v", err)
	}
	if !strings.Contains(last.stdout, own.Pagination.NextCursor) {
		t.Fatalf("the last page does not carry the server's cursor %q", own.Pagination.NextCursor)
	}
	res := run("", "fit", "-f", "goon", "-budget", "2000", "-cursor", own.Pagination.NextCursor, file)
	if res.code != cli.ExitError || !strings.Contains(res.stderr, "not a cursor issued by fit") || !strings.Contains(res.stderr, "upstream server's") {
		t.Errorf("the server's cursor: %+v, want exit %d naming the upstream server", res, cli.ExitError)
	}
}
