package fit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
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

// concurrently makes n calls of page at once, page(i) in goroutine i,
// each returning the page it got and the page a lone call gets; a failed
// call or another page is an error.
func concurrently(t *testing.T, n int, page func(i int) (got, want *fit.Result, err error)) {
	t.Helper()
	errs := make(chan error, n)
	for i := range n {
		go func() {
			got, want, err := page(i)
			if err == nil && string(got.Encoding) != string(want.Encoding) {
				err = fmt.Errorf("concurrent call %d returned another page", i)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
