package testsupport

import (
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
)

// CorpusUnderRace returns cases as they are, or, under the race detector,
// without the large ones (a name ending in "_l" or "_xl"). A test that
// runs every corpus case through single-goroutine work, which the race
// detector slows severalfold with nothing to watch, checks the small and
// medium cases there, which hold every shape and profile of the corpus;
// .ci/run runs it again without -race, over every case.
func CorpusUnderRace(cases []corpus.Case) []corpus.Case {
	if !Race {
		return cases
	}
	var out []corpus.Case
	for _, c := range cases {
		if !strings.HasSuffix(c.Name, "_l") && !strings.HasSuffix(c.Name, "_xl") {
			out = append(out, c)
		}
	}
	return out
}
