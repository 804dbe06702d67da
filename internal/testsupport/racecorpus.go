package testsupport

import (
	"strings"
	"sync"

	"github.com/graphwire/graphwire/bench/corpus"
)

// Generated is corpus.Generate's corpus, built once per test process for
// the tests that only read it (a test that changes a response changes a
// clone).
var Generated = sync.OnceValue(corpus.Generate)

// CorpusUnderRace returns cases as they are, or, under the race detector,
// the smallest case of each shape in each profile: a case's shape is its
// name without the size suffix (_s, _m, _l, _xl), so aggregation_s stands
// for aggregation_m and _l, and neighbors_vulnerabilities_m, which has no
// smaller size, stands for itself. A test that runs every corpus case
// through single-goroutine work, which the race detector slows severalfold
// with nothing to watch, checks every shape and profile there; .ci/run
// runs it again without -race, over every case.
func CorpusUnderRace(cases []corpus.Case) []corpus.Case {
	if !Race {
		return cases
	}
	type shape struct{ profile, stem string }
	smallest := map[shape]int{} // index in cases
	var order []shape
	for i, c := range cases {
		stem, rank := SizeOf(c.Name)
		k := shape{c.Profile, stem}
		j, ok := smallest[k]
		if !ok {
			order = append(order, k)
		}
		if _, r := SizeOf(cases[j].Name); !ok || rank < r {
			smallest[k] = i
		}
	}
	out := make([]corpus.Case, 0, len(order))
	for _, k := range order {
		out = append(out, cases[smallest[k]])
	}
	return out
}

// SizeOf splits a corpus case's name into its shape and the rank of its
// size suffix: 0 for _s, 1 for _m, 2 for _l, 3 for _xl, and 0 for a name
// without one (the name is then its own shape).
func SizeOf(name string) (shape string, rank int) {
	for r, suffix := range []string{"_s", "_m", "_l", "_xl"} {
		if s, ok := strings.CutSuffix(name, suffix); ok {
			return s, r
		}
	}
	return name, 0
}
