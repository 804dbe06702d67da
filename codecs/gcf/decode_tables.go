package gcf

import (
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// table reads "[0]" or "[N]{decl}" (one table, never a list of them),
// returning N.
func (d *freader) table(l string) int {
	n, i := d.count(l, 0)
	if i == len(l) {
		if n != 0 {
			d.fail()
		}
		d.cols = d.cols[:0]
		return 0
	}
	d.decl(l, i)
	return n
}

// fieldIndex maps each column of d.cols to its index in names, refusing
// an unknown one, into idx.
func (d *freader) fieldIndex(names []string, idx []int) []int {
	idx = idx[:0]
	for _, c := range d.cols {
		k := -1
		for j, n := range names {
			if n == c.name {
				k = j
			}
		}
		if k < 0 {
			d.fail()
		}
		idx = append(idx, k)
	}
	return idx
}

var edgeFields = []string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}

func (d *freader) edges(r *wire.GraphResponse) {
	n := d.table(d.section("edges"))
	var buf [8]int
	idx := d.fieldIndex(edgeFields, buf[:])
	if n > 0 {
		c := d.capFor(n, 10)
		d.charge(sizeEdge * int64(c))
		r.Edges = make([]wire.Edge, 0, c)
	}
	for range n {
		l := d.line()
		var e wire.Edge
		seen := 0
		i := -1
		for _, f := range idx {
			var s string
			var v int64
			var at int
			if i >= 0 {
				i = sep(d, l, i)
			} else {
				i = 0
			}
			switch f {
			case 0, 2, 4:
				s, at = d.str(l, i, '|')
			default:
				val, kind, end := d.scalar(l, i, '|')
				at = end
				if kind == tokAbsent && f >= 5 {
					i = at
					continue
				}
				if kind != tokValue || val.Kind() != wire.KindInt {
					d.fail()
				}
				v = val.Int()
			}
			i = at
			seen |= 1 << f
			switch f {
			case 0:
				e.From = s
			case 1:
				e.FromID = v
			case 2:
				e.To = s
			case 3:
				e.ToID = v
			case 4:
				e.Type = s
			case 5:
				e.Depth = wire.Some[int64](v)
			case 6:
				e.PathID = wire.Some[int64](v)
			case 7:
				e.Step = wire.Some[int64](v)
			}
		}
		if i != len(l) || seen&31 != 31 {
			d.fail()
		}
		r.Edges = append(r.Edges, e)
	}
}

// stringRow reads a row of string cells into out (by field index),
// reporting which were present.
func (d *freader) stringRow(l string, idx []int, out []string) int {
	seen := 0
	i := 0
	for k, f := range idx {
		if k > 0 {
			i = sep(d, l, i)
		}
		v, kind, end := d.scalar(l, i, '|')
		i = end
		if kind == tokAbsent {
			continue
		}
		if kind != tokValue || v.Kind() != wire.KindString {
			d.fail()
		}
		out[f] = v.Text()
		seen |= 1 << f
	}
	if i != len(l) {
		d.fail()
	}
	return seen
}

func seenString(s string, seen, bit int) wire.Opt[string] {
	if seen&(1<<bit) == 0 {
		return wire.Opt[string]{}
	}
	return wire.Some(s)
}

var columnFields = []string{"name", "function", "target", "property"}

func (d *freader) columns(r *wire.GraphResponse) {
	n := d.table(d.section("columns"))
	var buf [4]int
	idx := d.fieldIndex(columnFields, buf[:])
	c := d.capFor(n, 4)
	d.charge(64 * int64(c))
	r.Columns = make([]wire.Column, 0, c)
	for range n {
		var f [4]string
		seen := d.stringRow(d.line(), idx, f[:])
		if seen&3 != 3 {
			d.fail()
		}
		r.Columns = append(r.Columns, wire.Column{Name: f[0], Function: f[1], Target: seenString(f[2], seen, 2), Property: seenString(f[3], seen, 3)})
	}
}

var groupFields = []string{"name", "kind", "node", "property", "entity"}

func (d *freader) groupColumns(r *wire.GraphResponse) {
	n := d.table(d.section("group_columns"))
	var buf [5]int
	idx := d.fieldIndex(groupFields, buf[:])
	c := d.capFor(n, 6)
	d.charge(96 * int64(c))
	r.GroupColumns = make([]wire.GroupColumn, 0, c)
	for range n {
		var f [5]string
		seen := d.stringRow(d.line(), idx, f[:])
		g := wire.GroupColumn{Name: f[0], Kind: wire.GroupKind(f[1]), Node: f[2], Property: seenString(f[3], seen, 3), Entity: seenString(f[4], seen, 4)}
		if seen&7 != 7 || !g.Kind.Valid() {
			d.fail()
		}
		r.GroupColumns = append(r.GroupColumns, g)
	}
}

func (d *freader) pagination(r *wire.GraphResponse) {
	d.line()
	p := &wire.Pagination{}
	l := d.indent(d.line(), 1)
	switch l {
	case "has_more=true":
		p.HasMore = true
	case "has_more=false":
	default:
		d.fail()
	}
	if l, ok := strings.CutPrefix(d.peek(), "  total_rows="); ok {
		d.line()
		v, end := d.integer(l, 0, '\n')
		if end != len(l) {
			d.fail()
		}
		p.TotalRows = wire.Some[int64](v)
	}
	switch d.peek() {
	case "  truncated=true":
		d.line()
		p.Truncated = wire.Some(true)
	case "  truncated=false":
		d.line()
		p.Truncated = wire.Some(false)
	}
	if l, ok := strings.CutPrefix(d.peek(), "  next_cursor="); ok {
		d.line()
		s, end := d.str(l, 0, '\n')
		if end != len(l) {
			d.fail()
		}
		p.NextCursor = wire.Some(s)
	}
	if p.Check() != nil {
		d.fail()
	}
	r.Pagination = p
}

// rowCols groups the columns of a rows table: a column "f>leaf" is a path
// column of the node cell f, whose columns come together, type and id
// first; any other shape is the generic path's.
func (d *freader) rowCols() {
	for k := range d.cols {
		c := &d.cols[k]
		f, leaf, ok := strings.Cut(c.name, ">")
		if !ok {
			continue
		}
		if f == "" || leaf == "" || strings.IndexByte(leaf, '>') >= 0 {
			d.fail()
		}
		c.field = f
		switch {
		case leaf == "type":
			c.leaf = 0
			for _, o := range d.cols[:k] {
				if o.field == f {
					d.fail()
				}
			}
		case k > 0 && d.cols[k-1].field == f && d.cols[k-1].leaf >= 0:
			c.leaf = d.cols[k-1].leaf + 1
			if (leaf == "id") != (c.leaf == 1) {
				d.fail()
			}
		default:
			d.fail()
		}
	}
	for k := range d.cols {
		c := &d.cols[k]
		if c.leaf == 0 && (k+1 >= len(d.cols) || d.cols[k+1].leaf != 1 || d.cols[k+1].field != c.field) {
			d.fail()
		}
		if c.leaf < 0 {
			for _, o := range d.cols {
				if o.leaf >= 0 && o.field == c.name {
					d.fail()
				}
			}
		}
	}
}

func (d *freader) rows(r *wire.GraphResponse) {
	r.Rows = []wire.Row{}
	d.tables(d.section("rows"), func(n, rowDepth, level int) {
		d.rowCols()
		for k := range n {
			if len(r.Rows) >= d.maxElem {
				d.fail()
			}
			r.Rows = append(r.Rows, d.row(k, rowDepth, level))
		}
	})
}

// row reads the k-th row of a rows table.
func (d *freader) row(k, rowDepth, level int) wire.Row {
	l, lists := d.rowPrefix(d.indent(d.line(), rowDepth), k)
	if cap(d.cells)-len(d.cells) < len(d.cols) {
		d.cells = make([]wire.Cell, 0, d.slab(len(d.cols)))
	}
	start := len(d.cells)
	d.marks = d.marks[:0]
	i := 0
	for c := 0; c < len(d.cols); c++ {
		if c > 0 {
			i = sep(d, l, i)
		}
		col := d.cols[c]
		if col.leaf < 0 {
			v, kind, end := d.scalar(l, i, '|')
			i = end
			switch kind {
			case tokAbsent:
				continue
			case tokList:
				d.marks = append(d.marks, len(d.cells)-start)
			}
			d.charge(sizeCell)
			d.cells = append(d.cells, wire.Cell{Name: col.name, Value: v})
			continue
		}
		// A node cell: its path columns.
		w := 1
		for c+w < len(d.cols) && d.cols[c+w].field == col.field && d.cols[c+w].leaf == w {
			w++
		}
		cell, ok, at := d.nodeCell(l, i, c, w)
		i = at
		c += w - 1
		if ok {
			d.cells = append(d.cells, cell)
		}
	}
	if i != len(l) || (len(d.marks) > 0) != lists {
		d.fail()
	}
	row := wire.Row(d.cells[start:len(d.cells):len(d.cells)])
	for _, m := range d.marks {
		ce := &row[m]
		ce.Value = d.attachment(ce.Name, rowDepth, level)
	}
	return row
}

// nodeCell reads the w path columns from d.cols[c] of a node cell at
// l[i:]: no cell when all are absent, a null cell when all are null, the
// node otherwise (its type a string, its id an integer).
func (d *freader) nodeCell(l string, i, c, w int) (wire.Cell, bool, int) {
	col := d.cols[c]
	absent, null := 0, 0
	typed, ided := false, false
	d.propSlab(w - 2)
	start := len(d.props)
	var n wire.Node
	for k := range w {
		if k > 0 {
			i = sep(d, l, i)
		}
		v, kind, end := d.scalar(l, i, '|')
		i = end
		switch {
		case kind == tokList:
			d.fail()
		case kind == tokAbsent:
			absent++
		case v.Kind() == wire.KindNull:
			null++
		}
		switch {
		case k == 0 && kind == tokValue && v.Kind() == wire.KindString:
			n.Type, typed = v.Text(), true
		case k == 1 && kind == tokValue && v.Kind() == wire.KindInt:
			n.ID, ided = v.Int(), true
		case k >= 2 && kind == tokValue:
			d.charge(sizeProp)
			d.props = append(d.props, wire.Property{Key: d.cols[c+k].name[len(col.field)+1:], Value: v})
		}
	}
	switch {
	case absent == w:
		d.props = d.props[:start]
		return wire.Cell{}, false, i
	case null == w:
		d.props = d.props[:start]
		d.charge(sizeCell)
		return wire.Cell{Name: col.field, Value: wire.Null()}, true, i
	case !typed || !ided:
		d.fail()
	}
	d.charge(sizeCell + sizeNode)
	if len(d.props) > start {
		n.Properties = d.props[start:len(d.props):len(d.props)]
	}
	if len(d.cellNodes) == cap(d.cellNodes) {
		d.cellNodes = make([]wire.Node, 0, d.slab(1))
	}
	d.cellNodes = append(d.cellNodes, n)
	return wire.Cell{Name: col.field, Node: &d.cellNodes[len(d.cellNodes)-1]}, true, i
}
