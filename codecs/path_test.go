package codecs_test

import (
	"errors"
	"math"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Every codec that refuses a response names the place with the same Path,
// the one wirecodec.Path builds.
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
		want   wirecodec.Path
	}{
		{"reserved key", add(wire.Prop("type", wire.Int(1))), wirecodec.NodePath(1).Property(1, "type")},
		{"repeated key", add(wire.Prop("name", wire.Int(1))), wirecodec.NodePath(1).Property(1, "name")},
		{"NaN property", add(wire.Prop("score", wire.Float(math.NaN()))), wirecodec.NodePath(1).Property(1, "score")},
		{"Inf in a list", add(wire.Prop("score", wire.ListOf(wire.Int(1), wire.Float(math.Inf(1))))), wirecodec.NodePath(1).Property(1, "score").Index(1)},
		{"key not UTF-8", add(wire.Prop("\xff", wire.Int(1))), wirecodec.NodePath(1).Property(1, "\xff")},
		{"string not UTF-8", add(wire.Prop("s", wire.String("\xff"))), wirecodec.NodePath(1).Property(1, "s")},
		{"query type", func(r *wire.GraphResponse) { r.QueryType = "x" }, wirecodec.Path{}.Field("query_type")},
		{"bad group kind", func(r *wire.GraphResponse) {
			r.QueryType = wire.Aggregation
			r.GroupColumns = []wire.GroupColumn{{Name: "g", Kind: "edge", Node: "n"}}
		}, wirecodec.GroupColumnPath(0).Field("kind")},
		{"NaN cell", aggregation(wire.Row{{Name: "a", Value: wire.Int(1)}, {Name: "avg", Value: wire.Float(math.NaN())}}), wirecodec.RowPath(0).Key(1, "avg")},
		{"cell node reserved key", aggregation(wire.Row{{Name: "g", Node: &wire.Node{Type: "T", ID: 1, Properties: []wire.Property{
			wire.Prop("x", wire.Int(1)), wire.Prop("id", wire.Int(1)),
		}}}}), wirecodec.RowPath(0).Key(0, "g").Property(1, "id")},
		{"node type not a name", func(r *wire.GraphResponse) { r.Nodes[1].Type = "Merge Request" }, wirecodec.NodePath(1).Field("type")},
		{"edge type not a name", func(r *wire.GraphResponse) {
			r.Edges = []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 2, Type: "A B"}}
		}, wirecodec.EdgePath(0).Field("type")},
	}
	refused := 0
	for _, tc := range tests {
		for _, info := range wire.List() {
			r := base()
			tc.change(r)
			_, err := wire.EncodeWith(info.Name, r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				continue // this codec writes it; which codecs refuse what is not this test's concern
			}
			refused++
			if ee.Path != tc.want.String() {
				t.Errorf("%s/%s: Path %q, want %q (%v)", info.Name, tc.name, ee.Path, tc.want, err)
			}
		}
	}
	if refused == 0 {
		t.Fatal("no codec refused any of the responses")
	}
}
