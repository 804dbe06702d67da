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
// "".
func loadCases(dir string) ([]corpus.Case, error) {
	if dir == "" {
		return corpus.Generate(), nil
	}
	return corpus.Load(dir)
}

// moduleRoot is the graphwire module root above the working directory, or
// "" outside it.
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, err := corpus.ModuleRoot(wd)
	if err != nil {
		return ""
	}
	return root
}
