package gcf

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
)

func (d *freader) nodes(r *wire.GraphResponse) {
	d.tables(d.section("nodes"), func(n, rowDepth, level int) {
		if len(d.cols) < 2 || d.cols[0].name != "type" || d.cols[1].name != "id" {
			d.fail()
		}
		for _, c := range d.cols[2:] {
			if c.name == "type" || c.name == "id" || strings.IndexByte(c.name, '>') >= 0 {
				d.fail()
			}
		}
		if r.Nodes == nil {
			c := d.capFor(n, 4)
			d.charge(sizeNode * int64(c))
			r.Nodes = make([]wire.Node, 0, c)
		}
		for k := range n {
			if len(r.Nodes) >= d.maxElem {
				d.fail()
			}
			r.Nodes = append(r.Nodes, d.nodeRow(k, rowDepth, level))
		}
	})
}

// slab is the length of a new slab that has room for n: slabLen, or less
// when the rest of the input cannot fill it (a property or a cell takes
// two bytes or more).
func (d *freader) slab(n int) int {
	return max(n, min(slabLen, (len(d.s)-d.i)/2))
}

// propSlab returns room for n more properties.
func (d *freader) propSlab(n int) {
	if cap(d.props)-len(d.props) < n {
		d.props = make([]wire.Property, 0, d.slab(n))
	}
}

// nodeRow reads the k-th row of a node table.
func (d *freader) nodeRow(k, rowDepth, level int) wire.Node {
	l, lists := d.rowPrefix(d.indent(d.line(), rowDepth), k)
	d.charge(sizeNode)
	var n wire.Node
	var i int
	n.Type, i = d.str(l, 0, '|')
	n.ID, i = d.integer(l, sep(d, l, i), '|')
	d.propSlab(len(d.cols) - 2)
	start := len(d.props)
	d.marks = d.marks[:0]
	for _, c := range d.cols[2:] {
		v, kind, end := d.scalar(l, sep(d, l, i), '|')
		i = end
		switch kind {
		case tokAbsent:
			continue
		case tokList:
			d.marks = append(d.marks, len(d.props)-start)
		}
		d.charge(sizeProp)
		d.props = append(d.props, wire.Property{Key: c.name, Value: v})
	}
	if i != len(l) || (len(d.marks) > 0) != lists {
		d.fail()
	}
	if len(d.props) > start {
		n.Properties = d.props[start:len(d.props):len(d.props)]
	}
	for _, m := range d.marks {
		p := &n.Properties[m]
		p.Value = d.attachment(p.Key, rowDepth, level)
	}
	return n
}

// attachment reads the list attachment ".name <list>" of a row's field
// name, the next line at rowDepth.
func (d *freader) attachment(name string, rowDepth, level int) wire.Value {
	l := d.indent(d.line(), rowDepth)
	if len(l) < 2 || l[0] != '.' {
		d.fail()
	}
	var key string
	var i int
	if l[1] == '"' {
		s, e, ok := gcfvalue.Unquote(l, 1)
		if !ok {
			d.fail()
		}
		key, i = s, e
	} else {
		i = gcfvalue.BareKeyEnd(l, 1)
		if i == 1 {
			d.fail()
		}
		key = l[1:i]
	}
	if key != name || i >= len(l) || l[i] != ' ' {
		d.fail()
	}
	return d.list(l, i+1, rowDepth+2, level+1)
}

// list reads a list body at l[i:]: "[0]", "[N]: a,b" or "[N]" and N item
// lines at depth; level is the list's nesting in the generic value.
func (d *freader) list(l string, i, depth, level int) wire.Value {
	if level > d.maxDepth {
		d.fail()
	}
	n, j := d.count(l, i)
	d.charge(sizeVal * int64(n)) // the items, and room for them: n is within the input
	if j == len(l) {
		if n == 0 {
			return wire.ListOf()
		}
		items := make([]wire.Value, 0, d.capFor(n, 4))
		for k := range n {
			t := d.indent(d.line(), depth)
			p := "@" + strconv.Itoa(k) + " "
			if !strings.HasPrefix(t, p) {
				d.fail()
			}
			t = t[len(p):]
			if strings.HasPrefix(t, "=") {
				v, kind, end := d.scalar(t, 1, '\n')
				if kind != tokValue || end != len(t) {
					d.fail()
				}
				items = append(items, v)
				continue
			}
			items = append(items, d.list(t, 0, depth+1, level+1))
		}
		return wire.ListOf(items...)
	}
	if n == 0 || !strings.HasPrefix(l[j:], ": ") {
		d.fail()
	}
	items := make([]wire.Value, 0, d.capFor(n, 1))
	j += 2
	for k := range n {
		if k > 0 {
			if j >= len(l) || l[j] != ',' {
				d.fail()
			}
			j++
		}
		v, kind, end := d.scalar(l, j, ',')
		if kind != tokValue {
			d.fail()
		}
		items = append(items, v)
		j = end
	}
	if j != len(l) {
		d.fail()
	}
	return wire.ListOf(items...)
}
