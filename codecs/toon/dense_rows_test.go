package toon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
)

// denseTable returns an aggregation whose rows table is n rows of an int
// and a node cell with a property.
func denseTable(n int) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Columns:      []wire.Column{{Name: "a", Function: "count"}},
		GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "T"}},
		Pagination:   &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](int64(n))}}
	for i := range n {
		node := &wire.Node{Type: "T", ID: int64(i), Properties: []wire.Property{wire.Prop("k", wire.String("v"))}}
		r.Rows = append(r.Rows, wire.Row{{Name: "u", Node: node}, {Name: "a", Value: wire.Int(int64(i % 10))}})
	}
	return r
}

// TestRowsTableRefusedAsGeneric: a rows table the meter refuses is
// refused by Decode, which reads it without the generic TOON value, at
// the row that passes the limit, as the generic tables refuse it.
func TestRowsTableRefusedAsGeneric(t *testing.T) {
	lim := wire.DefaultLimits()
	lim.MaxMaterializedBytes = 4000
	c, err := toon.New(toon.Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	data, err := toon.Encode(denseTable(200))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "rows[200]{u{type,id,k},a}:") {
		t.Fatalf("not a rows table:\n%.300s", text)
	}
	// The first error in the text of the last row: a cell too many.
	lastRow := strings.LastIndex(text, "\n  T,199,v,9")
	broken := text[:lastRow] + "\n  T,199,v,9,1" + text[lastRow+len("\n  T,199,v,9"):]
	// The rows before the columns.
	cols := strings.Index(text, "columns[")
	rows := strings.Index(text, "rows[")
	pag := strings.Index(text, "pagination:")
	reordered := text[:cols] + text[rows:pag] + text[cols:rows] + text[pag:]
	for name, in := range map[string]string{"encoded": text, "a bad row after the refusal": broken, "rows first": reordered} {
		_, err := c.Decode([]byte(in))
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Line < 1 {
			t.Errorf("%s: %v is not a positioned *wire.DecodeError", name, err)
			continue
		}
		if name != "rows first" && (de.Limit != "MaxMaterializedBytes" || !strings.HasPrefix(de.Msg, "rows[")) {
			t.Errorf("%s: %v, want a refusal at a row naming MaxMaterializedBytes", name, err)
		}
		sameAsGeneric(t, c, []byte(in))
	}
	// Within the limit, the table sink reads the table.
	small, err := toon.Encode(denseTable(20))
	if err != nil {
		t.Fatal(err)
	}
	sameAsGeneric(t, c, small)
	if !allTablesRead(t, c, small) {
		t.Errorf("a rows table of node cells was read as a generic value:\n%.300s", small)
	}
}
