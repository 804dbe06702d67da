package fit

import (
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// nodeKey names a node the way edges and node cells refer to it, its
// type interned (see keys): two words, with no padding, hashed as 16
// bytes.
type nodeKey struct {
	typ int64
	id  int64
}

// keys interns type names, so that a node's key hashes as two integers.
// A response names few types: they are looked up in a short list, and in
// a map once there are more.
type keys struct {
	few  []string
	many map[string]int32
}

const fewTypes = 8

func (ks *keys) of(typ string, id int64) nodeKey {
	for i, t := range ks.few {
		if t == typ {
			return nodeKey{int64(i), id}
		}
	}
	if len(ks.few) < fewTypes {
		ks.few = append(ks.few, typ)
		return nodeKey{int64(len(ks.few) - 1), id}
	}
	if ks.many == nil {
		ks.many = map[string]int32{}
	}
	t, ok := ks.many[typ]
	if !ok {
		t = int32(fewTypes + len(ks.many))
		ks.many[typ] = t
	}
	return nodeKey{int64(t), id}
}

// keyMap maps node keys to numbers. Most responses give each id one
// type: such keys sit in a map by id alone (the map's fast path for
// 64-bit keys); a key whose id is already there with another type goes
// to a map by the whole key.
type keyMap struct {
	byID  map[int64]typed
	other map[nodeKey]int32
}

type typed struct {
	typ int64
	v   int32
}

func newKeyMap(n int) keyMap { return keyMap{byID: make(map[int64]typed, n)} }

func (m *keyMap) get(k nodeKey) (int32, bool) {
	t, ok := m.byID[k.id]
	if !ok {
		return 0, false // no key of this id: other has none either
	}
	if t.typ == k.typ {
		return t.v, true
	}
	v, ok := m.other[k]
	return v, ok
}

func (m *keyMap) set(k nodeKey, v int32) {
	if t, ok := m.byID[k.id]; !ok || t.typ == k.typ {
		m.byID[k.id] = typed{k.typ, v}
		return
	}
	if m.other == nil {
		m.other = map[nodeKey]int32{}
	}
	m.other[k] = v
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

// planner is what newPlan keeps while it assigns units.
type planner struct {
	*plan
	keys keys
	// keyUnit is the unit that first delivers a key (a node entry or a
	// node cell of a row).
	keyUnit keyMap
	// first and later chain the node entries of each key, in response
	// order: first[k] is the first entry of key k, later[i] the entry
	// of the same key after entry i (-1 for none). Built by the first
	// claim: a node-led response without node cells needs none.
	first *keyMap
	later []int32
	next  int32 // the next unit
}

func newPlan(r *wire.GraphResponse) *plan {
	p := &planner{
		plan: &plan{
			r:        r,
			nodeUnit: filled(len(r.Nodes)),
			edgeUnit: filled(len(r.Edges)),
			rowUnit:  filled(len(r.Rows)),
		},
		keyUnit: newKeyMap(len(r.Nodes)),
	}
	switch r.QueryType {
	case wire.PathFinding:
		p.paths()
		p.nodeUnits()
		p.rowUnits()
	case wire.Aggregation:
		// Rows in server order, each with the nodes it names; then the
		// other nodes.
		p.rowUnits()
		p.nodeUnits()
	default:
		// Nodes in server order, then rows.
		p.nodeUnits()
		p.rowUnits()
	}
	p.loneEdges()
	p.units = int(p.next)
	p.plan.nodes = newIndex(p.nodeUnit, p.units)
	p.plan.edges = newIndex(p.edgeUnit, p.units)
	p.plan.rows = newIndex(p.rowUnit, p.units)
	return p.plan
}

func (p *planner) deliver(k nodeKey, u int32) {
	if _, ok := p.keyUnit.get(k); !ok {
		p.keyUnit.set(k, u)
	}
}

// claim puts every node entry of key k not yet in a unit into unit u.
func (p *planner) claim(k nodeKey, u int32) {
	p.deliver(k, u)
	if p.first == nil {
		first := newKeyMap(len(p.r.Nodes))
		p.first = &first
		p.later = make([]int32, len(p.r.Nodes))
		for i := len(p.r.Nodes) - 1; i >= 0; i-- {
			n := &p.r.Nodes[i]
			nk := p.keys.of(n.Type, n.ID)
			p.later[i] = -1
			if j, ok := p.first.get(nk); ok {
				p.later[i] = j
			}
			p.first.set(nk, int32(i))
		}
	}
	i, ok := p.first.get(k)
	for ok && i >= 0 {
		if p.nodeUnit[i] < 0 {
			p.nodeUnit[i] = u
		}
		i = p.later[i]
	}
}

// nodeUnits puts every node entry not yet in a unit into a unit of its
// own.
func (p *planner) nodeUnits() {
	if p.next == 0 && len(p.keyUnit.byID) == 0 {
		// The first units: node i is unit i, and a key's unit is that of
		// its first entry, written last (one map write a node).
		for i := len(p.r.Nodes) - 1; i >= 0; i-- {
			n := &p.r.Nodes[i]
			p.nodeUnit[i] = int32(i)
			p.keyUnit.set(p.keys.of(n.Type, n.ID), int32(i))
		}
		p.next = int32(len(p.r.Nodes))
		return
	}
	for i := range p.r.Nodes {
		if p.nodeUnit[i] < 0 {
			n := &p.r.Nodes[i]
			p.nodeUnit[i] = p.next
			p.deliver(p.keys.of(n.Type, n.ID), p.next)
			p.next++
		}
	}
}

// rowUnits makes every row a unit, with the nodes it names.
func (p *planner) rowUnits() {
	for i, row := range p.r.Rows {
		for _, c := range row {
			if c.Node != nil {
				p.claim(p.keys.of(c.Node.Type, c.Node.ID), p.next)
			}
		}
		p.rowUnit[i] = p.next
		p.next++
	}
}

// paths makes whole paths units, in path_id order, each with the nodes
// it reaches first; then edges outside any path, one each.
func (p *planner) paths() {
	r := p.r
	var ids []int64
	byPath := map[int64][]int32{}
	for i, e := range r.Edges {
		if e.PathID.Valid {
			if _, ok := byPath[e.PathID.V]; !ok {
				ids = append(ids, e.PathID.V)
			}
			byPath[e.PathID.V] = append(byPath[e.PathID.V], int32(i))
		}
	}
	slices.Sort(ids)
	edge := func(i int32) {
		e := &r.Edges[i]
		p.edgeUnit[i] = p.next
		p.claim(p.keys.of(e.From, e.FromID), p.next)
		p.claim(p.keys.of(e.To, e.ToID), p.next)
	}
	for _, id := range ids {
		for _, i := range byPath[id] {
			edge(i)
		}
		p.next++
	}
	for i, e := range r.Edges {
		if !e.PathID.Valid {
			edge(int32(i))
			p.next++
		}
	}
}

// loneEdges puts each edge not placed yet in the unit that delivers the
// later of its endpoints; an endpoint the response does not hold is no
// constraint, so an edge with neither endpoint in the response joins the
// first unit (the only unit, when the response has nothing else).
func (p *planner) loneEdges() {
	for i := range p.r.Edges {
		if p.edgeUnit[i] >= 0 {
			continue
		}
		e := &p.r.Edges[i]
		u := int32(0)
		if v, ok := p.keyUnit.get(p.keys.of(e.From, e.FromID)); ok {
			u = max(u, v)
		}
		if v, ok := p.keyUnit.get(p.keys.of(e.To, e.ToID)); ok {
			u = max(u, v)
		}
		p.edgeUnit[i] = u
		if p.next == 0 {
			p.next = 1
		}
	}
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
