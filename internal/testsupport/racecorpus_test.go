package testsupport

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
)

// TestCorpusUnderRace: without the race detector every case is kept;
// under it the large ones go and every profile keeps a case of each
// query shape the large ones had.
func TestCorpusUnderRace(t *testing.T) {
	all := corpus.Generate()
	got := CorpusUnderRace(all)
	if !Race {
		if len(got) != len(all) {
			t.Fatalf("%d of %d cases kept without the race detector", len(got), len(all))
		}
		return
	}
	kept := map[string]bool{}
	for _, c := range got {
		if strings.HasSuffix(c.Name, "_l") || strings.HasSuffix(c.Name, "_xl") {
			t.Errorf("%s kept under the race detector", c.ID())
		}
		kept[c.Profile+"/"+string(c.Response.QueryType)] = true
	}
	for _, c := range all {
		if !kept[c.Profile+"/"+string(c.Response.QueryType)] {
			t.Errorf("%s: no case of query type %s left in profile %s", c.ID(), c.Response.QueryType, c.Profile)
		}
	}
	if len(got) == len(all) || len(got) == 0 {
		t.Errorf("%d of %d cases kept under the race detector", len(got), len(all))
	}
}
