package binary

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestEncodeErrorPaths: every refusal of the binary encoder names the
// offending element with wirecodec.Path and writes nothing.
func TestEncodeErrorPaths(t *testing.T) {
	const bad = "\xff"
	resp := func(change func(r *wire.GraphResponse)) *wire.GraphResponse {
		r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Aggregation,
			Nodes: []wire.Node{{Type: "User", ID: 1}}, Edges: []wire.Edge{}}
		change(r)
		return r
	}
	cellNode := func(props ...wire.Property) *wire.Node { return &wire.Node{Type: "T", ID: 1, Properties: props} }
	tests := []struct {
		name string
		r    *wire.GraphResponse
		want wirecodec.Path
	}{
		{"format version", resp(func(r *wire.GraphResponse) { r.FormatVersion = bad }), wirecodec.Path{}.Field("format_version")},
		{"node type", resp(func(r *wire.GraphResponse) { r.Nodes[0].Type = bad }), wirecodec.NodePath(0).Field("type")},
		{"string in a list", resp(func(r *wire.GraphResponse) {
			r.Nodes[0].Properties = []wire.Property{wire.Prop("tags", wire.ListOf(wire.String("a"), wire.ListOf(wire.Int(1), wire.String(bad))))}
		}), wirecodec.NodePath(0).Property(0, "tags").Index(1).Index(1)},
		{"edge to", resp(func(r *wire.GraphResponse) {
			r.Edges = []wire.Edge{{From: "A", To: "B", Type: "R"}, {From: "A", To: bad, Type: "R"}}
		}), wirecodec.EdgePath(1).Field("to")},
		{"column function", resp(func(r *wire.GraphResponse) {
			r.Columns = []wire.Column{{Name: "n", Function: bad}}
		}), wirecodec.ColumnPath(0).Field("function")},
		{"column property", resp(func(r *wire.GraphResponse) {
			r.Columns = []wire.Column{{Name: "n", Function: "count", Property: wire.Some(bad)}}
		}), wirecodec.ColumnPath(0).Field("property")},
		{"group column entity", resp(func(r *wire.GraphResponse) {
			r.GroupColumns = []wire.GroupColumn{{Name: "g", Kind: wire.GroupKind("property"), Node: "n", Entity: wire.Some(bad)}}
		}), wirecodec.GroupColumnPath(0).Field("entity")},
		{"cell value", resp(func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "a", Value: wire.Int(1)}}, {{Name: "a", Value: wire.Int(1)}, {Name: "b c", Value: wire.String(bad)}}}
		}), wirecodec.RowPath(1).Key(1, "b c")},
		{"cell name", resp(func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: bad, Value: wire.Int(1)}}}
		}), wirecodec.RowPath(0).Key(0, bad)},
		{"cell node type", resp(func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "g", Node: &wire.Node{Type: bad}}}}
		}), wirecodec.RowPath(0).Key(0, "g").Field("type")},
		{"cell node property", resp(func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "g", Node: cellNode(wire.Prop("a", wire.Int(1)), wire.Prop("k", wire.String(bad)))}}}
		}), wirecodec.RowPath(0).Key(0, "g").Property(1, "k")},
		{"cell node key", resp(func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "g", Node: cellNode(wire.Prop(bad, wire.Int(1)))}}}
		}), wirecodec.RowPath(0).Key(0, "g").Property(0, bad)},
	}
	for _, f := range formats {
		for _, tc := range tests {
			out, err := Default(f).AppendEncode([]byte("x"), tc.r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Path != tc.want.String() {
				t.Errorf("%s %s: error %v, want an *EncodeError at %q", f, tc.name, err, tc.want)
			}
			if string(out) != "x" {
				t.Errorf("%s %s: wrote % x", f, tc.name, out)
			}
		}
	}
}
