package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// TestGenStdlib: gen -stdlib writes the go-stdlib profile, read from the
// toolchain's GOROOT, one canonical-JSON file per case under
// DIR/go-stdlib; without -o it refuses, since the profile is never
// written into the repository.
func TestGenStdlib(t *testing.T) {
	if testsupport.Race {
		t.Skip("reads and encodes the standard library on one goroutine; .ci/run runs it without -race")
	}
	if res := runCmd(false, "", "gen", "-stdlib"); res.code != cli.ExitUsage || !strings.Contains(res.stderr, "-o DIR") {
		t.Errorf("gen -stdlib without -o: %+v", res)
	}
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if res := runCmd(false, "", "gen", "-stdlib", "-o", filepath.Join(root, corpus.Dir)); res.code != cli.ExitUsage {
		t.Errorf("gen -stdlib into the committed corpus: %+v", res)
	}
	dir := t.TempDir()
	res := runCmd(false, "", "gen", "-stdlib", "-o", dir)
	if res.code != 0 || res.stdout != "" {
		t.Fatalf("gen -stdlib: %+v", res)
	}
	std, version, err := corpus.LoadStdlib()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.stderr, version) {
		t.Errorf("gen -stdlib does not name the Go version %s: %q", version, res.stderr)
	}
	want, err := corpus.Files(std.Cases)
	if err != nil {
		t.Fatal(err)
	}
	got, err := filepath.Glob(filepath.Join(dir, corpus.Stdlib, "*.json"))
	if err != nil || len(got) != len(want) || len(want) != len(corpus.StdlibCaseNames()) {
		t.Fatalf("gen -stdlib wrote %d files, want %d (%v)", len(got), len(want), err)
	}
	for name, data := range want {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(b, data) {
			t.Errorf("%s: not the generated case (%v)", name, err)
		}
	}
}
