package wiretest

import (
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// Clone returns a deep copy of r that shares no memory with it: slices,
// node references, list values and string bytes are all copied. Nil and
// empty slices stay nil and empty. Clone(nil) is nil.
func Clone(r *wire.GraphResponse) *wire.GraphResponse {
	if r == nil {
		return nil
	}
	c := &wire.GraphResponse{
		FormatVersion: strings.Clone(r.FormatVersion),
		QueryType:     wire.QueryType(strings.Clone(string(r.QueryType))),
		Nodes:         cloneEach(r.Nodes, cloneNode),
		Edges: cloneEach(r.Edges, func(e wire.Edge) wire.Edge {
			e.From, e.To, e.Type = strings.Clone(e.From), strings.Clone(e.To), strings.Clone(e.Type)
			return e
		}),
		Columns: cloneEach(r.Columns, func(col wire.Column) wire.Column {
			col.Name, col.Function = strings.Clone(col.Name), strings.Clone(col.Function)
			col.Target.V, col.Property.V = strings.Clone(col.Target.V), strings.Clone(col.Property.V)
			return col
		}),
		GroupColumns: cloneEach(r.GroupColumns, func(g wire.GroupColumn) wire.GroupColumn {
			g.Name, g.Node, g.Kind = strings.Clone(g.Name), strings.Clone(g.Node), wire.GroupKind(strings.Clone(string(g.Kind)))
			g.Property.V, g.Entity.V = strings.Clone(g.Property.V), strings.Clone(g.Entity.V)
			return g
		}),
		Rows: cloneEach(r.Rows, func(row wire.Row) wire.Row {
			return cloneEach(row, func(cell wire.Cell) wire.Cell {
				cc := wire.Cell{Name: strings.Clone(cell.Name), Value: cloneValue(cell.Value)}
				if cell.Node != nil {
					n := cloneNode(*cell.Node)
					cc.Node = &n
				}
				return cc
			})
		}),
	}
	if r.Pagination != nil {
		p := *r.Pagination
		p.NextCursor.V = strings.Clone(p.NextCursor.V)
		c.Pagination = &p
	}
	return c
}

// cloneEach returns the copies of the elements of s, nil when s is nil.
func cloneEach[T any](s []T, clone func(T) T) []T {
	if s == nil {
		return nil
	}
	c := make([]T, len(s))
	for i, x := range s {
		c[i] = clone(x)
	}
	return c
}

func cloneNode(n wire.Node) wire.Node {
	return wire.Node{Type: strings.Clone(n.Type), ID: n.ID, Properties: cloneEach(n.Properties, func(p wire.Property) wire.Property {
		return wire.Property{Key: strings.Clone(p.Key), Value: cloneValue(p.Value)}
	})}
}

func cloneValue(v wire.Value) wire.Value {
	switch v.Kind() {
	case wire.KindString:
		return wire.String(strings.Clone(v.Text()))
	case wire.KindList:
		return wire.ListOf(cloneEach(v.List(), cloneValue)...)
	}
	return v
}
