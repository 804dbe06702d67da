package toon

import (
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// fastGroup is one node table, its nodes in the order of its rows.
type fastGroup struct {
	typ   string
	nodes []wire.Node
}

// maxFastGroups is the most node tables the fast reader reads (their
// names are compared pairwise).
const maxFastGroups = 64

// nodeGroups reads the node tables under "nodes:" (the current line),
// leaving the reader on the line after them.
func (f *fastReader) nodeGroups() []fastGroup {
	var groups []fastGroup
	f.next()
	for f.has && f.depth > 0 {
		if f.depth != 1 || len(groups) == maxFastGroups || len(groups) >= f.lim.MaxElements+layoutFields {
			f.fail()
		}
		l := f.c
		b := strings.IndexByte(l, '[')
		if b < 0 {
			f.fail()
		}
		typ := l[:b]
		f.name(typ)
		for _, g := range groups {
			if g.typ == typ {
				f.fail()
			}
		}
		var nodes []wire.Node
		if h := l[b:]; strings.HasSuffix(h, "]:") && strings.IndexByte(h, '{') < 0 {
			nodes = f.nodeList(typ, h[1:len(h)-2])
		} else {
			nodes = f.nodeTable(typ, h)
		}
		groups = append(groups, fastGroup{typ, nodes})
	}
	return groups
}

// nodeTable reads the rows of a node table whose header, after the type,
// is h, and moves to the line after them.
func (f *fastReader) nodeTable(typ, h string) []wire.Node {
	n, fields := f.header(h)
	k := len(fields)
	id := -1
	for j, name := range fields {
		switch name {
		case "id":
			id = j
		case "type":
			f.fail()
		}
	}
	if n == 0 || id < 0 || k-1 > f.lim.MaxElements {
		f.fail()
	}
	f.rows(n, k, 2)
	nodes := make([]wire.Node, n)
	var props []wire.Property
	if k > 1 {
		props = make([]wire.Property, n*(k-1))
	}
	p := 0
	for r := range nodes {
		c := f.row(2)
		nd := &nodes[r]
		nd.Type = typ
		if k > 1 {
			nd.Properties = props[p : p+k-1 : p+k-1]
		}
		i := 0
		for j, name := range fields {
			if i > len(c) {
				f.fail() // fewer cells than fields
			}
			var v wire.Value
			v, i = f.cell(c, i)
			if j == id {
				if v.Kind() != wire.KindInt {
					f.fail()
				}
				nd.ID = v.Int()
				continue
			}
			props[p] = wire.Property{Key: name, Value: v}
			p++
		}
		if i <= len(c) {
			f.fail() // more cells than fields
		}
	}
	if f.next() && f.depth > 1 {
		f.fail()
	}
	return nodes
}

// nodeOrder reads the inline node_order after its "node_order[".
func (f *fastReader) nodeOrder(s string) []int {
	close := strings.Index(s, "]: ")
	if close < 0 {
		f.fail()
	}
	n := f.length(s[:close])
	vals := s[close+3:]
	if n == 0 || 2*n-1 > len(vals) {
		f.fail()
	}
	order := make([]int, n)
	for i := range order {
		v := vals
		if j := strings.IndexByte(vals, ','); j >= 0 {
			v, vals = vals[:j], vals[j+1:]
		} else {
			vals = ""
			if i != n-1 {
				f.fail()
			}
		}
		k, ok := smallInt(v)
		if !ok {
			f.fail()
		}
		order[i] = int(k)
	}
	if vals != "" {
		f.fail()
	}
	return order
}

// edges reads the edges table whose header, after "edges", is h, and
// moves to the line after it.
func (f *fastReader) edges(h string) []wire.Edge {
	n, fields := f.header(h)
	var which [8]int8 // len(edgeFields)
	var seen uint16
	for j, name := range fields {
		k := 0
		for k < len(edgeFields) && edgeFields[k] != name {
			k++
		}
		if k == len(edgeFields) {
			f.fail()
		}
		which[j] = int8(k)
		seen |= 1 << k
	}
	if seen&0x1f != 0x1f {
		f.fail()
	}
	f.rows(n, len(fields), 1)
	edges := make([]wire.Edge, n)
	for r := range edges {
		c := f.row(1)
		e := &edges[r]
		i := 0
		for j := range fields {
			if i > len(c) {
				f.fail()
			}
			var v wire.Value
			v, i = f.cell(c, i)
			k := which[j]
			switch k {
			case 0, 2, 4:
				if v.Kind() != wire.KindString {
					f.fail()
				}
				switch k {
				case 0:
					e.From = v.Text()
				case 2:
					e.To = v.Text()
				default:
					e.Type = v.Text()
				}
			case 1, 3:
				if v.Kind() != wire.KindInt {
					f.fail()
				}
				if k == 1 {
					e.FromID = v.Int()
				} else {
					e.ToID = v.Int()
				}
			default:
				var o wire.OptInt
				switch v.Kind() {
				case wire.KindNull:
				case wire.KindInt:
					o = wire.SomeInt(v.Int())
				default:
					f.fail()
				}
				switch k {
				case 5:
					e.Depth = o
				case 6:
					e.PathID = o
				default:
					e.Step = o
				}
			}
		}
		if i <= len(c) {
			f.fail()
		}
	}
	if f.next() && f.depth > 0 {
		f.fail()
	}
	return edges
}

// assemble puts the nodes of the groups in node_order's order, or in
// the groups' order without one, as the generic decoder does.
func (f *fastReader) assemble(groups []fastGroup, order []int, haveOrder bool) []wire.Node {
	total := 0
	for _, g := range groups {
		total += len(g.nodes)
	}
	if total > f.lim.MaxElements {
		f.fail()
	}
	if !haveOrder {
		if len(groups) == 1 {
			return groups[0].nodes
		}
		nodes := make([]wire.Node, 0, total)
		for _, g := range groups {
			nodes = append(nodes, g.nodes...)
		}
		return nodes
	}
	if len(order) != total {
		f.fail()
	}
	next := make([]int, len(groups))
	nodes := make([]wire.Node, 0, total)
	for _, k := range order {
		if k >= len(groups) || next[k] >= len(groups[k].nodes) {
			f.fail()
		}
		nodes = append(nodes, groups[k].nodes[next[k]])
		next[k]++
	}
	return nodes
}
