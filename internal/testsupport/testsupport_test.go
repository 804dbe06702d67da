package testsupport

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.failed, r.msg = true, fmt.Sprint(args...); panic(r) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	panic(r)
}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	panic(r)
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}

// run calls f with a recorder and returns it once f returns or ends the
// test.
func run(t *testing.T, f func(testing.TB)) *recorder {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != any(r) {
				panic(p)
			}
		}()
		f(r)
	}()
	return r
}

func TestDir(t *testing.T) {
	const env = "GRAPHWIRE_TESTSUPPORT_DIR"
	dir := t.TempDir()
	for _, tc := range []struct {
		name, ci, value string
		wantSkip        bool
		wantFail        bool
	}{
		{"unset", "", "", true, false},
		{"unset under CI", "true", "", false, true},
		{"missing", "", filepath.Join(dir, "missing"), false, true},
		{"missing under CI", "true", filepath.Join(dir, "missing"), false, true},
		{"a file", "", filepath.Join(dir, "file"), false, true},
		{"set", "", dir, false, false},
		{"set under CI", "true", dir, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("CI", tc.ci)
			t.Setenv(env, tc.value)
			var got string
			r := run(t, func(tb testing.TB) { got = Dir(tb, env) })
			if r.skipped != tc.wantSkip || r.failed != tc.wantFail {
				t.Fatalf("skipped %v, failed %v (%q); want skipped %v, failed %v", r.skipped, r.failed, r.msg, tc.wantSkip, tc.wantFail)
			}
			if !r.skipped && !r.failed && got != tc.value {
				t.Errorf("Dir = %q, want %q", got, tc.value)
			}
		})
	}
}

func TestReferenceCases(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CI", "")
	t.Setenv(ReferenceEnv, dir)
	if r := run(t, func(tb testing.TB) { ReferenceCases(tb) }); !r.failed {
		t.Errorf("an empty directory does not fail the test")
	}
	for name, text := range map[string]string{"b.json": "{}\n", "b.goon": "B\n", "a.json": "[]\n", "a.goon": "A\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []Case
	if r := run(t, func(tb testing.TB) { got = ReferenceCases(tb) }); r.failed || r.skipped {
		t.Fatalf("ReferenceCases ended the test: %s", r.msg)
	}
	want := []Case{
		{Name: "a", Path: filepath.Join(dir, "a.json"), JSON: []byte("[]\n"), GOON: []byte("A\n")},
		{Name: "b", Path: filepath.Join(dir, "b.json"), JSON: []byte("{}\n"), GOON: []byte("B\n")},
	}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("ReferenceCases = %q, want %q", got, want)
	}
	if err := os.Remove(filepath.Join(dir, "b.goon")); err != nil {
		t.Fatal(err)
	}
	if r := run(t, func(tb testing.TB) { ReferenceCases(tb) }); !r.failed {
		t.Errorf("a case without its .goon file does not fail the test")
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "golden.txt")
	if r := run(t, func(tb testing.TB) { Golden(tb, path, []byte("x\n"), false) }); !r.failed {
		t.Errorf("a missing golden file does not fail the test")
	}
	if r := run(t, func(tb testing.TB) { Golden(tb, path, []byte("x\n"), true) }); r.failed {
		t.Fatalf("update failed: %s", r.msg)
	}
	var ok bool
	if r := run(t, func(tb testing.TB) { ok = Golden(tb, path, []byte("x\n"), false) }); r.failed || !ok {
		t.Errorf("the written file does not match: %s", r.msg)
	}
	if r := run(t, func(tb testing.TB) { ok = Golden(tb, path, []byte("y\n"), false) }); !r.failed || ok {
		t.Errorf("a different file matches")
	}
}

func TestBuildersAreDeterministic(t *testing.T) {
	for name, build := range map[string]func() *wire.GraphResponse{
		"Traversal":      func() *wire.GraphResponse { return Traversal(5, 20) },
		"LargeTraversal": func() *wire.GraphResponse { return LargeTraversal(100) },
		"ADRTraversal":   func() *wire.GraphResponse { return ADRTraversal(40, 20) },
	} {
		if diff := wiretest.Diff(build(), build(), wire.Exact); diff != "" {
			t.Errorf("%s differs between two calls:\n%s", name, diff)
		}
	}
	if r := Traversal(50, 200); len(r.Nodes) != 250 || len(r.Edges) != 200 || r.Pagination == nil {
		t.Errorf("Traversal(50, 200): %d nodes, %d edges", len(r.Nodes), len(r.Edges))
	}
	if r := LargeTraversal(10_000); len(r.Nodes) != 10_000 || len(r.Edges) != 8000+4000 {
		t.Errorf("LargeTraversal(10000): %d nodes, %d edges", len(r.Nodes), len(r.Edges))
	}
	if r := ADRTraversal(50, 200); len(r.Nodes) != 250 || len(r.Edges) != 200 {
		t.Errorf("ADRTraversal(50, 200): %d nodes, %d edges", len(r.Nodes), len(r.Edges))
	}
}

func TestCurrentCases(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CI", "true")
	t.Setenv(ReferenceEnv, "")
	t.Setenv(CurrentEnv, "")
	if r := run(t, func(tb testing.TB) { CurrentCases(tb) }); !r.failed || r.msg != CurrentEnv+" is not set (required when CI is set)" {
		t.Errorf("unset under CI: failed %v (%q)", r.failed, r.msg)
	}
	t.Setenv(CurrentEnv, dir)
	for name, text := range map[string]string{"p.json": "{}", "p.goon": "P\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []Case
	if r := run(t, func(tb testing.TB) { got = CurrentCases(tb) }); r.failed || r.skipped {
		t.Fatalf("CurrentCases ended the test: %s", r.msg)
	}
	if len(got) != 1 || got[0].Name != "p" || string(got[0].GOON) != "P\n" {
		t.Errorf("CurrentCases = %q", got)
	}
}

func TestPaginations(t *testing.T) {
	seen := map[string]bool{}
	v2, v5, cursors := 0, 0, 0
	for _, c := range Paginations() {
		if seen[c.Name] {
			t.Errorf("name %q repeats", c.Name)
		}
		seen[c.Name] = true
		if err := c.Pagination.Check(); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		switch c.Pagination.Schema() {
		case 2:
			v2++
		case 5:
			v5++
		}
		if c.Pagination.NextCursor.Valid {
			cursors++
		}
	}
	if v2 == 0 || v5 == 0 || cursors != len(Cursors) {
		t.Errorf("%d v2, %d v5, %d cursors (want %d)", v2, v5, cursors, len(Cursors))
	}
}
