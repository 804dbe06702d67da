package wiretest

import (
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// Clone returns a deep copy of r that shares no memory with it: slices,
// node references, list values and string bytes are all copied. Nil and
// empty slices stay nil and empty. Clone(nil) is nil.
//
// The harness encodes a clone beside the original to prove that an encoder
// depends only on a response's contents, and compares the original with a
// clone taken before encoding to prove that encoding does not modify it.
func Clone(r *wire.GraphResponse) *wire.GraphResponse {
	if r == nil {
		return nil
	}
	c := &wire.GraphResponse{
		FormatVersion: strings.Clone(r.FormatVersion),
		QueryType:     wire.QueryType(strings.Clone(string(r.QueryType))),
	}
	if r.Nodes != nil {
		c.Nodes = make([]wire.Node, len(r.Nodes))
		for i := range r.Nodes {
			c.Nodes[i] = cloneNode(r.Nodes[i])
		}
	}
	if r.Edges != nil {
		c.Edges = make([]wire.Edge, len(r.Edges))
		for i, e := range r.Edges {
			e.From, e.To, e.Type = strings.Clone(e.From), strings.Clone(e.To), strings.Clone(e.Type)
			c.Edges[i] = e
		}
	}
	if r.Columns != nil {
		c.Columns = make([]wire.Column, len(r.Columns))
		for i, col := range r.Columns {
			col.Name, col.Function = strings.Clone(col.Name), strings.Clone(col.Function)
			col.Target.V, col.Property.V = strings.Clone(col.Target.V), strings.Clone(col.Property.V)
			c.Columns[i] = col
		}
	}
	if r.GroupColumns != nil {
		c.GroupColumns = make([]wire.GroupColumn, len(r.GroupColumns))
		for i, g := range r.GroupColumns {
			g.Name, g.Node = strings.Clone(g.Name), strings.Clone(g.Node)
			g.Kind = wire.GroupKind(strings.Clone(string(g.Kind)))
			g.Property.V, g.Entity.V = strings.Clone(g.Property.V), strings.Clone(g.Entity.V)
			c.GroupColumns[i] = g
		}
	}
	if r.Rows != nil {
		c.Rows = make([]wire.Row, len(r.Rows))
		for i, row := range r.Rows {
			if row == nil {
				continue
			}
			cr := make(wire.Row, len(row))
			for j, cell := range row {
				cc := wire.Cell{Name: strings.Clone(cell.Name), Value: cloneValue(cell.Value)}
				if cell.Node != nil {
					n := cloneNode(*cell.Node)
					cc.Node = &n
				}
				cr[j] = cc
			}
			c.Rows[i] = cr
		}
	}
	if r.Pagination != nil {
		p := *r.Pagination
		c.Pagination = &p
	}
	return c
}

func cloneNode(n wire.Node) wire.Node {
	c := wire.Node{Type: strings.Clone(n.Type), ID: n.ID}
	if n.Properties != nil {
		c.Properties = make([]wire.Property, len(n.Properties))
		for i, p := range n.Properties {
			c.Properties[i] = wire.Property{Key: strings.Clone(p.Key), Value: cloneValue(p.Value)}
		}
	}
	return c
}

// cloneValue returns a deep copy of v (list elements and string bytes
// copied).
func cloneValue(v wire.Value) wire.Value {
	switch v.Kind() {
	case wire.KindString:
		return wire.String(strings.Clone(v.Text()))
	case wire.KindList:
		l := v.List()
		c := make([]wire.Value, len(l))
		for i, e := range l {
			c[i] = cloneValue(e)
		}
		return wire.ListOf(c...)
	}
	return v
}
