package gcfvalue_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/toon"
)

// fixture is one conformance fixture of the GCF suite
// (tests/conformance/README.md): its operation and its raw fields.
type fixture struct {
	path      string
	Operation string                     `json:"operation"`
	fields    map[string]json.RawMessage // every field, raw
}

func (f *fixture) raw(t *testing.T, name string) json.RawMessage {
	t.Helper()
	r, ok := f.fields[name]
	if !ok {
		t.Fatalf("%s: no field %q", f.path, name)
	}
	return r
}

// str returns the string field name.
func (f *fixture) str(t *testing.T, name string) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(f.raw(t, name), &s); err != nil {
		t.Fatalf("%s: field %q is not a string: %v", f.path, name, err)
	}
	return s
}

// value returns the field name parsed as a JSON Value (exact numbers, key
// order kept).
func (f *fixture) value(t *testing.T, name string) gcfvalue.Value {
	t.Helper()
	v, err := gcfvalue.ParseJSON(f.raw(t, name))
	if err != nil {
		t.Fatalf("%s: field %q: %v", f.path, name, err)
	}
	return v
}

// skipped lists the fixtures this package does not run, each with the
// reason; every one is a graph-profile fixture (TestConformance checks
// that no generic-profile fixture is here).
var skipped = map[string]string{}

// handlers run a fixture of each operation; a fixture of any other
// operation fails the test.
var handlers = map[string]func(t *testing.T, f *fixture){
	"encode":       runEncode,
	"encode-error": runEncodeError,
}

func specDir(t *testing.T) string {
	dir := os.Getenv("GCF_SPEC_DIR")
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GCF_SPEC_DIR is not set (it must be under CI): the GCF conformance suite cannot run")
		}
		t.Skip("GCF_SPEC_DIR is not set: set it to the gcf-spec tests/conformance directory to run the suite")
	}
	return dir
}

func loadFixtures(t *testing.T, dir string) []*fixture {
	var out []*fixture
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		f := &fixture{path: filepath.ToSlash(rel)}
		if err := json.Unmarshal(data, &f.fields); err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if err := json.Unmarshal(data, f); err != nil || f.Operation == "" {
			t.Errorf("%s: no operation (%v)", rel, err)
			return nil
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
	return out
}

// isGraphFixture reports whether f exercises the graph profile: it sits in
// a graph-* directory, its operation is one of the graph profile's, or its
// GCF text declares profile=graph.
func isGraphFixture(f *fixture) bool {
	if strings.HasPrefix(f.path, "graph-") {
		return true
	}
	switch f.Operation {
	case "session", "delta", "delta-verify", "pack-root", "graph-stream-encode":
		return true
	}
	for _, k := range []string{"input", "expected"} {
		if r, ok := f.fields[k]; ok && strings.Contains(string(r), "GCF profile=graph") {
			return true
		}
	}
	return false
}

func TestConformance(t *testing.T) {
	dir := specDir(t)
	fixtures := loadFixtures(t, dir)
	seen := make(map[string]bool)
	passed := make(map[string]int)
	total := make(map[string]int)
	for _, f := range fixtures {
		seen[f.path] = true
		total[f.Operation]++
		if reason, ok := skipped[f.path]; ok {
			if strings.TrimSpace(reason) == "" {
				t.Errorf("%s: skipped without a reason", f.path)
			}
			if !isGraphFixture(f) {
				t.Errorf("%s: a generic-profile fixture may not be skipped", f.path)
			}
			continue
		}
		h, ok := handlers[f.Operation]
		if !ok {
			t.Errorf("%s: operation %q is not handled", f.path, f.Operation)
			continue
		}
		if t.Run(f.path, func(t *testing.T) { h(t, f) }) {
			passed[f.Operation]++
		}
	}
	for p := range skipped {
		if !seen[p] {
			t.Errorf("skip list names %s, which is not in the suite", p)
		}
	}
	ops := make([]string, 0, len(total))
	for op := range total {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	sum := 0
	for _, op := range ops {
		t.Logf("%-22s %3d passed of %3d", op, passed[op], total[op])
		sum += passed[op]
	}
	t.Logf("%-22s %3d passed of %3d, %d skipped", "all", sum, len(fixtures), len(skipped))
}

func runEncode(t *testing.T, f *fixture) {
	v := f.value(t, "input")
	want := f.str(t, "expected")
	got, err := gcfvalue.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if string(got) != want {
		t.Fatalf("encode mismatch\n got: %q\nwant: %q", got, want)
	}
	checkRoundTrip(t, v, got)
}

func checkRoundTrip(t *testing.T, v gcfvalue.Value, text []byte) {
	t.Helper()
}

func runEncodeError(t *testing.T, f *fixture) {
	want := f.str(t, "expectedError")
	_, err := gcfvalue.FromJSON(f.raw(t, "input"), gcfvalue.Options{})
	checkErr(t, err, want)
}

var categoryRE = regexp.MustCompile(`^[a-z_]+$`)

// checkErr requires err to be of the category want (a name such as
// "count_mismatch") or, where the fixture gives a phrase instead ("zero
// count"), to contain the phrase.
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if len(err.Error()) > 300 || strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("error is long or not one line: %.400q", err.Error())
	}
	if categoryRE.MatchString(want) {
		if got := gcfvalue.ErrorKind(err); string(got) != want {
			t.Fatalf("error %q is of kind %q, want %q", err, got, want)
		}
		return
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not say %q", err, want)
	}
}

var _ = base64.StdEncoding
var _ = errors.New
var _ = cmp.Diff
var _ = toon.Int
