package toon_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// encodeBoth returns r's text with the rows table written straight from
// the response and through the generic document, and their errors.
func encodeBoth(r *wire.GraphResponse) (fast, generic string, fastErr, genericErr error) {
	f, fastErr := toon.Encode(r)
	toon.GenericRows(true)
	defer toon.GenericRows(false)
	g, genericErr := toon.Encode(r)
	return string(f), string(g), fastErr, genericErr
}

// TestRowsTableIsTheGenericText: the rows section written straight from
// the response is, byte for byte, the generic document's text, and a
// refusal the same refusal, on every corpus case and on generated
// aggregations: cells of every kind, node cells whose keys agree or not,
// rows of the same cells or not.
func TestRowsTableIsTheGenericText(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, r *wire.GraphResponse) {
		fast, generic, fe, ge := encodeBoth(r)
		if d := cmp.Diff(errText(ge), errText(fe)); d != "" {
			t.Fatalf("errors differ (-generic +table):\n%s", d)
		}
		if d := cmp.Diff(generic, fast); d != "" {
			t.Fatalf("texts differ (-generic +table):\n%s", d)
		}
	}
	for _, c := range corpus.Generate() {
		check(t, c.Response)
	}
	node := func(props ...wire.Property) *wire.Node { return &wire.Node{Type: "User", ID: 7, Properties: props} }
	for _, rows := range [][]wire.Row{
		{{{Name: "a", Value: wire.Int(1)}, {Name: "a", Value: wire.Int(2)}}},                              // a cell name twice
		{{{Name: "u", Node: node(wire.Prop("type", wire.String("x")))}, {Name: "n", Value: wire.Int(1)}}}, // a reserved key
		{{{Name: "u", Node: node(wire.Prop("k", wire.Int(1)), wire.Prop("k", wire.Int(2)))}}},             // a key twice
		{{{Name: "u", Node: node(wire.Prop("k", wire.String("a, b")))}, {Name: "f", Value: wire.Float(0.5)}}},
		{{{Name: "a", Value: wire.ListOf(wire.Int(1), wire.Null())}}, {}},                                    // an empty row among list items
		{{{Name: "u", Node: node(wire.Prop("k", wire.ListOf(wire.ListOf(wire.Int(1)))))}}},                   // a list of lists in a node
		{{{Name: "a", Value: wire.Int(1)}, {Name: "b", Value: wire.ListOf(wire.ListOf(), wire.Bool(true))}}}, // and in a cell
		{{{Name: "a", Value: wire.Float(math.NaN())}, {Name: "b", Value: wire.ListOf()}}},                    // a NaN beside a list
		{{{Name: "b", Value: wire.ListOf(wire.String("x"))}, {Name: "a", Value: wire.Int(1)}}},               // a list first
	} {
		check(t, &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation, Nodes: []wire.Node{}, Edges: []wire.Edge{},
			Columns: []wire.Column{}, GroupColumns: []wire.GroupColumn{}, Rows: append(rows, rows[0])})
	}
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}).Draw(t, "r")
		if len(r.Rows) > 1 && rapid.Bool().Draw(t, "same cells") {
			// Every row with the first row's cells, to reach the table.
			for i := range r.Rows {
				r.Rows[i] = r.Rows[0]
			}
		}
		breakage := rapid.IntRange(0, 3).Draw(t, "breakage")
		every := rapid.Bool().Draw(t, "every row")
		for i := range r.Rows {
			if len(r.Rows[i]) < 2 || !every && i != len(r.Rows)-1 {
				continue
			}
			row := append(wire.Row(nil), r.Rows[i]...)
			switch breakage {
			case 1: // a row a cell short
				row = row[1:]
			case 2: // a cell name twice
				row[1].Name = row[0].Name
			case 3: // a node cell's property named "type"
				for j := range row {
					if nd := row[j].Node; nd != nil && len(nd.Properties) > 0 {
						c := *nd
						c.Properties = append([]wire.Property(nil), nd.Properties...)
						c.Properties[0].Key = "type"
						row[j].Node = &c
						break
					}
				}
			}
			r.Rows[i] = row
		}
		check(t, r)
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
