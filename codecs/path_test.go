package codecs_test

import (
	"errors"
	"math"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// pathPending holds, for each codec whose encoder does not yet build its
// error paths with wire.Path, the path it reports today for a place of
// TestEncodeErrorPathsAgree. Each entry must still be what the codec
// reports: a codec moved to wire.Path fails the test until its entries
// are removed, and a codec drifting to a third form fails it at once.
var pathPending = map[string]string{
	"toon/NaN property":        "nodes[1].score",
	"toon/Inf in a list":       "nodes[1].score",
	"cbor/key not UTF-8":       "nodes[1].properties[1].key",
	"msgpack/key not UTF-8":    "nodes[1].properties[1].key",
	"cbor/string not UTF-8":    `nodes[1].properties[1] ("s")`,
	"msgpack/string not UTF-8": `nodes[1].properties[1] ("s")`,
}

// Every codec that refuses a response names the place with the same Path,
// the one wire.Path builds; the codecs still on their own syntax are listed
// in pathPending with what they report.
func TestEncodeErrorPathsAgree(t *testing.T) {
	base := func() *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Traversal, Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("name", wire.String("a"))}},
			{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("name", wire.String("b"))}},
		}, Edges: []wire.Edge{}}
	}
	add := func(p wire.Property) func(r *wire.GraphResponse) {
		return func(r *wire.GraphResponse) { r.Nodes[1].Properties = append(r.Nodes[1].Properties, p) }
	}
	aggregation := func(rows ...wire.Row) func(r *wire.GraphResponse) {
		return func(r *wire.GraphResponse) { r.QueryType = wire.Aggregation; r.Rows = rows }
	}
	tests := []struct {
		name   string
		change func(r *wire.GraphResponse)
		want   wire.Path
	}{
		{"reserved key", add(wire.Prop("type", wire.Int(1))), wire.NodePath(1).Property(1, "type")},
		{"repeated key", add(wire.Prop("name", wire.Int(1))), wire.NodePath(1).Property(1, "name")},
		{"NaN property", add(wire.Prop("score", wire.Float(math.NaN()))), wire.NodePath(1).Property(1, "score")},
		{"Inf in a list", add(wire.Prop("score", wire.ListOf(wire.Int(1), wire.Float(math.Inf(1))))), wire.NodePath(1).Property(1, "score").Index(1)},
		{"key not UTF-8", add(wire.Prop("\xff", wire.Int(1))), wire.NodePath(1).Property(1, "\xff")},
		{"string not UTF-8", add(wire.Prop("s", wire.String("\xff"))), wire.NodePath(1).Property(1, "s")},
		{"query type", func(r *wire.GraphResponse) { r.QueryType = "x" }, wire.Path{}.Field("query_type")},
		{"bad group kind", func(r *wire.GraphResponse) {
			r.QueryType = wire.Aggregation
			r.GroupColumns = []wire.GroupColumn{{Name: "g", Kind: "edge", Node: "n"}}
		}, wire.GroupColumnPath(0).Field("kind")},
		{"NaN cell", aggregation(wire.Row{{Name: "a", Value: wire.Int(1)}, {Name: "avg", Value: wire.Float(math.NaN())}}), wire.RowPath(0).Key(1, "avg")},
		{"cell node reserved key", aggregation(wire.Row{{Name: "g", Node: &wire.Node{Type: "T", ID: 1, Properties: []wire.Property{
			wire.Prop("x", wire.Int(1)), wire.Prop("id", wire.Int(1)),
		}}}}), wire.RowPath(0).Key(0, "g").Property(1, "id")},
		{"node type not a name", func(r *wire.GraphResponse) { r.Nodes[1].Type = "Merge Request" }, wire.NodePath(1).Field("type")},
		{"edge type not a name", func(r *wire.GraphResponse) {
			r.Edges = []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 2, Type: "A B"}}
		}, wire.EdgePath(0).Field("type")},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		for _, info := range wire.List() {
			r := base()
			tc.change(r)
			_, err := wire.EncodeWith(info.Name, r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				continue // this codec writes it; which codecs refuse what is not this test's concern
			}
			key := info.Name + "/" + tc.name
			pending, isPending := pathPending[key]
			seen[key] = isPending
			switch {
			case ee.Path == tc.want.String() && isPending:
				t.Errorf("%s: reports %q, wire.Path's form: remove it from pathPending", key, ee.Path)
			case ee.Path == tc.want.String():
			case !isPending:
				t.Errorf("%s: Path %q, want %q (%v)", key, ee.Path, tc.want, err)
			case ee.Path != pending:
				t.Errorf("%s: Path %q, neither wire.Path's %q nor the pending %q", key, ee.Path, tc.want, pending)
			}
		}
	}
	for key := range pathPending {
		if _, ok := seen[key]; !ok {
			t.Errorf("pathPending[%q]: the codec no longer refuses it (or no case has that name): remove it", key)
		}
	}
}
