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
	return [...]wire.Opt[int64]{e.Depth, e.PathID, e.Step}[f]
}

func (w *writer) edges(edges []wire.Edge) {
	w.fixedTable("edges", len(edges), edgeFixed, edgeOpt,
		func(i, f int) bool { return edgeOptional(&edges[i], f).Valid },
		func(i int) {
			e := &edges[i]
			w.str(e.From)
			w.b = append(w.b, '|')
			w.b = textwire.AppendInt(w.b, e.FromID)
			w.b = append(w.b, '|')
			w.str(e.To)
			w.b = append(w.b, '|')
			w.b = textwire.AppendInt(w.b, e.ToID)
			w.b = append(w.b, '|')
			w.str(e.Type)
		},
		func(i, f int) { w.b = textwire.AppendInt(w.b, edgeOptional(&edges[i], f).V) })
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
	w.b = append(w.b, "## pagination\n  has_more="...)
	w.b = strconv.AppendBool(w.b, p.HasMore)
	if p.TotalRows.Valid {
		w.b = append(w.b, "\n  total_rows="...)
		w.b = textwire.AppendInt(w.b, p.TotalRows.V)
	}
	if p.Truncated.Valid {
		w.b = append(w.b, "\n  truncated="...)
		w.b = strconv.AppendBool(w.b, p.Truncated.V)
	}
	if p.NextCursor.Valid {
		w.b = append(w.b, "\n  next_cursor="...)
		w.str(p.NextCursor.V)
	}
	w.b = append(w.b, '\n')
}

// rows writes the aggregation rows: one table, or a list of tables (see
// addToRun; rowTable writes each).
func (w *writer) rows(rows []wire.Row) {
	w.runTables("rows", len(rows), func(i int) {
		row := rows[i]
		w.addToRun(i, len(row), func(j int) string { return row[j].Name }, nil, true)
	}, func(s span, rowDepth, level int) { w.rowTable(rows, s, rowDepth, level) })
}

// findCell returns the cell of row named name, from position *j on (the
// row's cells are in the union's order), advancing *j past it.
func findCell(row wire.Row, name string, j *int) *wire.Cell {
	if *j < len(row) && row[*j].Name == name {
		*j++
		return &row[*j-1]
	}
	return nil
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

// flatShape returns the first node of column name among rows, and
// whether the column is flattened into its path columns: every present,
// non-null cell a node of the same keys (in order), none of them empty,
// with '>' or not UTF-8, and no list among the nodes' values. A column
// that holds a node and is not flattened is a ^ cell and an attachment.
func flatShape(rows []wire.Row, name string) (first *wire.Node, flat bool) {
	for _, row := range rows {
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

// rowTable writes a run of rows as a table (see nodeTable). A column
// whose cells hold nodes of one shape is flattened into the nodes' path
// columns; any other node is a ^ cell and an attachment of the node's
// members. A run with no column (its cells' names all hold '>', or it
// has none) is an expanded list of the rows' objects.
func (w *writer) rowTable(rows []wire.Row, s span, rowDepth, level int) {
	cols := w.cols[s.c0:s.c1]
	run := rows[s.start:s.end]
	paths := anyPathName(cols)
	// The declaration: a node column's path columns, or the column; -1
	// marks a '>' name, which is no column.
	w.nodeCols = w.nodeCols[:0]
	w.b = append(w.b, '[')
	w.b = strconv.AppendInt(w.b, int64(len(run)), 10)
	declared := 0
	for _, c := range cols {
		if paths && isPathName(c) {
			w.nodeCols = append(w.nodeCols, -1)
			continue
		}
		if declared == 0 {
			w.b = append(w.b, "]{"...)
		} else {
			w.b = append(w.b, ',')
		}
		declared++
		shape, flat := flatShape(run, c)
		if !flat {
			w.nodeCols = append(w.nodeCols, 0)
			w.key(c)
			continue
		}
		w.nodeCols = append(w.nodeCols, 2+len(shape.Properties))
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
		for i, row := range run {
			w.indent(rowDepth)
			w.marker(i)
			w.b = append(w.b, "{}\n"...)
			for k := range row {
				w.member(row[k].Name, row[k].Value, row[k].Node, rowDepth+1, level+1)
			}
		}
		return
	}
	w.b = append(w.b, "}\n"...)
	for i, row := range run {
		w.indent(rowDepth)
		attach := false
		j := 0
		for ci, c := range cols {
			if cell := findCell(row, c, &j); cell != nil {
				attach = attach || w.nodeCols[ci] < 0 || w.nodeCols[ci] == 0 && (cell.Node != nil || cell.Value.Kind() == wire.KindList)
			}
		}
		if attach {
			w.marker(i)
		}
		j = 0
		first := true
		for ci, c := range cols {
			cell := findCell(row, c, &j)
			width := w.nodeCols[ci]
			if width < 0 {
				continue
			}
			if !first {
				w.b = append(w.b, '|')
			}
			first = false
			switch {
			case width == 0 && cell == nil:
				w.b = append(w.b, '~')
			case width == 0 && cell.Node != nil:
				w.b = append(w.b, '^')
			case width == 0:
				w.cell(cell.Value)
			case cell == nil || cell.Node == nil:
				mark := byte('~')
				if cell != nil {
					mark = '-'
				}
				for k := range width {
					if k > 0 {
						w.b = append(w.b, '|')
					}
					w.b = append(w.b, mark)
				}
			default:
				n := cell.Node
				w.str(n.Type)
				w.b = append(w.b, '|')
				w.b = textwire.AppendInt(w.b, n.ID)
				for k := range n.Properties {
					w.b = append(w.b, '|')
					w.scalar(n.Properties[k].Value)
				}
			}
		}
		w.b = append(w.b, '\n')
		if attach {
			for pass := range 2 {
				j = 0
				for ci, c := range cols {
					cell := findCell(row, c, &j)
					switch {
					case cell == nil, (w.nodeCols[ci] < 0) != (pass == 1):
					case w.nodeCols[ci] < 0, w.nodeCols[ci] == 0 && (cell.Node != nil || cell.Value.Kind() == wire.KindList):
						w.attach(c, cell.Value, cell.Node, rowDepth, level+1)
					}
				}
			}
		}
		if w.fail {
			return
		}
	}
}
