package fit

import (
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// nodeKey names a node the way edges and node cells refer to it.
type nodeKey struct {
	typ string
	id  int64
}

// plan splits a response into units: the smallest pieces a page is made
// of, in the order pages deliver them. Every node, edge and row of the
// response belongs to exactly one unit. See the package doc for what a
// unit is for each query type.
type plan struct {
	r                  *wire.GraphResponse
	units              int
	nodeUnit           []int32 // unit of each node entry
	edgeUnit           []int32 // unit of each edge
	rowUnit            []int32 // unit of each row
	nodes, edges, rows index
}

func newPlan(r *wire.GraphResponse) *plan {
	p := &plan{
		r:        r,
		nodeUnit: filled(len(r.Nodes)),
		edgeUnit: filled(len(r.Edges)),
		rowUnit:  filled(len(r.Rows)),
	}
	// entries lists the node entries of each key, in response order;
	// keyUnit is the unit that first delivers a key (a node entry or a
	// node cell of a row).
	entries := make(map[nodeKey][]int32, len(r.Nodes))
	for i, n := range r.Nodes {
		k := nodeKey{n.Type, n.ID}
		entries[k] = append(entries[k], int32(i))
	}
	keyUnit := make(map[nodeKey]int32, len(r.Nodes))
	deliver := func(k nodeKey, u int32) {
		if _, ok := keyUnit[k]; !ok {
			keyUnit[k] = u
		}
	}
	// claim puts every node entry of key k not yet in a unit into unit u.
	claim := func(k nodeKey, u int32) {
		deliver(k, u)
		for _, i := range entries[k] {
			if p.nodeUnit[i] < 0 {
				p.nodeUnit[i] = u
			}
		}
	}
	next := int32(0)
	nodeUnits := func() { // every node entry not yet in a unit, one unit each
		for i, n := range r.Nodes {
			if p.nodeUnit[i] < 0 {
				p.nodeUnit[i] = next
				deliver(nodeKey{n.Type, n.ID}, next)
				next++
			}
		}
	}
	rowUnits := func() { // every row, one unit each, with the nodes it names
		for i, row := range r.Rows {
			for _, c := range row {
				if c.Node != nil {
					claim(nodeKey{c.Node.Type, c.Node.ID}, next)
				}
			}
			p.rowUnit[i] = next
			next++
		}
	}
	switch r.QueryType {
	case wire.PathFinding:
		// Whole paths in path_id order, each with the nodes it reaches
		// first; then edges outside any path, one each; then the rest.
		var ids []int64
		byPath := map[int64][]int32{}
		for i, e := range r.Edges {
			if e.PathID.Valid {
				if _, ok := byPath[e.PathID.Int]; !ok {
					ids = append(ids, e.PathID.Int)
				}
				byPath[e.PathID.Int] = append(byPath[e.PathID.Int], int32(i))
			}
		}
		slices.Sort(ids)
		for _, id := range ids {
			for _, i := range byPath[id] {
				e := r.Edges[i]
				p.edgeUnit[i] = next
				claim(nodeKey{e.From, e.FromID}, next)
				claim(nodeKey{e.To, e.ToID}, next)
			}
			next++
		}
		for i, e := range r.Edges {
			if !e.PathID.Valid {
				p.edgeUnit[i] = next
				claim(nodeKey{e.From, e.FromID}, next)
				claim(nodeKey{e.To, e.ToID}, next)
				next++
			}
		}
		nodeUnits()
		rowUnits()
	case wire.Aggregation:
		// Rows in server order, each with the nodes it names; then the
		// other nodes.
		rowUnits()
		nodeUnits()
	default:
		// Nodes in server order, then rows.
		nodeUnits()
		rowUnits()
	}
	// An edge not placed yet joins the unit that delivers the later of its
	// endpoints; an endpoint the response does not hold is no constraint,
	// so an edge with neither endpoint in the response joins the first
	// unit (the only unit, when the response has nothing else).
	for i, e := range r.Edges {
		if p.edgeUnit[i] >= 0 {
			continue
		}
		u := int32(0)
		if v, ok := keyUnit[nodeKey{e.From, e.FromID}]; ok {
			u = max(u, v)
		}
		if v, ok := keyUnit[nodeKey{e.To, e.ToID}]; ok {
			u = max(u, v)
		}
		p.edgeUnit[i] = u
		if next == 0 {
			next = 1
		}
	}
	p.units = int(next)
	p.nodes = newIndex(p.nodeUnit, p.units)
	p.edges = newIndex(p.edgeUnit, p.units)
	p.rows = newIndex(p.rowUnit, p.units)
	return p
}

func filled(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// index lists items by unit: items[start[u]:start[u+1]] are the items of
// unit u, in response order.
type index struct {
	items []int32
	start []int32
}

func newIndex(unitOf []int32, units int) index {
	start := make([]int32, units+1)
	for _, u := range unitOf {
		start[u+1]++
	}
	for u := 1; u <= units; u++ {
		start[u] += start[u-1]
	}
	items := make([]int32, len(unitOf))
	pos := slices.Clone(start[:units])
	for i, u := range unitOf {
		items[pos[u]] = int32(i)
		pos[u]++
	}
	return index{items: items, start: start}
}

// of returns the items of units [from, to) in response order.
func (x index) of(from, to int) []int32 {
	s := x.items[x.start[from]:x.start[to]]
	if !slices.IsSorted(s) {
		s = slices.Clone(s)
		slices.Sort(s)
	}
	return s
}

// count returns how many items units [from, to) hold.
func (x index) count(from, to int) int { return int(x.start[to] - x.start[from]) }

// page returns the response holding units [from, to) of the whole, each
// list in the whole's order, with pagination pag. The page shares nodes,
// values and descriptors with the whole; it is read, never written.
func (p *plan) page(from, to int, pag *wire.Pagination) *wire.GraphResponse {
	r := p.r
	out := &wire.GraphResponse{
		FormatVersion: r.FormatVersion,
		QueryType:     r.QueryType,
		Columns:       r.Columns,
		GroupColumns:  r.GroupColumns,
		Pagination:    pag,
	}
	nodes := p.nodes.of(from, to)
	out.Nodes = make([]wire.Node, len(nodes))
	for j, i := range nodes {
		out.Nodes[j] = r.Nodes[i]
	}
	edges := p.edges.of(from, to)
	out.Edges = make([]wire.Edge, len(edges))
	for j, i := range edges {
		out.Edges[j] = r.Edges[i]
	}
	if r.Rows != nil {
		rows := p.rows.of(from, to)
		out.Rows = make([]wire.Row, len(rows))
		for j, i := range rows {
			out.Rows[j] = r.Rows[i]
		}
	}
	return out
}

// weight returns a rough size of unit u, in bytes of its items' names,
// keys and values: no encoding, only lengths. A page's search reads the
// weights of the units it probes, and no others.
func (p *plan) weight(u int) float64 {
	r := p.r
	w := 0.0
	for _, i := range p.nodes.items[p.nodes.start[u]:p.nodes.start[u+1]] {
		w += nodeWeight(&r.Nodes[i])
	}
	for _, i := range p.edges.items[p.edges.start[u]:p.edges.start[u+1]] {
		e := &r.Edges[i]
		w += float64(8 + len(e.From) + len(e.To) + len(e.Type) + digits(e.FromID) + digits(e.ToID))
	}
	for _, i := range p.rows.items[p.rows.start[u]:p.rows.start[u+1]] {
		for _, c := range r.Rows[i] {
			if c.Node != nil {
				w += nodeWeight(c.Node)
			} else {
				w += float64(2+len(c.Name)) + valueWeight(c.Value)
			}
		}
	}
	return w
}

func nodeWeight(n *wire.Node) float64 {
	s := float64(4 + len(n.Type) + digits(n.ID))
	for _, p := range n.Properties {
		s += float64(2+len(p.Key)) + valueWeight(p.Value)
	}
	return s
}

func valueWeight(v wire.Value) float64 {
	switch v.Kind() {
	case wire.KindString:
		return float64(2 + len(v.Text()))
	case wire.KindInt:
		return float64(digits(v.Int()))
	case wire.KindList:
		s := 2.0
		for _, x := range v.List() {
			s += 1 + valueWeight(x)
		}
		return s
	}
	return 5 // null, bool, float
}

func digits(i int64) int {
	n := 1
	for ; i >= 10 || i <= -10; i /= 10 {
		n++
	}
	return n
}
