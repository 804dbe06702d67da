package delta

import (
	"github.com/graphwire/graphwire/wire"
)

// Delta turns one response, its base, into another, its result: Patch(base,
// d) gives the result back exactly, order included, or an error. Diff
// builds one; a codec writes it as a document (AppendDelta): its
// operations in the document's header, as integer lists, and its Content,
// a response, in the codec's ordinary syntax.
//
// Every operation names elements by position: a base position (from 0, in
// the base's list) or a position in the result's list. The base is fixed
// by Check, so a position names one element exactly.
//
// The Delta whose Content is nil is the unchanged one: base and result are
// equal, and it carries nothing but its Check.
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

	// Content is the result's header with the new material: the changed
	// and the added nodes, in result order, the added edges, the added
	// rows. Its format_version and query_type are the result's where they
	// differ from the base's and empty where they are the base's (Patch
	// takes the base's, unless Cleared names the field); its columns,
	// group_columns and pagination are the result's. Its Rows is non-nil
	// exactly when the result's is (an empty list for a result with rows
	// and none added).
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

// nodeKey is the identity of a node within a response: its type, its id,
// and n, which of the nodes with this type and id it is (0 for the first
// in response order, 1 for the second...). A response that lists a node
// once, as GKG's do, has n = 0 everywhere. Diff pairs the nodes of two
// responses by it.
type nodeKey struct {
	typ string
	id  int64
	n   int
}

// nodeKeys returns the identity of every node of ns, in order.
func nodeKeys(ns []wire.Node) []nodeKey {
	keys := make([]nodeKey, len(ns))
	seen := make(map[nodeKey]int, len(ns))
	for i := range ns {
		k := nodeKey{typ: ns[i].Type, id: ns[i].ID}
		keys[i] = nodeKey{typ: k.typ, id: k.id, n: seen[k]}
		seen[k]++
	}
	return keys
}

// edgeKey is the identity of an edge within a response: the whole edge
// and which of the equal edges it is, from 0 in response order.
type edgeKey struct {
	edge wire.Edge
	n    int
}

// edgeKeys returns the identity of every edge of es, in order.
func edgeKeys(es []wire.Edge) []edgeKey {
	keys := make([]edgeKey, len(es))
	seen := make(map[wire.Edge]int, len(es))
	for i, e := range es {
		keys[i] = edgeKey{edge: e, n: seen[e]}
		seen[e]++
	}
	return keys
}

// rowID is the content identity of a row within a response, used by Diff
// to pair rows of the base and the next response.
type rowID struct {
	content string
	n       int
}

func rowKeys(rows []wire.Row) []rowID {
	keys := make([]rowID, len(rows))
	seen := make(map[string]int, len(rows))
	for i, row := range rows {
		c := rowKey(row)
		keys[i] = rowID{content: c, n: seen[c]}
		seen[c]++
	}
	return keys
}
