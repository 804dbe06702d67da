package wiretest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
)

// TestDiffAgreesWithCmp: Diff's quick answer for equal responses is
// go-cmp's under CmpOptions, on generated pairs (independent, a response
// and its copy, and a copy with one part changed) in every fidelity, and
// on a node cell whose Value alone differs, which wire.Equal does not see.
func TestDiffAgreesWithCmp(t *testing.T) {
	fidelities := []wire.Fidelity{wire.Exact, wire.NumbersByValue, wire.Lossy}
	check := func(t rapid.TB, a, b *wire.GraphResponse) (equal int) {
		for _, f := range fidelities {
			want := cmp.Diff(a, b, CmpOptions(f)) == ""
			if got := Diff(a, b, f) == ""; got != want {
				t.Fatalf("under %v: Diff says equal %v, go-cmp %v\na:\n%s\nb:\n%s", f, got, want, Describe(a), Describe(b))
			}
			if want {
				equal++
			}
		}
		return equal
	}
	var equal, differ int
	rapid.Check(t, func(rt *rapid.T) {
		a := Response().Draw(rt, "a")
		b := Clone(a)
		switch rapid.IntRange(0, 4).Draw(rt, "change") {
		case 1:
			b = Response().Draw(rt, "b")
		case 2:
			if len(b.Nodes) > 0 {
				b.Nodes[0].ID++
			}
		case 3:
			if len(b.Nodes) > 0 && len(b.Nodes[0].Properties) > 0 {
				b.Nodes[0].Properties[0].Value = wire.String("changed")
			}
		case 4:
			if len(b.Edges) > 0 {
				b.Edges[0].Depth = wire.Some[int64](b.Edges[0].Depth.V + 1)
			}
		}
		n := check(rt, a, b)
		equal += n
		differ += len(fidelities) - n
	})
	if equal == 0 || differ == 0 {
		t.Errorf("%d equal and %d differing comparisons: want both", equal, differ)
	}

	node := &wire.Node{Type: "User", ID: 1}
	cell := func(v wire.Value) *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
			Columns: []wire.Column{{Name: "u"}}, Rows: []wire.Row{{{Name: "u", Node: node, Value: v}}}}
	}
	a, b := cell(wire.Value{}), cell(wire.Int(2))
	if !wire.Equal(a, b, wire.Exact) {
		t.Fatal("wire.Equal compares a node cell's Value; the quick path's extra check is not needed")
	}
	if check(t, a, b) != 0 {
		t.Error("node cells whose Values differ compare equal")
	}
}
