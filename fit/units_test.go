package fit

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
)

func node(typ string, id int64) wire.Node { return wire.Node{Type: typ, ID: id} }

func edge(from string, fromID int64, to string, toID int64) wire.Edge {
	return wire.Edge{From: from, FromID: fromID, To: to, ToID: toID, Type: "R"}
}

func pathEdge(e wire.Edge, path, step int64) wire.Edge {
	e.PathID, e.Step = wire.Some[int64](path), wire.Some[int64](step)
	return e
}

func TestUnits(t *testing.T) {
	ref := func(typ string, id int64) *wire.Node { n := node(typ, id); return &n }
	for _, tt := range []struct {
		name               string
		r                  *wire.GraphResponse
		units              int
		nodes, edges, rows []int32
	}{{
		name: "traversal: an edge joins the unit of its later endpoint",
		r: &wire.GraphResponse{QueryType: wire.Traversal,
			Nodes: []wire.Node{node("U", 1), node("U", 2), node("M", 3)},
			Edges: []wire.Edge{edge("U", 1, "M", 3), edge("U", 2, "U", 1), edge("M", 3, "M", 3)}},
		units: 3, nodes: []int32{0, 1, 2}, edges: []int32{2, 1, 2}, rows: []int32{},
	}, {
		name: "traversal: a missing endpoint is no constraint; a node listed twice is two units",
		r: &wire.GraphResponse{QueryType: wire.Neighbors,
			Nodes: []wire.Node{node("U", 1), node("U", 2), node("U", 1)},
			Edges: []wire.Edge{edge("X", 9, "X", 8), edge("U", 2, "X", 9), edge("U", 1, "U", 1)}},
		units: 3, nodes: []int32{0, 1, 2}, edges: []int32{0, 1, 0}, rows: []int32{},
	}, {
		name:  "edges only: one unit",
		r:     &wire.GraphResponse{QueryType: wire.Search, Edges: []wire.Edge{edge("X", 9, "X", 8)}},
		units: 1, nodes: []int32{}, edges: []int32{0}, rows: []int32{},
	}, {
		name:  "empty: no unit",
		r:     &wire.GraphResponse{QueryType: wire.Traversal},
		units: 0, nodes: []int32{}, edges: []int32{}, rows: []int32{},
	}, {
		name: "path_finding: whole paths in path_id order, then free edges, then lone nodes",
		r: &wire.GraphResponse{QueryType: wire.PathFinding,
			Nodes: []wire.Node{node("U", 1), node("M", 2), node("P", 3), node("G", 4), node("Z", 5), node("M", 2)},
			Edges: []wire.Edge{
				pathEdge(edge("U", 1, "M", 2), 7, 0),
				pathEdge(edge("U", 1, "G", 4), 2, 0),
				edge("P", 3, "G", 4),
				pathEdge(edge("M", 2, "P", 3), 7, 1),
			}},
		// path 2 (unit 0) brings U1 and G4; path 7 (unit 1) M2 (both
		// entries) and P3; the free edge is unit 2; Z5 is unit 3.
		units: 4, nodes: []int32{0, 1, 1, 0, 3, 1}, edges: []int32{1, 0, 2, 1}, rows: []int32{},
	}, {
		name: "aggregation: rows in order with the nodes their cells name, then the other nodes",
		r: &wire.GraphResponse{QueryType: wire.Aggregation,
			Nodes:        []wire.Node{node("U", 1), node("U", 2), node("U", 3)},
			Edges:        []wire.Edge{edge("U", 3, "U", 2)},
			GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u"}},
			Columns:      []wire.Column{{Name: "c", Function: "count"}},
			Rows: []wire.Row{
				{{Name: "u", Node: ref("U", 2)}, {Name: "c", Value: wire.Int(5)}},
				{{Name: "u", Node: ref("U", 9)}, {Name: "c", Value: wire.Int(4)}},
			}},
		units: 4, nodes: []int32{2, 0, 3}, edges: []int32{3}, rows: []int32{0, 1},
	}} {
		p := newPlan(tt.r)
		got := struct {
			Units              int
			Nodes, Edges, Rows []int32
		}{p.units, p.nodeUnit, p.edgeUnit, p.rowUnit}
		want := struct {
			Units              int
			Nodes, Edges, Rows []int32
		}{tt.units, tt.nodes, tt.edges, tt.rows}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		// The units of every page, in order, give back the whole.
		var nodes []wire.Node
		for u := range p.units {
			nodes = append(nodes, p.page(u, u+1, nil).Nodes...)
		}
		if len(nodes) != len(tt.r.Nodes) {
			t.Errorf("%s: units hold %d nodes, the response %d", tt.name, len(nodes), len(tt.r.Nodes))
		}
	}
}

func TestCursor(t *testing.T) {
	r := &wire.GraphResponse{QueryType: wire.Traversal, Nodes: []wire.Node{node("U", 1), node("U", 2), node("U", 3)}}
	fp := fingerprintOf(r)
	c := encodeCursor(2, fp)
	if strings.Trim(c, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		t.Errorf("cursor %q has characters a line format would quote", c)
	}
	if got, err := decodeCursor(c, fp, 3); err != nil || got != 2 {
		t.Fatalf("decodeCursor = %d, %v; want 2", got, err)
	}
	other := *r
	other.Nodes = []wire.Node{node("U", 1), node("U", 2), node("U", 4)}
	for _, tt := range []struct {
		name, cursor string
		fp           fingerprint
		units        int
		msg          string
		mismatch     bool
	}{
		{"other response", c, fingerprintOf(&other), 3, "different response", true},
		{"not base64", "!!!", fp, 3, "not a cursor", false},
		{"wrong length", encodeCursor(2, fp)[:10], fp, 3, "not a cursor", false},
		{"too long", strings.Repeat("A", 100), fp, 3, "too long", false},
		{"past the end", encodeCursor(3, fp), fp, 3, "outside", false},
		{"the start", encodeCursor(0, fp), fp, 3, "outside", false},
	} {
		_, err := decodeCursor(tt.cursor, tt.fp, tt.units)
		var ce *CursorError
		if !errors.As(err, &ce) || ce.Mismatch != tt.mismatch || !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "fit: cursor ") {
			t.Errorf("%s: error %v, want a CursorError saying %q (mismatch %v)", tt.name, err, tt.msg, tt.mismatch)
		}
		if len(err.Error()) > 120 {
			t.Errorf("%s: error quotes too much: %q", tt.name, err)
		}
	}
	// The fingerprint sees every field: kinds, float bits, presence.
	a := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "U", ID: 1, Properties: []wire.Property{wire.Prop("x", wire.Int(1))}}}}
	b := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "U", ID: 1, Properties: []wire.Property{wire.Prop("x", wire.Float(1))}}}}
	c2 := &wire.GraphResponse{QueryType: wire.Search, Nodes: a.Nodes, Rows: []wire.Row{}}
	if fingerprintOf(a) == fingerprintOf(b) || fingerprintOf(a) == fingerprintOf(c2) {
		t.Error("fingerprints of different responses are equal")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
