package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// allStats is the part of fit's -stats-json line the -all tests read.
type allStats struct {
	PageBytes  int    `json:"page_bytes"`
	PageTokens int    `json:"page_tokens"`
	FirstUnit  int    `json:"first_unit"`
	UnitsKept  int    `json:"units_kept"`
	Pages      int    `json:"pages"`
	Truncated  bool   `json:"truncated"`
	NextCursor string `json:"next_cursor"`
}

// TestFitAllWritesEveryPage runs fit -all on the ADR case in goon and
// json and compares it with the pages fit writes one call at a time,
// following next_cursor: the same pages, byte for byte, with the same
// statistics, each page on stdout followed by a newline and as long as
// its page_bytes says; with -whole, every line gives the page count,
// which is the number of pages written. -all with a cursor starts there.
func TestFitAllWritesEveryPage(t *testing.T) {
	file := adrFile(t)
	for _, codec := range []string{"goon", "json"} {
		var want []string
		var wantStats []allStats
		for cursor := ""; len(want) < 50; {
			args := []string{"fit", "-f", codec, "-budget", "2000", "-stats-json"}
			if cursor != "" {
				args = append(args, "-cursor", cursor)
			}
			res := run("", append(args, file)...)
			if res.code != 0 {
				t.Fatalf("%s page %d: %+v", codec, len(want)+1, res)
			}
			var st allStats
			if err := json.Unmarshal([]byte(res.stderr), &st); err != nil {
				t.Fatal(err)
			}
			want, wantStats = append(want, res.stdout), append(wantStats, st)
			if !st.Truncated {
				break
			}
			cursor = st.NextCursor
		}
		for _, from := range []int{0, 2} {
			args := []string{"fit", "-f", codec, "-budget", "2000", "-stats-json", "-all", "-whole"}
			if from > 0 {
				args = append(args, "-cursor", wantStats[from-1].NextCursor)
			}
			res := run("", append(args, file)...)
			if res.code != 0 {
				t.Fatalf("%s -all from page %d: %+v", codec, from+1, res)
			}
			lines := strings.Split(strings.TrimSuffix(res.stderr, "\n"), "\n")
			var got []string
			var gotStats []allStats
			out := res.stdout
			for i, line := range lines {
				var st allStats
				if err := json.Unmarshal([]byte(line), &st); err != nil {
					t.Fatalf("%s -all line %d: %q: %v", codec, i+1, line, err)
				}
				if len(out) < st.PageBytes+1 || out[st.PageBytes] != '\n' {
					t.Fatalf("%s -all page %d: %d bytes, then no newline in %d bytes left", codec, i+1, st.PageBytes, len(out))
				}
				got, out = append(got, out[:st.PageBytes]), out[st.PageBytes+1:]
				if st.Pages != len(want) {
					t.Errorf("%s -all page %d: %d pages, want %d", codec, i+1, st.Pages, len(want))
				}
				st.Pages = 0
				gotStats = append(gotStats, st)
			}
			if out != "" {
				t.Errorf("%s -all: %d bytes after the last page", codec, len(out))
			}
			if d := cmp.Diff(want[from:], got); d != "" {
				t.Errorf("%s -all from page %d: pages differ from one call a page (-one +all):\n%.2000s", codec, from+1, d)
			}
			for i := range wantStats {
				wantStats[i].Pages = 0
			}
			if d := cmp.Diff(wantStats[from:], gotStats); d != "" {
				t.Errorf("%s -all from page %d: statistics differ (-one +all):\n%s", codec, from+1, d)
			}
		}
	}
}
