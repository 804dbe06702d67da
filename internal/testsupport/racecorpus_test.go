package testsupport

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
)

// TestCorpusUnderRace: without the race detector every case is kept;
// under it, exactly one case of each shape in each profile, the smallest,
// and none of the large ones.
func TestCorpusUnderRace(t *testing.T) {
	all := corpus.Generate()
	got := CorpusUnderRace(all)
	if !Race {
		if len(got) != len(all) {
			t.Fatalf("%d of %d cases kept without the race detector", len(got), len(all))
		}
		return
	}
	type shape struct{ profile, stem string }
	kept := map[shape]int{}
	for _, c := range got {
		stem, rank := SizeOf(c.Name)
		if rank >= 2 {
			t.Errorf("%s kept under the race detector", c.ID())
		}
		kept[shape{c.Profile, stem}]++
	}
	for _, c := range all {
		stem, rank := SizeOf(c.Name)
		k := shape{c.Profile, stem}
		if kept[k] != 1 {
			t.Errorf("%s: %d cases of its shape kept, want 1", c.ID(), kept[k])
		}
		for _, g := range got {
			if _, r := SizeOf(g.Name); g.Profile == c.Profile && g.Name != c.Name && r > rank {
				if s, _ := SizeOf(g.Name); s == stem {
					t.Errorf("%s kept, %s is smaller", g.ID(), c.ID())
				}
			}
		}
	}
	if len(got) >= len(all) || len(got) == 0 {
		t.Errorf("%d of %d cases kept under the race detector", len(got), len(all))
	}
	t.Logf("%d of %d cases kept under the race detector", len(got), len(all))
}

func TestSizeOf(t *testing.T) {
	for name, want := range map[string]struct {
		shape string
		rank  int
	}{
		"aggregation_s": {"aggregation", 0}, "neighbors_vulnerabilities_m": {"neighbors_vulnerabilities", 1},
		"search_l": {"search", 2}, "traversal_xl": {"traversal", 3}, corpus.ADRCase: {corpus.ADRCase, 0},
	} {
		if s, r := SizeOf(name); s != want.shape || r != want.rank {
			t.Errorf("SizeOf(%q) = %q, %d; want %q, %d", name, s, r, want.shape, want.rank)
		}
	}
}
