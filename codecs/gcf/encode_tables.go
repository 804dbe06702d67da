package gcf

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// optOrder records, in w.opt, the optional fields present[i] says each
// object holds, in first-seen order (a table's union); it returns how
// many.
func (w *writer) optOrder(n int, present func(i, f int) bool) int {
	var seen [3]bool
	k := 0
	for i := 0; i < n && k < 3; i++ {
		for f := range 3 {
			if !seen[f] && present(i, f) {
				seen[f] = true
				w.opt[k] = uint8(f)
				k++
			}
		}
	}
	return k
}

// header writes "## name [n]{fixed...,optional in first-seen order}\n", or
// "## name [0]\n".
func (w *writer) header(name string, n int, fixed []string, opt []string, k int) {
	w.b = append(w.b, "## "...)
	w.b = append(w.b, name...)
	w.b = append(w.b, " ["...)
	w.b = textwire.AppendInt(w.b, int64(n))
	if n == 0 {
		w.b = append(w.b, "]\n"...)
		return
	}
	w.b = append(w.b, "]{"...)
	for i, f := range fixed {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(w.b, f...)
	}
	for _, f := range w.opt[:k] {
		w.b = append(w.b, ',')
		w.b = append(w.b, opt[f]...)
	}
	w.b = append(w.b, "}\n"...)
}

var (
	edgeFixed   = []string{"from", "from_id", "to", "to_id", "type"}
	edgeOpt     = []string{"depth", "path_id", "step"}
	columnFixed = []string{"name", "function"}
	columnOpt   = []string{"target", "property"}
	groupFixed  = []string{"name", "kind", "node"}
	groupOpt    = []string{"property", "entity"}
)

// fixedTable writes a section of n rows: the fixed columns, then the
// optional ones some row has, in first-seen order, ~ where a row has not.
// row(i) writes row i's fixed cells, has(i, f) reports whether it has the
// f-th optional field, opt(i, f) writes it.
func (w *writer) fixedTable(name string, n int, fixed, optional []string, has func(i, f int) bool, row func(i int), opt func(i, f int)) {
	k := w.optOrder(n, func(i, f int) bool { return f < len(optional) && has(i, f) })
	w.header(name, n, fixed, optional, k)
	for i := range n {
		row(i)
		for _, f := range w.opt[:k] {
			w.b = append(w.b, '|')
			if has(i, int(f)) {
				opt(i, int(f))
			} else {
				w.b = append(w.b, '~')
			}
		}
		w.b = append(w.b, '\n')
	}
}

func edgeOptional(e *wire.Edge, f int) wire.Opt[int64] {
	switch f {
	case 0:
		return e.Depth
	case 1:
		return e.PathID
	}
	return e.Step
}

// edges writes the edges table (see fixedTable), in a loop of its own:
// a response has many edges.
func (w *writer) edges(edges []wire.Edge) {
	k := w.optOrder(len(edges), func(i, f int) bool { return edgeOptional(&edges[i], f).Valid })
	w.header("edges", len(edges), edgeFixed, edgeOpt, k)
	for i := range edges {
		e := &edges[i]
		w.name(e.From)
		w.b = append(w.b, '|')
		w.b = textwire.AppendInt(w.b, e.FromID)
		w.b = append(w.b, '|')
		w.name(e.To)
		w.b = append(w.b, '|')
		w.b = textwire.AppendInt(w.b, e.ToID)
		w.b = append(w.b, '|')
		w.name(e.Type)
		for _, f := range w.opt[:k] {
			w.b = append(w.b, '|')
			if v := edgeOptional(e, int(f)); v.Valid {
				w.b = textwire.AppendInt(w.b, v.V)
			} else {
				w.b = append(w.b, '~')
			}
		}
		w.b = append(w.b, '\n')
	}
}

// strCells writes ss as cells of one row.
func (w *writer) strCells(ss ...string) {
	for i, s := range ss {
		if i > 0 {
			w.b = append(w.b, '|')
		}
		w.str(s)
	}
}

func (w *writer) columns(cols []wire.Column) {
	opt := func(i, f int) wire.Opt[string] { return [...]wire.Opt[string]{cols[i].Target, cols[i].Property}[f] }
	w.fixedTable("columns", len(cols), columnFixed, columnOpt,
		func(i, f int) bool { return opt(i, f).Valid },
		func(i int) { w.strCells(cols[i].Name, cols[i].Function) },
		func(i, f int) { w.str(opt(i, f).V) })
}

func (w *writer) groupColumns(gcs []wire.GroupColumn) {
	for i := range gcs {
		if !gcs[i].Kind.Valid() {
			w.fail = true
			return
		}
	}
	opt := func(i, f int) wire.Opt[string] { return [...]wire.Opt[string]{gcs[i].Property, gcs[i].Entity}[f] }
	w.fixedTable("group_columns", len(gcs), groupFixed, groupOpt,
		func(i, f int) bool { return opt(i, f).Valid },
		func(i int) { w.strCells(gcs[i].Name, string(gcs[i].Kind), gcs[i].Node) },
		func(i, f int) { w.str(opt(i, f).V) })
}

func (w *writer) pagination(p *wire.Pagination) {
	if p.Check() != nil {
		w.fail = true
		return
	}
	w.b = append(w.b, "## pagination\n"...)
	for _, f := range [...]struct {
		name string
		v    wire.Value
		ok   bool
	}{
		{"has_more", wire.Bool(p.HasMore), true},
		{"total_rows", wire.Int(p.TotalRows.V), p.TotalRows.Valid},
		{"truncated", wire.Bool(p.Truncated.V), p.Truncated.Valid},
		{"next_cursor", wire.String(p.NextCursor.V), p.NextCursor.Valid},
	} {
		if f.ok {
			w.member(f.name, f.v, nil, 1, 2)
		}
	}
}

// rows writes the aggregation rows: one table, or a list of tables (see
// addToRun; table writes each).
func (w *writer) rows(rows []wire.Row) {
	w.runTables("rows", len(rows), func(i int) {
		row := rows[i]
		w.addToRun(i, len(row), func(j int) string { return row[j].Name }, nil, true)
	}, func(s span, rowDepth, level int) { w.table(run{rows: rows}, s, rowDepth, level) })
}

// cellNamed returns the cell of row named name, or nil.
func cellNamed(row wire.Row, name string) *wire.Cell {
	for j := range row {
		if row[j].Name == name {
			return &row[j]
		}
	}
	return nil
}

// flatShape returns the first node of column name among the rows s of t,
// and whether the column is flattened into its path columns: every
// present, non-null cell a node of the same keys (in order), none of them
// empty, with '>' or not UTF-8, and no list among the nodes' values. A
// node table has no such column.
func (t run) flatShape(s span, name string) (first *wire.Node, flat bool) {
	if t.rows == nil {
		return nil, false
	}
	for _, row := range t.rows[s.start:s.end] {
		c := cellNamed(row, name)
		switch {
		case c == nil || c.Node == nil && c.Value.Kind() == wire.KindNull:
		case c.Node == nil:
			return nil, false
		case hasList(c.Node.Properties):
			return c.Node, false
		case first == nil:
			first = c.Node
			for i := range first.Properties {
				k := first.Properties[i].Key
				if k == "" || strings.IndexByte(k, '>') >= 0 || !utf8.ValidString(k) {
					return first, false
				}
			}
		case !wirecodec.SameKeys(first.Properties, c.Node.Properties):
			return first, false
		}
	}
	return first, first != nil
}

// run is the objects a table writes: nodes, whose rows start with the
// columns type and id, or aggregation rows.
type run struct {
	nodes []wire.Node
	rows  []wire.Row
}

// members are the members of one object of a run: a node's properties or
// a row's cells.
type members struct {
	ps []wire.Property
	cs wire.Row
}

func (t run) members(i int) members {
	if t.rows != nil {
		return members{cs: t.rows[i]}
	}
	return members{ps: t.nodes[i].Properties}
}

// find returns the value and node of the member named name, looked for at
// position *j (an object's members are in its table's column order),
// advancing *j past it; ok is false when there is none.
func (m members) find(name string, j *int) (v *wire.Value, n *wire.Node, ok bool) {
	if m.cs != nil {
		if *j < len(m.cs) && m.cs[*j].Name == name {
			*j++
			return &m.cs[*j-1].Value, m.cs[*j-1].Node, true
		}
	} else if *j < len(m.ps) && m.ps[*j].Key == name {
		*j++
		return &m.ps[*j-1].Value, nil, true
	}
	return nil, nil, false
}

// table writes the objects s of t as a table, rows at rowDepth (an
// indent) and level (the generic value's nesting of a row). A member
// whose name holds '>' is no column (spec §7.4.6.1): it is an attachment
// after its row, after the others. A column of rows whose cells hold
// nodes of one shape is flattened into the nodes' path columns; any
// other node, and a list, is a ^ cell and an attachment (the node's
// members, the list). Rows with no column (their names all hold '>', or
// they have none) are an expanded list of the rows' objects.
func (w *writer) table(t run, s span, rowDepth, level int) {
	cols := w.cols[s.c0:s.c1]
	lead := 0 // the columns type and id of a node table
	if t.nodes != nil {
		lead = 2
	}
	if !w.declare(t, s, cols, lead) {
		for i := s.start; i < s.end; i++ {
			w.indent(rowDepth)
			w.marker(i - s.start)
			w.b = append(w.b, "{}\n"...)
			for _, c := range t.rows[i] {
				w.member(c.Name, c.Value, c.Node, rowDepth+1, level+1)
			}
		}
		return
	}
	cols = cols[lead:]
	for i := s.start; i < s.end; i++ {
		w.indent(rowDepth)
		at := len(w.b) // where the row's marker goes, when it has attachments
		attach := false
		first := true
		if lead > 0 {
			n := &t.nodes[i]
			w.name(n.Type)
			w.b = append(w.b, '|')
			w.b = textwire.AppendInt(w.b, n.ID)
			first = false
		}
		m := t.members(i)
		j := 0
		for ci, c := range cols {
			v, node, ok := m.find(c, &j)
			width := w.nodeCols[ci]
			if width < 0 {
				attach = attach || ok
				continue
			}
			if !first {
				w.b = append(w.b, '|')
			}
			first = false
			switch {
			case width == 0 && !ok:
				w.b = append(w.b, '~')
			case width == 0 && (node != nil || v.Kind() == wire.KindList):
				w.b = append(w.b, '^')
				attach = true
			case width == 0:
				w.scalar(*v)
			case !ok || node == nil:
				mark := byte('~')
				if ok {
					mark = '-'
				}
				for k := range width {
					if k > 0 {
						w.b = append(w.b, '|')
					}
					w.b = append(w.b, mark)
				}
			default:
				w.name(node.Type)
				w.b = append(w.b, '|')
				w.b = textwire.AppendInt(w.b, node.ID)
				for k := range node.Properties {
					w.b = append(w.b, '|')
					w.scalar(node.Properties[k].Value)
				}
			}
		}
		w.b = append(w.b, '\n')
		if attach {
			w.insertMarker(at, i-s.start)
		}
		for pass := 0; attach && pass < 2; pass++ {
			j = 0
			for ci, c := range cols {
				v, node, ok := m.find(c, &j)
				width := w.nodeCols[ci]
				switch {
				case !ok, (width < 0) != (pass == 1):
				case width < 0, width == 0 && (node != nil || v.Kind() == wire.KindList):
					w.attach(c, *v, node, rowDepth, level+1)
				}
			}
		}
		if w.fail {
			return
		}
	}
}

// insertMarker inserts the marker "@i " at w.b[at], before a row found to
// have attachments while it was written.
func (w *writer) insertMarker(at, i int) {
	n := len(w.b)
	w.marker(i)
	k := len(w.b) - n
	var mark [24]byte
	copy(mark[:], w.b[n:])
	copy(w.b[at+k:], w.b[at:n])
	copy(w.b[at:], mark[:k])
}

// declare writes the count and the declaration of a table of the objects
// s of t, "[n]{...}\n": a column's name, a flattened node column's path
// columns, nothing for a name with '>'. It sets w.nodeCols for
// cols[lead:]: -1 for a name with '>', a flattened column's width, 0
// otherwise. With no column to declare it writes "[n]\n" and reports
// false.
func (w *writer) declare(t run, s span, cols []string, lead int) bool {
	w.nodeCols = w.nodeCols[:0]
	w.b = append(w.b, '[')
	w.b = strconv.AppendInt(w.b, int64(s.end-s.start), 10)
	declared := 0
	for ci, c := range cols {
		width, shape := -1, (*wire.Node)(nil)
		if !isPathName(c) {
			width = 0
			if sh, flat := t.flatShape(s, c); flat {
				width, shape = 2+len(sh.Properties), sh
			}
		}
		if ci >= lead {
			w.nodeCols = append(w.nodeCols, width)
		}
		if width < 0 {
			continue
		}
		if declared == 0 {
			w.b = append(w.b, "]{"...)
		} else {
			w.b = append(w.b, ',')
		}
		declared++
		if shape == nil {
			w.key(c)
			continue
		}
		w.b = gcfvalue.AppendPathColumn(w.b, c, "type")
		w.b = append(w.b, ',')
		w.b = gcfvalue.AppendPathColumn(w.b, c, "id")
		for _, p := range shape.Properties {
			w.b = append(w.b, ',')
			w.b = gcfvalue.AppendPathColumn(w.b, c, p.Key)
		}
	}
	if declared == 0 {
		w.b = append(w.b, "]\n"...)
		return false
	}
	w.b = append(w.b, "}\n"...)
	return true
}
