package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// writeEncoded writes r encoded in codec name to dir/file and returns its
// path.
func writeEncoded(t *testing.T, dir, file, name string, r *wire.GraphResponse) string {
	t.Helper()
	b, err := wire.EncodeWith(name, r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDiffPatch: for every corpus case and a re-query with 5% of its
// nodes changed, "diff -f NAME" then "patch" gives what NAME writes for
// the re-query, for each codec with a delta syntax, and the delta of a
// response of 20 nodes or more is smaller than the full response.
func TestDiffPatch(t *testing.T) {
	if testsupport.Race {
		t.Skip("every corpus case, whole, diffed and patched on one goroutine; .ci/run runs it without -race")
	}
	dir := t.TempDir()
	for _, c := range testsupport.Generated() {
		next := deltatest.ChangeRate(c.Response, 5)
		for _, name := range []string{"json", "goon"} {
			basePath := writeEncoded(t, dir, "base."+name, name, c.Response)
			nextPath := writeEncoded(t, dir, "next.json", "json", next)
			d := run("", "diff", "-f", name, basePath, nextPath)
			if d.code != cli.ExitOK {
				t.Fatalf("%s: diff -f %s: exit %d: %s", c.ID(), name, d.code, d.stderr)
			}
			full, _ := wire.EncodeWith(name, next)
			if len(c.Response.Nodes) >= 20 && len(d.stdout) >= len(full) {
				t.Errorf("%s: the %s delta (%d bytes) is no smaller than the response (%d)", c.ID(), name, len(d.stdout), len(full))
			}
			deltaPath := filepath.Join(dir, "delta."+name)
			if err := os.WriteFile(deltaPath, []byte(d.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			p := run("", "patch", basePath, deltaPath)
			if p.code != cli.ExitOK {
				t.Fatalf("%s: patch with a %s delta: exit %d: %s", c.ID(), name, p.code, p.stderr)
			}
			if p.stdout != string(full) {
				t.Errorf("%s: patch with a %s delta does not give the re-query as %s writes it", c.ID(), name, name)
			}
		}
	}
}

func TestDiffPatchErrors(t *testing.T) {
	dir := t.TempDir()
	cases := testsupport.Generated()
	base := writeEncoded(t, dir, "base.json", "json", cases[0].Response)
	next := writeEncoded(t, dir, "next.json", "json", deltatest.ChangeRate(cases[0].Response, 20))
	other := writeEncoded(t, dir, "other.json", "json", cases[1].Response)
	d := run("", "diff", "-f", "goon", base, next)
	if d.code != cli.ExitOK {
		t.Fatalf("diff: %d %s", d.code, d.stderr)
	}
	deltaPath := filepath.Join(dir, "delta.goon")
	if err := os.WriteFile(deltaPath, []byte(d.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.goon")
	if err := os.WriteFile(truncated, []byte(d.stdout[:len(d.stdout)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	// One character of the check altered: the delta reads, and the
	// result does not match it.
	at := strings.Index(d.stdout, "graphwire_delta:") + len("graphwire_delta:")
	digit := byte('0')
	if d.stdout[at] == '0' {
		digit = '1'
	}
	altText := d.stdout[:at] + string(digit) + d.stdout[at+1:]
	altered := filepath.Join(dir, "altered.goon")
	if err := os.WriteFile(altered, []byte(altText), 0o644); err != nil {
		t.Fatal(err)
	}
	goonBase := writeEncoded(t, dir, "base.goon", "goon", cases[0].Response)
	for _, c := range []struct {
		name string
		args []string
		code int
		cmd  string
		want string
	}{
		{"no codec", []string{"diff", base, next}, cli.ExitUsage, "diff", "missing -f NAME (codecs with a delta syntax: cbor, gcf, goon, json, msgpack, toon)"},
		{"unknown codec", []string{"diff", "-f", "nope", base, next}, cli.ExitUsage, "diff", "nope"},
		{"one file", []string{"diff", "-f", "json", base}, cli.ExitUsage, "diff", "want two files"},
		{"wrong base", []string{"patch", other, deltaPath}, cli.ExitError, "patch", "another base"},
		{"truncated", []string{"patch", goonBase, truncated}, cli.ExitError, "patch", "goon: line"},
		{"altered", []string{"patch", goonBase, altered}, cli.ExitError, "patch", "does not match the delta's check"},
		{"a response for a delta", []string{"patch", goonBase, base}, cli.ExitError, "patch", "not a delta"},
	} {
		t.Run(c.name, func(t *testing.T) {
			oneErrorLine(t, run("", c.args...), c.code, c.cmd, c.want)
		})
	}
}

// TestDecodeAutoRefusesDeltas: -f auto never takes a delta for a
// response: it cannot tell json's delta from a response's format, and
// GOON's reader names the delta's header field it will not read.
func TestDecodeAutoRefusesDeltas(t *testing.T) {
	dir := t.TempDir()
	c := testsupport.Generated()[0]
	base := writeEncoded(t, dir, "base.json", "json", c.Response)
	next := writeEncoded(t, dir, "next.json", "json", deltatest.ChangeRate(c.Response, 5))
	for name, want := range map[string]string{"json": "cannot tell the input's format", "goon": "graphwire_delta"} {
		d := run("", "diff", "-f", name, base, next)
		if d.code != cli.ExitOK {
			t.Fatalf("diff -f %s: %s", name, d.stderr)
		}
		oneErrorLine(t, run(d.stdout, "decode", "-f", "auto"), cli.ExitError, "decode", want)
	}
}
