package goon_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
)

// Short builders for hand-written responses.

var (
	S = wire.String
	I = wire.Int
	F = wire.Float
	B = wire.Bool
	N = wire.Null
	L = wire.ListOf
	P = wire.Prop
)

func node(typ string, id int64, props ...wire.Property) wire.Node {
	return wire.Node{Type: typ, ID: id, Properties: props}
}

func edge(typ, from string, fromID int64, to string, toID int64) wire.Edge {
	return wire.Edge{Type: typ, From: from, FromID: fromID, To: to, ToID: toID}
}

func withDepth(e wire.Edge, d int64) wire.Edge {
	e.Depth = wire.Some[int64](d)
	return e
}

func onPath(e wire.Edge, path, step int64) wire.Edge {
	e.PathID, e.Step = wire.Some[int64](path), wire.Some[int64](step)
	return e
}

func resp(qt wire.QueryType, nodes []wire.Node, edges ...wire.Edge) *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: qt, Nodes: nodes, Edges: edges}
}

func nodes(ns ...wire.Node) []wire.Node { return ns }

func cell(name string, v wire.Value) wire.Cell { return wire.Cell{Name: name, Value: v} }

func ref(name string, n wire.Node) wire.Cell {
	if n.Properties == nil {
		n.Properties = []wire.Property{}
	}
	return wire.Cell{Name: name, Node: &n}
}

func row(cells ...wire.Cell) wire.Row { return cells }

func count(name string) wire.Column { return wire.Column{Name: name, Function: "count"} }

func propGroup(name, property string) wire.GroupColumn {
	g := wire.GroupColumn{Name: name, Kind: wire.GroupByProperty, Node: "v"}
	if property != "" {
		g.Property = wire.Some(property)
	}
	return g
}

func nodeGroup(name, entity string) wire.GroupColumn {
	g := wire.GroupColumn{Name: name, Kind: wire.GroupByNode, Node: name}
	if entity != "" {
		g.Entity = wire.Some(entity)
	}
	return g
}

func agg(groups []wire.GroupColumn, cols []wire.Column, rows ...wire.Row) *wire.GraphResponse {
	r := resp(wire.Aggregation, nil)
	r.GroupColumns, r.Columns, r.Rows = groups, cols, rows
	if r.Rows == nil {
		r.Rows = []wire.Row{}
	}
	return r
}

// doc joins lines into GOON text, each line ending in \n.
func doc(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// head returns the first header lines of a response.
func head(qt string, nodes, edges string) []string {
	return []string{"@header", "query_type:" + qt, "goon_version:1.0.0", "nodes:" + nodes, "edges:" + edges}
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func lines(l ...string) []string { return l }

// fixedPoint decodes text with c and checks that it encodes back to the
// same bytes; it returns the decoded response.
func fixedPoint(t testing.TB, c *goon.Codec, text []byte) *wire.GraphResponse {
	t.Helper()
	d, err := c.Decode(text)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, text)
	}
	again, err := c.AppendEncode(nil, d)
	if err != nil {
		t.Fatalf("a decoded response does not encode: %v\n%s", err, text)
	}
	if diff := cmp.Diff(string(text), string(again)); diff != "" {
		t.Fatalf("fixed point broken (-first +second):\n%s", diff)
	}
	return d
}

// encode is goon.Encode, failing t on error.
func encode(t testing.TB, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := goon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
