package delta

import (
	"github.com/graphwire/graphwire/wire"
)

// Delta turns one response, its base, into another, its result: Patch(base,
// d) gives the result back exactly, order included, or an error. Every
// operation names elements by position (see the package doc). The Delta
// whose Content is nil is the unchanged one, carrying only its Check.
type Delta struct {
	// Check binds the delta to its base and its result (MakeCheck):
	// Patch verifies the response it builds against it.
	Check Check

	// Changed holds the base positions of the nodes whose content changed.
	// Each is replaced whole (no property-level patch) by the content node
	// of its type and id: the first not yet taken, in the order of
	// Changed; no added node shares the type and id of a changed one. A
	// changed node keeps its place, unless a move in Nodes moves it too.
	Changed []int

	// Nodes, Edges and Rows are the operations on the three lists: the
	// elements removed and moved, and the positions of the elements
	// added, which are Content's (its nodes other than the changed ones),
	// in order.
	Nodes, Edges, Rows Ops

	// Cleared names the fields of the response header, among
	// format_version and query_type (FieldFormatVersion, FieldQueryType,
	// in that order), that the result has empty while the base does not.
	Cleared []string

	// Content is the new material: the changed and the added nodes, in
	// result order, the added edges and rows (non-nil exactly when the
	// result's are); the result's columns, group_columns and pagination;
	// its format_version and query_type only where they differ from the
	// base's.
	Content *wire.GraphResponse
}

// The fields of the response header that Cleared names, by their names in
// canonical JSON.
const (
	FieldFormatVersion = "format_version"
	FieldQueryType     = "query_type"
)

// Ops are the operations on one list of a response. The result's list is
// built so: the moved and added elements at their positions; the base
// elements neither removed nor moved, in base order, in the positions
// left. Diff gives every list ascending (Moved by At).
type Ops struct {
	Removed []int  // base positions of the elements the result drops
	Moved   []Move // base elements placed at a position of the result
	Added   []int  // the result's positions of the content's elements
}

// Move places the base element at position From at position At of the
// result.
type Move struct{ From, At int }

// Unchanged reports whether d is the unchanged delta: base and result are
// equal.
func (d *Delta) Unchanged() bool { return d.Content == nil }

// operates reports whether d has an operation.
func (d *Delta) operates() bool {
	n := len(d.Changed)
	for _, o := range d.lists() {
		n += len(o.Removed) + len(o.Moved) + len(o.Added)
	}
	return n > 0
}

// occurrence is the identity of an element within its list, by which Diff
// pairs the elements of two responses: its key (a node's type and id, a
// whole edge, a row's canonical bytes) and which of the elements with
// that key it is, from 0 in list order.
type occurrence[K comparable] struct {
	key K
	n   int
}

// occurrences returns the identity of every element of xs, in order.
func occurrences[T any, K comparable](xs []T, key func(*T) K) []occurrence[K] {
	out := make([]occurrence[K], len(xs))
	seen := make(map[K]int, len(xs))
	for i := range xs {
		k := key(&xs[i])
		out[i] = occurrence[K]{k, seen[k]}
		seen[k]++
	}
	return out
}
