package goon

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
)

// sortEdges orders edges (in path_finding, those with a path_id) as cmpEdges, the order written out field by
// field, and drops exactly the edges cmpEdges calls equal: on edges drawn
// from few names and ids (so that ties and repeats are common), and with
// more distinct names than the linear lookup holds.
func TestSortEdges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"A", "B", "AB", "a", "_", "Z9"}
		if rapid.Bool().Draw(t, "many names") {
			for i := range 2 * maxLinearNames {
				names = append(names, "N"+strings.Repeat("x", i))
			}
		}
		name := rapid.SampledFrom(names)
		opt := func(label string) wire.OptInt {
			if rapid.Bool().Draw(t, label+" present") {
				return wire.SomeInt(rapid.Int64Range(-2, 2).Draw(t, label))
			}
			return wire.OptInt{}
		}
		n := rapid.IntRange(0, 40).Draw(t, "edges")
		edges := make([]wire.Edge, n)
		for i := range edges {
			edges[i] = wire.Edge{Type: name.Draw(t, "type"), From: name.Draw(t, "from"), To: name.Draw(t, "to"),
				FromID: rapid.Int64Range(0, 2).Draw(t, "from_id"), ToID: rapid.Int64Range(0, 2).Draw(t, "to_id"),
				Depth: opt("depth"), PathID: opt("path_id"), Step: opt("step")}
		}
		r := &wire.GraphResponse{QueryType: wire.Traversal, Edges: edges}
		if rapid.Bool().Draw(t, "path_finding") {
			r.QueryType = wire.PathFinding
		}
		var want []*wire.Edge
		for i := range edges {
			if r.QueryType != wire.PathFinding || edges[i].PathID.Valid {
				want = append(want, &edges[i])
			}
		}
		slices.SortFunc(want, cmpEdges)
		want = slices.CompactFunc(want, func(a, b *wire.Edge) bool { return cmpEdges(a, b) == 0 })
		e := &encoder{}
		e.sortEdges(r)
		if len(e.edges) != len(want) {
			t.Fatalf("%d edges, want %d", len(e.edges), len(want))
		}
		for i := range want {
			if cmpEdges(e.edges[i], want[i]) != 0 {
				t.Fatalf("edge %d: %+v, want %+v", i, *e.edges[i], *want[i])
			}
		}
	})
}

// cmpEdges is the total edge order of GOON: (path_id, step, type, from,
// from_id, to, to_id, depth), absent path_id and step after present ones,
// absent depth before present.
func cmpEdges(a, b *wire.Edge) int {
	if c := cmpAbsentLast(a.PathID, b.PathID); c != 0 {
		return c
	}
	if c := cmpAbsentLast(a.Step, b.Step); c != 0 {
		return c
	}
	if c := strings.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := strings.Compare(a.From, b.From); c != 0 {
		return c
	}
	if c := cmp.Compare(a.FromID, b.FromID); c != 0 {
		return c
	}
	if c := strings.Compare(a.To, b.To); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ToID, b.ToID); c != 0 {
		return c
	}
	switch {
	case a.Depth.Valid != b.Depth.Valid:
		if a.Depth.Valid {
			return 1
		}
		return -1
	case a.Depth.Valid:
		return cmp.Compare(a.Depth.Int, b.Depth.Int)
	}
	return 0
}

func cmpAbsentLast(a, b wire.OptInt) int {
	switch {
	case a.Valid && b.Valid:
		return cmp.Compare(a.Int, b.Int)
	case a.Valid:
		return -1
	case b.Valid:
		return 1
	}
	return 0
}
