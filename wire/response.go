package wire

// QueryType names the query that produced a response.
type QueryType string

// The query types of SPEC §2. GKG folds search into single-node traversal;
// graphwire keeps it as a type of its own.
const (
	Traversal   QueryType = "traversal"
	Search      QueryType = "search"
	Neighbors   QueryType = "neighbors"
	PathFinding QueryType = "path_finding"
	Aggregation QueryType = "aggregation"
)

// Valid reports whether q is one of the five query types.
func (q QueryType) Valid() bool {
	switch q {
	case Traversal, Search, Neighbors, PathFinding, Aggregation:
		return true
	}
	return false
}

// GraphResponse is one graph query result: GKG's unified query response,
// schema v2, plus search as a query type.
//
// Optional lists follow one rule: a nil slice is absent, a non-nil empty
// slice is present and empty. Columns, GroupColumns and Rows are optional;
// Nodes and Edges are always present on the wire, so for them nil and empty
// mean the same thing. A nil Pagination is absent.
type GraphResponse struct {
	FormatVersion string
	QueryType     QueryType
	Nodes         []Node
	Edges         []Edge
	Columns       []Column      // nil: absent
	GroupColumns  []GroupColumn // nil: absent
	Rows          []Row         // nil: absent
	Pagination    *Pagination   // nil: absent
}

// Node is an entity: its type, its id and its properties in stored order.
// No property is named "type" or "id", and no two share a key.
type Node struct {
	Type       string
	ID         int64
	Properties []Property
}

// Property is one named value of a node.
type Property struct {
	Key   string
	Value Value
}

// Prop is shorthand for Property{Key: key, Value: v}.
func Prop(key string, v Value) Property { return Property{Key: key, Value: v} }

// Get returns the value of the property named key, and whether there is one.
func (n *Node) Get(key string) (Value, bool) {
	for _, p := range n.Properties {
		if p.Key == key {
			return p.Value, true
		}
	}
	return Value{}, false
}

// Edge is a relationship between two nodes, named by type and id.
type Edge struct {
	From   string
	FromID int64
	To     string
	ToID   int64
	Type   string
	Depth  Opt[int64] // hop count of variable-length traversals
	PathID Opt[int64] // path of a path_finding result
	Step   Opt[int64] // position within the path, from 0
}

// Opt is an optional field of the model (an edge's depth, a column's
// target, a pagination's total_rows): V when Valid, absent otherwise,
// which is not the same as present and zero.
type Opt[T int64 | bool | string] struct {
	V     T
	Valid bool
}

// Some returns v, present: Some[int64](3), Some(true), Some("mr").
func Some[T int64 | bool | string](v T) Opt[T] { return Opt[T]{V: v, Valid: true} }

// Column describes one aggregation metric: a value the query computes over
// the matches of each group, held in every row by the cell named Name.
//
// In the query "for each project p and each state of its merge requests
// mr, count the merge requests and sum their notes" (the GroupColumn
// example shows the whole response), the metric
// sum(mr.user_notes_count) AS notes is
//
//	Column{Name: "notes", Function: "sum", Target: Some("mr"), Property: Some("user_notes_count")}
//
// count(mr) AS mr_count has no Property, and count(*) AS total neither a
// Target nor a Property.
type Column struct {
	// Name is the metric's name and the name of the cell that holds its
	// value in every row ("notes"), so no other column has it.
	Name string
	// Function is the aggregation, as the server names it: count, sum,
	// avg, min, max or collect (whose value is the list collected).
	Function string
	// Target is the query variable whose matches are aggregated ("mr");
	// absent when the function counts the rows themselves (count(*)).
	Target Opt[string]
	// Property is the property of Target's nodes the function reads
	// ("user_notes_count"); absent for count(mr).
	Property Opt[string]
}

// GroupKind is the kind of an aggregation group column.
type GroupKind string

// The two group-column kinds.
const (
	GroupByNode     GroupKind = "node"
	GroupByProperty GroupKind = "property"
)

// Valid reports whether k is node or property.
func (k GroupKind) Valid() bool { return k == GroupByNode || k == GroupByProperty }

// GroupColumn describes one aggregation group key: the query groups its
// matches by the key's value, one row per group, and every row holds its
// group's key in the cell named Name. Kind says what the key is:
//
//   - GroupByNode: a node, and the cell holds a reference to it
//     (Cell.Node). Grouping by the project p:
//     GroupColumn{Name: "p", Kind: GroupByNode, Node: "p", Entity: Some("Project")}
//   - GroupByProperty: a property value of a node, and the cell holds the
//     value (Cell.Value). Grouping by the state of the merge request mr:
//     GroupColumn{Name: "mr_state", Kind: GroupByProperty, Node: "mr", Property: Some("state")}
//
// The GroupColumn example shows a response with both.
type GroupColumn struct {
	// Name is the key's name and the name of the cell that holds it in
	// every row ("p", "mr_state").
	Name string
	Kind GroupKind
	// Node is the query variable the key comes from: the grouped node
	// ("p"), or the node whose property is the key ("mr").
	Node string
	// Property is, for kind property, the property of Node that is the
	// key ("state").
	Property Opt[string]
	// Entity is, for kind node, the type of the grouped nodes
	// ("Project").
	Entity Opt[string]
}

// Row is one aggregation row, one group: its cells in stored order, the
// servers' being the group columns' cells then the metric columns'.
type Row []Cell

// Cell is one named cell of a row. It holds a node reference when Node is
// not nil (group columns of kind node), and Value otherwise.
type Cell struct {
	Name  string
	Value Value
	Node  *Node
}

// Pagination tells whether more results exist and how to get them. It holds
// both shapes GKG has served, each field optional so that either
// round-trips exactly:
//
//   - schema v2: {has_more, total_rows?} — HasMore and TotalRows;
//   - schema v5: {has_more, truncated, next_cursor?} — HasMore, Truncated
//     (present in every v5 pagination) and NextCursor, the opaque token
//     that fetches the next page, absent when the results are exhausted.
//
// Canonical JSON writes the keys in the order has_more, total_rows,
// truncated, next_cursor, each optional one only when present. A
// Pagination in neither shape (Schema reports PaginationInvalid) is refused
// by every built-in codec; see the package documentation.
type Pagination struct {
	HasMore    bool
	TotalRows  Opt[int64]  // v2: how many rows there are in all
	Truncated  Opt[bool]   // v5: the response omits matching rows
	NextCursor Opt[string] // v5: the token that resumes after this page
}
