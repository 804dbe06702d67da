package delta

import (
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// Differs names the first part of b that differs from a ("nodes",
// "rows.added", ...), or gives "" when the two deltas are equal: the same
// fingerprints, header, operations and material under wire.Exact. A codec
// whose syntax is lossy reads its text back and compares with Differs
// before it sends a
func Differs(a, b *Delta) string {
	switch {
	case a.Base != b.Base || a.Result != b.Result:
		return "fingerprints"
	case a.FormatVersion != b.FormatVersion || a.QueryType != b.QueryType:
		return "format_version"
	case a.Set != b.Set:
		return "set"
	case !slices.Equal(a.Nodes.Removed, b.Nodes.Removed) || !slices.Equal(a.Nodes.Moved, b.Nodes.Moved):
		return "nodes"
	case len(a.Nodes.Changed) != len(b.Nodes.Changed) || len(a.Nodes.Added) != len(b.Nodes.Added):
		return "nodes"
	case !slices.Equal(a.Edges.Removed, b.Edges.Removed) || !slices.Equal(a.Edges.Moved, b.Edges.Moved) ||
		!slices.Equal(a.Edges.Added, b.Edges.Added):
		return "edges"
	case !slices.Equal(a.Rows.Removed, b.Rows.Removed) || !slices.Equal(a.Rows.Moved, b.Rows.Moved) ||
		len(a.Rows.Added) != len(b.Rows.Added) || a.Rows.Present != b.Rows.Present:
		return "rows"
	}
	for i := range a.Nodes.Changed {
		if a.Nodes.Changed[i].N != b.Nodes.Changed[i].N {
			return "nodes.changed"
		}
	}
	for i := range a.Nodes.Added {
		if a.Nodes.Added[i].At != b.Nodes.Added[i].At {
			return "nodes.added"
		}
	}
	for i := range a.Rows.Added {
		if a.Rows.Added[i].At != b.Rows.Added[i].At {
			return "rows.added"
		}
	}
	if !wire.Equal(material(a), material(b), wire.Exact) {
		return "nodes, rows or header fields"
	}
	return ""
}

// material is the response made of d's nodes, rows and header fields, to
// compare two deltas under wire.Exact.
func material(d *Delta) *wire.GraphResponse {
	r := &wire.GraphResponse{QueryType: d.QueryType, Columns: d.Columns, GroupColumns: d.GroupColumns, Pagination: d.Pagination}
	for _, c := range d.Nodes.Changed {
		r.Nodes = append(r.Nodes, c.Node)
	}
	for _, a := range d.Nodes.Added {
		r.Nodes = append(r.Nodes, a.Item)
	}
	for _, a := range d.Rows.Added {
		r.Rows = append(r.Rows, a.Item)
	}
	return r
}
