package wire_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func baseResponse() *wire.GraphResponse {
	return &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Aggregation,
		Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{
			wire.Prop("username", wire.String("ghost")),
			wire.Prop("score", wire.Float(1)),
		}}},
		Edges:        []wire.Edge{{From: "User", FromID: 1, To: "Project", ToID: 2, Type: "MEMBER_OF", Depth: wire.Some[int64](1)}},
		Columns:      []wire.Column{{Name: "n", Function: "count", Target: wire.Some("u")}},
		GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")}},
		Rows: []wire.Row{{
			{Name: "u", Node: &wire.Node{Type: "User", ID: 1, Properties: []wire.Property{}}},
			{Name: "n", Value: wire.Int(3)},
		}},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](10)},
	}
}

func TestEquality(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nan1 := math.NaN()
	nan2 := math.Float64frombits(math.Float64bits(nan1) ^ 1) // another NaN payload
	if !math.IsNaN(nan2) {
		t.Fatal("test setup: nan2 is not a NaN")
	}
	tests := []struct {
		name     string
		change   func(r *wire.GraphResponse)
		exact    bool // still equal to baseResponse under Exact
		numbers  bool // ... under NumbersByValue
		whyExact string
	}{
		{"unchanged", func(r *wire.GraphResponse) {}, true, true, ""},
		{"nodes removed", func(r *wire.GraphResponse) { r.Nodes = nil }, false, false, ""},
		{"int vs float property", func(r *wire.GraphResponse) { r.Nodes[0].Properties[1].Value = wire.Int(1) }, false, true,
			"int 1 and float 1.0 are different values"},
		{"int vs float cell", func(r *wire.GraphResponse) { r.Rows[0][1].Value = wire.Float(3) }, false, true, ""},
		{"float 3.5 vs int 3", func(r *wire.GraphResponse) { r.Rows[0][1].Value = wire.Float(3.5) }, false, false, ""},
		{"string vs int", func(r *wire.GraphResponse) { r.Rows[0][1].Value = wire.String("3") }, false, false, ""},
		{"null vs string null", func(r *wire.GraphResponse) { r.Nodes[0].Properties[0].Value = wire.String("null") }, false, false, ""},
		{"empty list property vs null", func(r *wire.GraphResponse) { r.Nodes[0].Properties[0].Value = wire.ListOf() }, false, false, ""},
		{"property order", func(r *wire.GraphResponse) {
			p := r.Nodes[0].Properties
			p[0], p[1] = p[1], p[0]
		}, false, false, "property order is stored order"},
		{"nil vs empty properties of a cell node", func(r *wire.GraphResponse) { r.Rows[0][0].Node.Properties = nil }, true, true,
			"the wire cannot tell a nil from an empty property list"},
		{"nil columns vs empty", func(r *wire.GraphResponse) { r.Columns = nil }, false, false, ""},
		{"absent group columns vs present empty", func(r *wire.GraphResponse) { r.GroupColumns = nil }, false, false, ""},
		{"absent rows vs present empty", func(r *wire.GraphResponse) { r.Rows = nil }, false, false, ""},
		{"absent pagination vs zero", func(r *wire.GraphResponse) { r.Pagination = nil }, false, false, ""},
		{"absent depth vs zero", func(r *wire.GraphResponse) { r.Edges[0].Depth = wire.Opt[int64]{} }, false, false, ""},
		{"present depth 0 vs absent", func(r *wire.GraphResponse) { r.Edges[0].Depth = wire.Some[int64](0) }, false, false, ""},
		{"absent target vs empty", func(r *wire.GraphResponse) { r.Columns[0].Target = wire.Some("") }, false, false, ""},
		{"cell node vs value", func(r *wire.GraphResponse) { r.Rows[0][0].Node = nil }, false, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := baseResponse()
			got := baseResponse()
			tc.change(got)
			for _, e := range []struct {
				eq   wire.Fidelity
				want bool
			}{{wire.Exact, tc.exact}, {wire.NumbersByValue, tc.numbers}} {
				if g := wire.Equal(want, got, e.eq); g != e.want {
					t.Errorf("Equal(_, _, %v) = %v, want %v %s", e.eq, g, e.want, tc.whyExact)
				}
				diff := wiretest.Diff(want, got, e.eq)
				if (diff == "") != e.want {
					t.Errorf("Diff(_, _, %v) = %q, disagrees with Equal = %v", e.eq, diff, e.want)
				}
				if g := cmp.Equal(want, got, wiretest.CmpOptions(e.eq)); g != e.want {
					t.Errorf("cmp.Equal with CmpOptions(%v) = %v, want %v", e.eq, g, e.want)
				}
			}
		})
	}

	// The nil-versus-empty rule for lists the wire always carries.
	a := &wire.GraphResponse{QueryType: wire.Traversal}
	b := &wire.GraphResponse{QueryType: wire.Traversal, Nodes: []wire.Node{}, Edges: []wire.Edge{}}
	if !wire.Equal(a, b, wire.Exact) {
		t.Errorf("nil and empty Nodes/Edges differ under Exact: %s", wiretest.Diff(a, b, wire.Exact))
	}
	// A nil Row and an empty one are the same row.
	a = &wire.GraphResponse{Rows: []wire.Row{nil}}
	b = &wire.GraphResponse{Rows: []wire.Row{{}}}
	if !wire.Equal(a, b, wire.Exact) {
		t.Errorf("nil and empty Row differ: %s", wiretest.Diff(a, b, wire.Exact))
	}
	// But the number of rows counts.
	b = &wire.GraphResponse{Rows: []wire.Row{}}
	if wire.Equal(a, b, wire.Exact) {
		t.Errorf("one empty row equals no rows")
	}

	floats := []struct {
		name           string
		a, b           wire.Value
		exact, numbers bool
	}{
		{"-0.0 vs 0.0", wire.Float(negZero), wire.Float(0), false, true},
		{"-0.0 vs int 0", wire.Float(negZero), wire.Int(0), false, true},
		{"NaN vs same NaN", wire.Float(nan1), wire.Float(nan1), true, true},
		{"NaN vs other NaN", wire.Float(nan1), wire.Float(nan2), false, true},
		{"NaN vs 0", wire.Float(nan1), wire.Float(0), false, false},
		{"+Inf vs +Inf", wire.Float(math.Inf(1)), wire.Float(math.Inf(1)), true, true},
		{"+Inf vs -Inf", wire.Float(math.Inf(1)), wire.Float(math.Inf(-1)), false, false},
		{"2^53+1 int vs 2^53 float", wire.Int(1<<53 + 1), wire.Float(1 << 53), false, false},
		{"list [1] vs [1.0]", wire.ListOf(wire.Int(1)), wire.ListOf(wire.Float(1)), false, true},
		{"list [1] vs [1, 2]", wire.ListOf(wire.Int(1)), wire.ListOf(wire.Int(1), wire.Int(2)), false, false},
	}
	for _, tc := range floats {
		t.Run(tc.name, func(t *testing.T) {
			ra := &wire.GraphResponse{Nodes: []wire.Node{{Type: "T", Properties: []wire.Property{wire.Prop("x", tc.a)}}}}
			rb := &wire.GraphResponse{Nodes: []wire.Node{{Type: "T", Properties: []wire.Property{wire.Prop("x", tc.b)}}}}
			if got := wire.Equal(ra, rb, wire.Exact); got != tc.exact {
				t.Errorf("Exact: %v, want %v", got, tc.exact)
			}
			if got := wire.Equal(ra, rb, wire.NumbersByValue); got != tc.numbers {
				t.Errorf("NumbersByValue: %v, want %v", got, tc.numbers)
			}
			if got := wire.Equal(rb, ra, wire.NumbersByValue); got != tc.numbers {
				t.Errorf("NumbersByValue, reversed: %v, want %v", got, tc.numbers)
			}
		})
	}
}

func TestDiffNamesTheDifference(t *testing.T) {
	want := baseResponse()
	got := baseResponse()
	got.Nodes[0].Properties[0].Value = wire.String("someone else")
	diff := wiretest.Diff(want, got, wire.Exact)
	for _, s := range []string{"ghost", "someone else"} {
		if !strings.Contains(diff, s) {
			t.Errorf("Diff does not mention %q:\n%s", s, diff)
		}
	}
}
