package delta

import (
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// Differs names the first part of b that differs from a ("check",
// "nodes", "content", ...), or gives "" when the two deltas are equal: the
// same check and operations, and contents equal under wire.Exact
// (Rows nil or not included). AppendDelta reads a lossy codec's document
// back and compares with it.
func Differs(a, b *Delta) string {
	switch {
	case a.Check != b.Check:
		return "check"
	case !slices.Equal(a.Cleared, b.Cleared):
		return "cleared"
	case !slices.Equal(a.Changed, b.Changed):
		return "nodes_changed"
	case !sameOps(&a.Nodes, &b.Nodes):
		return "nodes"
	case !sameOps(&a.Edges, &b.Edges):
		return "edges"
	case !sameOps(&a.Rows, &b.Rows):
		return "rows"
	case (a.Content == nil) != (b.Content == nil):
		return "content"
	case a.Content == nil:
		return ""
	case !wire.Equal(a.Content, b.Content, wire.Exact):
		return "content"
	}
	return ""
}

func sameOps(a, b *Ops) bool {
	return slices.Equal(a.Removed, b.Removed) && slices.Equal(a.Moved, b.Moved) && slices.Equal(a.Added, b.Added)
}
