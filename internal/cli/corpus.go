package cli

// Where scorecard, bench and gen find the corpus and the scorecard file.
//
// The corpus is a pure function of its seed, so the commands generate it
// in memory (corpus.Generate) unless -corpus names a directory: they work
// from any directory, with no checkout. Files that are written somewhere
// by default (scorecard.md, the corpus directory of gen) go to the
// repository's copy when the working directory is inside the graphwire
// module; outside it, scorecard writes to standard output and gen needs -o.

import (
	"os"

	"github.com/graphwire/graphwire/bench/corpus"
)

// loadCases returns the corpus in dir, or the generated corpus when dir is
// "". Either way the cases come in the order of their file names, as
// corpus.Load reads them, so that a scorecard or a report does not depend
// on where the corpus came from.
func loadCases(dir string) ([]corpus.Case, error) {
	if dir == "" {
		return generatedCases(), nil
	}
	return corpus.Load(dir)
}

// generatedCases is the generated corpus in the order Load reads it.
func generatedCases() []corpus.Case {
	cases := corpus.Generate()
	corpus.Sort(cases)
	return cases
}

// moduleRoot is the graphwire module root above the working directory; it
// fails outside the repository.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return corpus.ModuleRoot(wd)
}
