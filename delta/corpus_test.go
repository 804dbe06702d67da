package delta_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestCorpusRequeries diffs every corpus case against its re-query after
// 1%, 5% and 20% of its nodes and rows changed, patches it back in Go and,
// when python3 is present (required under CI), with testdata/patch.py,
// and reports the median size of the json delta document against the full canonical
// JSON at each rate.
func TestCorpusRequeries(t *testing.T) {
	cases := testsupport.CorpusUnderRace(corpus.Generate())
	rates := []int{1, 5, 20}
	python, err := exec.LookPath("python3")
	if err != nil && os.Getenv("CI") == "true" {
		t.Fatalf("python3 is required under CI: %v", err)
	}
	var in bytes.Buffer
	var want []*wire.GraphResponse
	var names []string
	ratios := map[int][]float64{}
	for _, c := range cases {
		base := c.Response
		bj, err := jsoncodec.AppendEncode(nil, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, pct := range rates {
			next := deltatest.ChangeRate(base, pct)
			d, err := delta.Diff(base, next)
			if err != nil {
				t.Fatal(err)
			}
			dj, err := delta.AppendDelta(jsonc, nil, d)
			if err != nil {
				t.Fatalf("%s at %d%%: %v", c.ID(), pct, err)
			}
			d2, err := delta.DecodeDelta(jsonc, dj)
			if err != nil {
				t.Fatalf("%s at %d%%: %v", c.ID(), pct, err)
			}
			got, err := delta.Patch(base, d2)
			if err != nil {
				t.Fatalf("%s at %d%%: %v", c.ID(), pct, err)
			}
			if !wire.Equal(next, got, wire.Exact) {
				t.Fatalf("%s at %d%% (-want +got):\n%s", c.ID(), pct, wiretest.Diff(next, got, wire.Exact))
			}
			full, _ := jsoncodec.AppendEncode(nil, next)
			ratios[pct] = append(ratios[pct], float64(len(dj))/float64(len(full)))
			fmt.Fprintf(&in, `{"base":%s,"delta":%s}`+"\n", bj, dj)
			want = append(want, next)
			names = append(names, fmt.Sprintf("%s at %d%%", c.ID(), pct))
		}
	}
	for _, pct := range rates {
		rs := ratios[pct]
		slices.Sort(rs)
		t.Logf("%2d%% of nodes and rows changed: JSON delta / full JSON, median %.1f%% (min %.1f%%, max %.1f%%) over %d cases",
			pct, 100*rs[len(rs)/2], 100*rs[0], 100*rs[len(rs)-1], len(rs))
	}
	if python == "" {
		t.Skip("python3 not found: the independent patcher does not run")
	}
	lines := runPatchPy(t, python, &in)
	if len(lines) != len(want) {
		t.Fatalf("patch.py answered %d of %d", len(lines), len(want))
	}
	for i, line := range lines {
		if line.Error != "" {
			t.Fatalf("%s: patch.py: %s", names[i], line.Error)
		}
		got, err := jsoncodec.DecodeWithin(line.Result, wire.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if !wire.Equal(want[i], got, wire.Exact) {
			t.Errorf("%s: patch.py's result (-want +got):\n%s", names[i], wiretest.Diff(want[i], got, wire.Exact))
		}
	}
	t.Logf("patch.py applied all %d corpus re-query deltas exactly", len(lines))
}
