package delta

import (
	"github.com/graphwire/graphwire/wire"
)

// Delta turns one response, its base, into another, its result: Patch(base,
// d) gives the result back exactly, order included, or an error. Diff
// builds one; the package documentation gives its JSON form.
//
// A Delta whose Base equals its Result is the unchanged delta: it carries
// nothing else, and Patch gives a copy of the base.
//
// Diff sorts the lists of operations: Removed by base position, Moved,
// Changed and Added by position in the result. Patch
// checks every operation before it builds anything and refuses a Delta that
// contradicts itself or its base.
type Delta struct {
	Base   Hash // Fingerprint of the base
	Result Hash // Fingerprint of the result

	// FormatVersion and QueryType are the result's, whether or not they
	// changed.
	FormatVersion string
	QueryType     wire.QueryType

	// Set names the header fields the result takes from this Delta rather
	// than from the base: Columns, GroupColumns, Pagination, each with
	// the rule of wire.GraphResponse (nil is absent).
	Set          Fields
	Columns      []wire.Column
	GroupColumns []wire.GroupColumn
	Pagination   *wire.Pagination

	Nodes NodeOps
	Edges EdgeOps
	Rows  RowOps
}

// Unchanged reports whether d is the unchanged delta: base and result have
// the same fingerprint.
func (d *Delta) Unchanged() bool { return d.Base == d.Result }

// Fields is a set of header fields a Delta replaces.
type Fields uint8

// The header fields a Delta may replace.
const (
	SetColumns Fields = 1 << iota
	SetGroupColumns
	SetPagination
)

// fieldNames are the JSON names of the Fields, bit by bit.
var fieldNames = [...]string{"columns", "group_columns", "pagination"}

// Has reports whether f holds every field of g.
func (f Fields) Has(g Fields) bool { return f&g == g }

// NodeKey is the identity of a node within a response: its type, its id,
// and N, which of the nodes with this type and id it is (0 for the first
// in response order, 1 for the second...). A response that lists a node
// once, as GKG's do, has N = 0 everywhere.
type NodeKey struct {
	Type string
	ID   int64
	N    int
}

// EdgeKey is the identity of an edge within a response: the whole edge
// (from, from_id, to, to_id, type, depth, path_id, step) and N, which of
// the equal edges it is, counted from 0 in response order.
type EdgeKey struct {
	Edge wire.Edge
	N    int
}

// Move puts an element of the base, named by Key, at position At of the
// result.
type Move[K any] struct {
	Key K
	At  int
}

// Placed is a new element and its position At in the result.
type Placed[T any] struct {
	At   int
	Item T
}

// Changed replaces the content of the base node with the identity
// (Node.Type, Node.ID, N) by Node, whole (no property-level patch). The
// node keeps its place, unless a Move moves it too.
type Changed struct {
	N    int
	Node wire.Node
}

// Key returns the identity of the node c replaces.
func (c Changed) Key() NodeKey { return NodeKey{Type: c.Node.Type, ID: c.Node.ID, N: c.N} }

// NodeOps are the operations on the node list.
//
// The result's list is built so: the base nodes that are neither Removed
// nor Moved keep their relative order and fill, in order, every position
// not taken by a Move or an Added node; Changed replaces a node's content.
type NodeOps struct {
	Removed []NodeKey
	Moved   []Move[NodeKey]
	Changed []Changed
	Added   []Placed[wire.Node]
}

// EdgeOps are the operations on the edge list, built as NodeOps are. An
// edge is identified by all its fields, so a changed edge is one removed
// and one added.
type EdgeOps struct {
	Removed []EdgeKey
	Moved   []Move[EdgeKey]
	Added   []Placed[wire.Edge]
}

// RowOps are the operations on the aggregation rows, built as NodeOps are.
// A row is identified by its position in the base: Removed holds base
// positions and Moved's keys are base positions. A row whose content
// changed is one removed and one added. Present tells whether the result
// has rows at all (non-nil Rows), which an empty list does not tell.
type RowOps struct {
	Present bool
	Removed []int
	Moved   []Move[int]
	Added   []Placed[wire.Row]
}

func (o *NodeOps) empty() bool {
	return len(o.Removed)+len(o.Moved)+len(o.Changed)+len(o.Added) == 0
}

func (o *EdgeOps) empty() bool { return len(o.Removed)+len(o.Moved)+len(o.Added) == 0 }

func (o *RowOps) empty() bool { return len(o.Removed)+len(o.Moved)+len(o.Added) == 0 }

// nodeKeys returns the identity of every node of ns, in order.
func nodeKeys(ns []wire.Node) []NodeKey {
	keys := make([]NodeKey, len(ns))
	seen := make(map[NodeKey]int, len(ns))
	for i := range ns {
		k := NodeKey{Type: ns[i].Type, ID: ns[i].ID}
		keys[i] = NodeKey{Type: k.Type, ID: k.ID, N: seen[k]}
		seen[k]++
	}
	return keys
}

// edgeKeys returns the identity of every edge of es, in order.
func edgeKeys(es []wire.Edge) []EdgeKey {
	keys := make([]EdgeKey, len(es))
	seen := make(map[wire.Edge]int, len(es))
	for i, e := range es {
		keys[i] = EdgeKey{Edge: e, N: seen[e]}
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
