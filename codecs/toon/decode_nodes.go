package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// nodes reads the nodes section: an object of type groups, or a list of
// one-key objects; then applies node_order.
func (d *graphDecoder) nodes(v, order jsonvalue.Value, haveOrder bool) []wire.Node {
	type group struct {
		typ   string
		items []jsonvalue.Value
		built []wire.Node // the nodes of a table (nodeTable), when items is nil
		path  []pathStep
	}
	var groups []group
	total := 0
	// add adds the group m, at path (a group read by a sink keeps none).
	add := func(m jsonvalue.Member, path []pathStep) bool {
		if !d.name(m.Key, path) {
			return false
		}
		if t, ok := m.Value.(*nodeGroup); ok {
			groups = append(groups, group{typ: m.Key, built: t.nodes})
			total += len(t.nodes)
			return true
		}
		kept := append(newPath(), path...)
		items := d.array(m.Value, kept)
		groups = append(groups, group{m.Key, items, nil, kept})
		total += len(items)
		return d.err == nil
	}
	switch x := v.(type) {
	case nil:
		// No nodes section: no nodes.
	case *jsonvalue.Object:
		groups = make([]group, 0, len(x.Members))
		for _, m := range x.Members {
			var at [2]pathStep
			if !add(m, append(at[:0], keyStep("nodes"), keyStep(m.Key))) {
				return nil
			}
		}
	case []jsonvalue.Value:
		groups = make([]group, 0, len(x))
		for k, e := range x {
			var at [3]pathStep
			path := append(at[:0], keyStep("nodes"), indexStep(k))
			m, ok := d.only(e, path, "an object with one member, a type and its nodes")
			if !ok || !add(m, append(path, keyStep(m.Key))) {
				return nil
			}
		}
	default:
		d.fail([]pathStep{keyStep("nodes")}, "expected an object of node types or a list of type groups, found "+describe(v))
		return nil
	}

	if total > d.lim.MaxElements {
		d.failLimit([]pathStep{keyStep("nodes")}, "MaxElements", strconv.Itoa(total)+" nodes, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
		return nil
	}
	nodes := make([]wire.Node, 0, total)
	nprops := 0
	for _, gr := range groups {
		for _, item := range gr.items {
			if o, ok := item.(*jsonvalue.Object); ok && o != nil && len(o.Members) > 1 {
				nprops += len(o.Members) - 1
			}
		}
	}
	d.propSlab = make([]wire.Property, nprops)
	// take appends node j of gr.
	take := func(gr *group, j int) bool {
		if gr.items == nil {
			nodes = append(nodes, gr.built[j])
			return true
		}
		nodes = append(nodes, d.node(gr.typ, gr.items[j], append(gr.path, indexStep(j))))
		return d.err == nil
	}
	if !haveOrder {
		if len(groups) == 1 && groups[0].items == nil {
			return groups[0].built
		}
		for k := range groups {
			for j := range len(groups[k].items) + len(groups[k].built) {
				if !take(&groups[k], j) {
					return nil
				}
			}
		}
		return nodes
	}

	path := newPath(keyStep("node_order"))
	idx := d.array(order, path)
	if d.err != nil {
		return nil
	}
	if len(idx) != total {
		d.fail(path, "has "+counted(len(idx), "entry", "entries")+" for "+counted(total, "node", "nodes"))
		return nil
	}
	next := make([]int, len(groups))
	for i, e := range idx {
		k := d.integer(e, append(path, indexStep(i)))
		if d.err != nil {
			return nil
		}
		if k < 0 || k >= int64(len(groups)) {
			d.fail(append(path, indexStep(i)), "group "+strconv.FormatInt(k, 10)+" out of range ("+thereAre(len(groups), "group", "groups")+")")
			return nil
		}
		gr := &groups[k]
		j := next[k]
		if size := len(gr.items) + len(gr.built); j >= size {
			d.fail(append(path, indexStep(i)), "group "+strconv.FormatInt(k, 10)+" has only "+counted(size, "node", "nodes"))
			return nil
		}
		next[k]++
		if !take(gr, j) {
			return nil
		}
	}
	return nodes
}

func (d *graphDecoder) node(typ string, v jsonvalue.Value, path []pathStep) wire.Node {
	n := wire.Node{Type: typ}
	o := d.object(v, path)
	if d.err != nil {
		return n
	}
	if len(o.Members) > 1 && len(o.Members)-1 <= d.lim.MaxElements {
		n.Properties = d.props(len(o.Members) - 1)
	}
	if _, haveID := d.nodeMembers(&n, o, path, false); d.err == nil && !haveID {
		d.fail(path, "node without id")
	}
	return n
}

// nodeMembers reads the members of the node object o into n: its id, its
// type when typed (a row's node cell; a node's type is its group's), and
// at most MaxElements properties.
func (d *graphDecoder) nodeMembers(n *wire.Node, o *jsonvalue.Object, path []pathStep, typed bool) (haveType, haveID bool) {
	own := 1
	if typed {
		own = 2
	}
	if len(o.Members)-own > d.lim.MaxElements {
		d.failLimit(path, "MaxElements", strconv.Itoa(len(o.Members)-own)+" properties, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
		return
	}
	for _, m := range o.Members {
		p := append(path, keyStep(m.Key))
		switch {
		case m.Key == "id":
			n.ID, haveID = d.integer(m.Value, p), true
		case m.Key == "type" && typed:
			n.Type, haveType = d.str(m.Value, p)
		case m.Key == "type":
			d.fail(p, `a node's type is its group's name, not a property`)
		case d.name(m.Key, p):
			n.Properties = append(n.Properties, wire.Property{Key: m.Key, Value: d.value(m.Value, p, 0)})
		}
		if d.err != nil {
			return
		}
	}
	return
}

// props returns an empty slice of capacity n for a node's properties,
// taken from the slab nodes sized for all of them.
func (d *graphDecoder) props(n int) []wire.Property {
	if len(d.propSlab) < n {
		return make([]wire.Property, 0, n)
	}
	p := d.propSlab[:0:n]
	d.propSlab = d.propSlab[n:]
	return p
}
