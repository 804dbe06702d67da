package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestPatchBaseAsHeld: "patch BASE DELTA" accepts the very file "diff"
// was given as BASE, in every codec with documents: a goon delta applied
// to the JSON it was diffed from (whose long string goon truncates and
// whose null it drops), a toon or gcf delta to a base holding the float
// 81.0 (which they write as 81). The result is the next response as the
// delta's codec carries it, written in BASE's codec.
func TestPatchBaseAsHeld(t *testing.T) {
	dir := t.TempDir()
	base := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: wire.Search}
	for i := range 4 {
		base.Nodes = append(base.Nodes, wire.Node{Type: "User", ID: int64(i + 1), Properties: []wire.Property{
			{Key: "score", Value: wire.Float(81.0)},
			{Key: "bio", Value: wire.String(strings.Repeat("a long biography ", 80))},
			{Key: "email", Value: wire.Null()},
			{Key: "state", Value: wire.String("active")},
		}})
	}
	next := wiretest.Clone(base)
	next.Nodes[2].Properties[3].Value = wire.String("blocked")
	basePath := writeEncoded(t, dir, "base.json", "json", base)
	nextPath := writeEncoded(t, dir, "next.json", "json", next)
	for _, name := range []string{"json", "goon", "toon", "gcf", "msgpack", "cbor"} {
		d := run("", "diff", "-f", name, "-o", filepath.Join(dir, "delta."+name), basePath, nextPath)
		if d.code != cli.ExitOK {
			t.Fatalf("diff -f %s: exit %d: %s", name, d.code, d.stderr)
		}
		p := run("", "patch", basePath, filepath.Join(dir, "delta."+name))
		if p.code != cli.ExitOK {
			t.Errorf("patch with a %s delta on the JSON diff was given: exit %d: %s", name, p.code, p.stderr)
			continue
		}
		c, _ := wire.Lookup(name)
		b, _ := c.AppendEncode(nil, next)
		held, err := c.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := wire.DecodeWith("json", []byte(p.stdout))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := wiretest.Diff(held, got, wire.Exact); diff != "" {
			t.Errorf("%s: patched (-next as %s carries it +got):\n%s", name, name, diff)
		}
	}
}
