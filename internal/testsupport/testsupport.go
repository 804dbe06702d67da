// Package testsupport holds what the tests and benchmarks of several
// packages share: the shared data directories named by environment
// variables, the GOON reference cases, golden files, and the deterministic
// responses the benchmarks measure.
//
// A directory is read from its environment variable, never copied into
// the repository. Unset, the test is skipped, except when CI is set: then
// it fails, as it does when the directory is missing.
package testsupport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The environment variables that name the shared data directories.
const (
	// ReferenceEnv names the directory of the GOON reference cases:
	// NAME.json (canonical JSON and one newline) beside NAME.goon.
	ReferenceEnv = "GOON_REFERENCE_DIR"
	// CurrentEnv names the directory of the cases of GKG's current GOON
	// encoder (response schema v5, goon-reference/current/cases): NAME.json
	// (RAW v5 JSON) beside NAME.goon, as for ReferenceEnv.
	CurrentEnv = "GOON_CURRENT_DIR"
	// SpecEnv names the directory of the TOON specification fixtures
	// (encode/*.json and decode/*.json).
	SpecEnv = "TOON_SPEC_DIR"
)

// Dir returns the directory named by the environment variable env. When
// the variable is unset it skips the test, or fails it when CI is set;
// when the directory is missing it fails the test.
func Dir(t testing.TB, env string) string {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set (required when CI is set)", env)
		}
		t.Skipf("%s is not set", env)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s=%s is not a directory (%v)", env, dir, err)
	}
	return dir
}

// Case is one GOON reference case.
type Case struct {
	Name string // the file name without its extension, such as "traversal"
	Path string // the path of the JSON file
	JSON []byte // the input: canonical JSON followed by one newline
	GOON []byte // the GOON rendering of the input
}

// ReferenceCases returns the GOON reference cases of the directory in
// GOON_REFERENCE_DIR, sorted by name, under the rules of Dir. It fails the
// test when the directory holds no case, or a case has no .goon file.
func ReferenceCases(t testing.TB) []Case {
	t.Helper()
	return CasesIn(t, ReferenceEnv)
}

// CurrentCases returns the cases of GKG's current encoder, from the
// directory in GOON_CURRENT_DIR, as ReferenceCases does.
func CurrentCases(t testing.TB) []Case {
	t.Helper()
	return CasesIn(t, CurrentEnv)
}

// CasesIn returns the NAME.json / NAME.goon pairs of the directory named
// by env, sorted by name, under the rules of Dir. It fails the test when
// the directory holds no case, or a case has no .goon file.
func CasesIn(t testing.TB, env string) []Case {
	t.Helper()
	dir := Dir(t, env)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("%s=%s holds no *.json cases", env, dir)
	}
	cases := make([]Case, 0, len(files))
	for _, f := range files {
		c := Case{Name: strings.TrimSuffix(filepath.Base(f), ".json"), Path: f}
		if c.JSON, err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
		if c.GOON, err = os.ReadFile(strings.TrimSuffix(f, ".json") + ".goon"); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// Golden compares got with the file at path, or, when update is true,
// writes got there (creating the directory). It reports whether the file
// holds got; when it does not, the test has failed with the difference.
func Golden(t testing.TB, path string, got []byte, update bool) bool {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale (-file +got):\n%s", path, diff)
		return false
	}
	return true
}
