package fit_test

import (
	"os"
	"path/filepath"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

const corpusDir = "../bench/corpus/text-heavy"

// sized is the path of the corpus case name (such as "traversal_m"), or
// under the race detector of the same shape's _s case: the tests that page
// a case tokenize on one goroutine, which the detector slows severalfold
// with nothing to watch. .ci/run runs them again without it.
func sized(name string) string {
	if fit.RaceEnabled() {
		stem, _ := testsupport.SizeOf(name)
		if _, err := os.Stat(filepath.Join(corpusDir, stem+"_s.json")); err == nil {
			name = stem + "_s"
		}
	}
	return filepath.Join(corpusDir, name+".json")
}

func loadCase(t testing.TB, path string) *wire.GraphResponse {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := wire.DecodeWith("json", data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
