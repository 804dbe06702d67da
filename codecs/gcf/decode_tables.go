package gcf

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// sizeEntry is the memory of a map entry and its share of growth.
const sizeEntry = 64

// The kinds of record a table of fixed fields holds (recordKinds).
const (
	edgeRecords = iota
	columnRecords
	groupRecords
)

// recordKinds are the sections of records: a table each, of the fields.
var recordKinds = [...]struct {
	section string
	fields  []string
	size    int64 // a record's memory
}{
	{"edges", []string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}, sizeEdge},
	{"columns", []string{"name", "function", "target", "property"}, sizeGroup},
	{"group_columns", []string{"name", "kind", "node", "property", "entity"}, sizeGroup},
}

var edgeFields = recordKinds[edgeRecords].fields

const sizeGroup = int64(unsafe.Sizeof(wire.GroupColumn{}))

// recordSink reads a table of records of kind k when each of its columns
// is one of the kind's fields.
type recordSink struct {
	d     *reader
	t     tableState
	k     int
	field [8]int // a column's index in the kind's fields
}

func (d *reader) recordSink(k int, h *gcfvalue.TableHeader) gcfvalue.TableSink {
	s, rk := &d.recs[k], &recordKinds[k]
	if h.Columns() > len(s.field) {
		return nil
	}
	for i := range h.Columns() {
		if s.field[i] = slices.Index(rk.fields, h.Column(i)); s.field[i] < 0 {
			return nil
		}
	}
	*s = recordSink{d: d, t: tableState{h: h}, k: k, field: s.field}
	h.Charge(rk.size * int64(h.Rows))
	d.startRecords(k, h.Rows)
	return s
}

func (s *recordSink) Value() Value { return s.t.value() }

// Row reads a record.
func (s *recordSink) Row(row *gcfvalue.Row) *wire.DecodeError {
	rk := &recordKinds[s.k]
	idx := s.t.next(row, 2*rk.size)
	if row.Attached != nil {
		return rowError(row.Line(), elementPath(rk.section, idx), "expected scalars, not an attachment")
	}
	var cells [8]*gcfvalue.Scalar
	for i := range row.Cells {
		cells[s.field[i]] = &row.Cells[i]
	}
	if at, msg := s.d.addRecord(s.k, &cells); msg != "" {
		return rowError(row.Line(), elementPath(rk.section, idx)+at, msg)
	}
	return nil
}

// startRecords makes room for n records of kind k, none for the generic
// reading's n of -1 (no edges, or empty columns).
func (d *reader) startRecords(k, n int) {
	switch k {
	case edgeRecords:
		d.r.Edges = nil
		if n >= 0 {
			d.r.Edges = make([]wire.Edge, 0, n)
		}
	case columnRecords:
		d.r.Columns = make([]wire.Column, 0, max(n, 0))
	default:
		d.r.GroupColumns = make([]wire.GroupColumn, 0, max(n, 0))
	}
}

// records reads the section v of records of kind k: read by the sink, or
// generic.
func (d *reader) records(v Value, k int) {
	if sunk(v) {
		return
	}
	rk := &recordKinds[k]
	d.startRecords(k, -1)
	for i, rv := range d.array(v, rk.section) {
		p := elementPath(rk.section, i)
		var cells [8]*gcfvalue.Scalar
		for _, m := range d.object(rv, p).Members {
			f := slices.Index(rk.fields, m.Key)
			if f < 0 {
				d.fail(p, "unexpected field "+strconv.Quote(m.Key))
				return
			}
			cells[f] = scalarOf(m.Value)
		}
		if at, msg := d.addRecord(k, &cells); msg != "" {
			d.fail(p+at, msg)
			return
		}
	}
}

// addRecord appends the record of kind k of the cells of its fields, by
// their index in the kind's fields (nil or Absent where absent); or it
// returns the field at fault ("" for the record) and what is wrong.
func (d *reader) addRecord(k int, cells *[8]*gcfvalue.Scalar) (at, msg string) {
	if k == edgeRecords {
		e, at, msg := edgeOf(cells)
		if msg == "" {
			d.r.Edges = append(d.r.Edges, e)
		}
		return at, msg
	}
	fields := recordKinds[k].fields
	var v [5]string
	set := 0
	for f := range fields {
		switch sc := cells[f]; {
		case sc == nil || sc.Kind == gcfvalue.Absent:
			if f < k+1 { // the name and function, or name, kind and node
				return "", "missing field " + fields[f]
			}
		case sc.Kind != gcfvalue.String:
			return "." + fields[f], "expected a string"
		default:
			v[f], set = sc.Str, set|1<<f
		}
	}
	opt := func(f int) wire.Opt[string] {
		if set&(1<<f) == 0 {
			return wire.Opt[string]{}
		}
		return wire.Some(v[f])
	}
	if k == columnRecords {
		d.r.Columns = append(d.r.Columns, wire.Column{Name: v[0], Function: v[1], Target: opt(2), Property: opt(3)})
		return "", ""
	}
	gc := wire.GroupColumn{Name: v[0], Kind: wire.GroupKind(v[1]), Node: v[2], Property: opt(3), Entity: opt(4)}
	if !gc.Kind.Valid() {
		return ".kind", "unknown group kind " + strconv.Quote(v[1])
	}
	d.r.GroupColumns = append(d.r.GroupColumns, gc)
	return "", ""
}

// edgeOf is the edge of the cells of its fields (see addRecord).
func edgeOf(cells *[8]*gcfvalue.Scalar) (e wire.Edge, at, msg string) {
	strs := [...]*string{&e.From, nil, &e.To, nil, &e.Type}
	ints := [...]*wire.Opt[int64]{nil, nil, nil, nil, nil, &e.Depth, &e.PathID, &e.Step}
	for f, sc := range cells {
		switch {
		case sc == nil || sc.Kind == gcfvalue.Absent:
			if f < 5 {
				return e, "", "missing field " + edgeFields[f]
			}
		case f == 0 || f == 2 || f == 4:
			if sc.Kind != gcfvalue.String {
				return e, "." + edgeFields[f], "expected a string"
			}
			*strs[f] = sc.Str
		case sc.Kind != gcfvalue.Number || !sc.Num.IsInt():
			return e, "." + edgeFields[f], "expected an integer"
		case f == 1:
			e.FromID, _ = sc.Num.Int64()
		case f == 3:
			e.ToID, _ = sc.Num.Int64()
		default:
			v, _ := sc.Num.Int64()
			*ints[f] = wire.Some(v)
		}
	}
	return e, "", ""
}

// notScalar is the Kind scalarOf gives an array or an object.
const notScalar = 255

// scalarOf is the generic value v as a scalar.
func scalarOf(v Value) *gcfvalue.Scalar {
	sc := &gcfvalue.Scalar{Kind: notScalar}
	switch x := v.(type) {
	case nil:
		sc.Kind = gcfvalue.Null
	case bool:
		sc.Kind, sc.Bool = gcfvalue.Bool, x
	case jsonvalue.Number:
		sc.Kind, sc.Num = gcfvalue.Number, x
	case string:
		sc.Kind, sc.Str = gcfvalue.String, x
	}
	return sc
}

// rowSink reads a rows table: a plain column is a cell, the path columns
// "f>leaf" of one f a node cell f (a deeper path leaves it generic).
func (d *reader) rowSink(h *gcfvalue.TableHeader) gcfvalue.TableSink {
	t := &d.rows
	var groups map[string]int // a node cell's index in t.cols, by name, once there are two
	last := -1                // the node cell of the last path column
	var leafBuf []int
	if cap(t.cols) < h.Columns() {
		h.Charge(sizeCol * int64(h.Columns()))
		t.cols = make([]col, 0, h.Columns())
	}
	for i := range h.Columns() {
		c := h.Column(i)
		f, leaf, isPath := strings.Cut(c, ">")
		if !isPath || f == "" || leaf == "" {
			if isPath && strings.Contains(leaf, ">") {
				return nil
			}
			t.cols = append(t.cols, col{name: c, cell: i})
			continue
		}
		if strings.IndexByte(leaf, '>') >= 0 {
			return nil
		}
		if leafBuf == nil {
			leafBuf = make([]int, 0, h.Columns()) // never grown: the leaves' pointers hold
		}
		g, ok := last, last >= 0 && t.cols[last].name == f
		if !ok && groups == nil && last >= 0 {
			h.Charge(2 * sizeEntry)
			groups = map[string]int{t.cols[last].name: last}
		}
		if !ok {
			g, ok = groups[f]
		}
		if !ok {
			g = len(t.cols)
			if groups != nil {
				h.Charge(sizeEntry)
				groups[f] = g
			}
			t.cols = append(t.cols, col{name: f, cell: -1})
		}
		last = g
		// A group's leaves are cut from leafBuf while its columns come
		// together, as they do in the text this codec writes.
		lv := &t.cols[g].leaves
		if n := len(*lv); n == 0 || &leafBuf[len(leafBuf)-1] == &(*lv)[n-1] {
			leafBuf = append(leafBuf, i)
			*lv = leafBuf[len(leafBuf)-n-1 : len(leafBuf) : len(leafBuf)]
		} else {
			*lv = append(*lv, i)
		}
	}
	if d.r.Rows == nil {
		d.r.Rows = []wire.Row{}
	}
	return (*rowSink)(d)
}

type rowSink reader

func (s *rowSink) Value() Value { return s.rows.value() }

// Row reads a row: its present cells in column order (a node cell where
// its first path column is), then its attachments of names with '>'.
func (s *rowSink) Row(row *gcfvalue.Row) *wire.DecodeError {
	d, t := (*reader)(s), &s.rows
	idx := t.next(row, 2*sizeRow+sizeCell*int64(len(t.cols)))
	if n := props(row); len(d.rowBuf) == maxSlab || max(len(d.rowCells), len(d.cellNodes), len(d.cellProps))+n > maxSlab {
		d.flushRows()
	}
	start := len(d.rowCells)
	marks := 0
	for i := range t.cols {
		c := &t.cols[i]
		if c.cell < 0 {
			cell, ok, err := d.nodeCell(row, c, idx)
			if err != nil {
				return err
			}
			if ok {
				d.rowCells = append(d.rowCells, cell)
			}
			continue
		}
		if sc := &row.Cells[c.cell]; sc.Kind != gcfvalue.Absent {
			v, n, err := d.cellValue(row, sc, &marks, "rows", idx, true)
			if err != nil {
				return err
			}
			d.rowCells = append(d.rowCells, wire.Cell{Name: c.name, Value: v, Node: d.cellNode(n)})
		}
	}
	for m := marks; row.Attached != nil && m < len(row.Attached.Members); m++ {
		v, n, err := d.attached(row, m, "rows", idx, true)
		if err != nil {
			return err
		}
		d.rowCells = append(d.rowCells, wire.Cell{Name: row.Attached.Members[m].Key, Value: v, Node: d.cellNode(n)})
	}
	d.rowBuf = append(d.rowBuf, wire.Row(d.rowCells[start:len(d.rowCells):len(d.rowCells)]))
	return nil
}

// cellNode moves an attachment's node n to the scratch, its properties
// with it, and returns where it is until flushRows.
func (d *reader) cellNode(n *wire.Node) *wire.Node {
	if n == nil {
		return nil
	}
	start := len(d.cellProps)
	d.cellProps = append(d.cellProps, n.Properties...)
	m := wire.Node{Type: n.Type, ID: n.ID}
	endNode(&m, 3, d.cellProps, start)
	d.cellNodes = append(d.cellNodes, m)
	return &d.cellNodes[len(d.cellNodes)-1]
}

// flushRows moves the rows of the reader's scratch to the response, their
// cells and the cells' nodes and properties copied out at their exact
// length, and empties it. A cell's node is the scratch's next, in order.
func (d *reader) flushRows() {
	exactProps(d.cellNodes, d.cellProps)
	nodes, cells, k := slices.Clone(d.cellNodes), slices.Clone(d.rowCells), 0
	for i := range cells {
		if cells[i].Node != nil {
			cells[i].Node, k = &nodes[k], k+1
		}
	}
	for i := range d.rowBuf {
		n := len(d.rowBuf[i])
		d.rowBuf[i], cells = cells[:n:n], cells[n:]
	}
	d.r.Rows = append(d.r.Rows, d.rowBuf...)
	d.rowBuf, d.rowCells = emptied(d.rowBuf), emptied(d.rowCells)
	d.cellNodes, d.cellProps = emptied(d.cellNodes), emptied(d.cellProps)
}

// nodeCell reads the node cell of the path columns leaves of a row: no
// cell when all are absent, a null cell when all are null, otherwise the
// node of the present ones (type a string, id an integer).
func (d *reader) nodeCell(row *gcfvalue.Row, c *col, idx int) (wire.Cell, bool, *wire.DecodeError) {
	path := func() string { return elementPath("rows", idx) + "." + c.name }
	leaves := c.leaves
	absent, null := 0, 0
	for _, k := range leaves {
		switch row.Cells[k].Kind {
		case gcfvalue.Absent:
			absent++
		case gcfvalue.Null:
			null++
		}
	}
	switch {
	case absent == len(leaves):
		return wire.Cell{}, false, nil
	case null == len(leaves):
		return wire.Cell{Name: c.name, Value: wire.Null()}, true, nil
	}
	row.Charge(sizeNode + sizeProp*int64(len(leaves)))
	start := len(d.cellProps)
	var n wire.Node
	seen := 0
	for _, k := range leaves {
		sc := &row.Cells[k]
		name := d.rows.h.Column(k)[len(c.name)+1:]
		switch {
		case sc.Kind == gcfvalue.Absent:
		case name == "type" || name == "id":
			if msg := typeID(&n, &seen, name, sc); msg != "" {
				return wire.Cell{}, false, rowError(row.Line(), path()+"."+name, msg)
			}
		default:
			d.cellProps = append(d.cellProps, wire.Property{Key: name, Value: scalar(sc)})
		}
	}
	if msg := endNode(&n, seen, d.cellProps, start); msg != "" {
		return wire.Cell{}, false, rowError(row.Line(), path(), msg)
	}
	d.cellNodes = append(d.cellNodes, n)
	return wire.Cell{Name: c.name, Node: &d.cellNodes[len(d.cellNodes)-1]}, true, nil
}

// rowSection reads the rows section: read by the sink, or generic.
func (d *reader) rowSection(v Value) {
	if sunk(v) {
		d.flushRows()
		return
	}
	d.r.Rows = []wire.Row{}
	rows := d.ungroup(v, "rows")
	for i, row := range rows {
		rows[i] = nil // read below: the collector may take it as the response grows
		p := elementPath("rows", i)
		o := d.object(row, p)
		cells := make(wire.Row, 0, len(o.Members))
		for _, m := range o.Members {
			if n, ok := m.Value.(*jsonvalue.Object); ok && n != nil {
				node := d.node(n, p+"."+m.Key)
				cells = append(cells, wire.Cell{Name: m.Key, Node: &node})
				continue
			}
			cells = append(cells, wire.Cell{Name: m.Key, Value: d.value(m.Value, func() string { return p + "." + m.Key })})
		}
		d.r.Rows = append(d.r.Rows, cells)
	}
}

// paginationField takes the pagination's field key, of value sc, and
// reports whether it is one.
func (d *reader) paginationField(key string, sc *gcfvalue.Scalar) bool {
	if d.r.Pagination == nil {
		d.r.Pagination = &wire.Pagination{}
	}
	pg, want, ok := d.r.Pagination, "expected true or false", false
	switch key {
	case "has_more":
		ok, pg.HasMore = sc.Kind == gcfvalue.Bool, sc.Bool
	case "truncated":
		ok, pg.Truncated = sc.Kind == gcfvalue.Bool, wire.Some(sc.Bool)
	case "total_rows":
		n, _ := sc.Num.Int64()
		ok, pg.TotalRows, want = sc.Kind == gcfvalue.Number && sc.Num.IsInt(), wire.Some(n), "expected an integer"
	case "next_cursor":
		ok, pg.NextCursor, want = sc.Kind == gcfvalue.String, wire.Some(sc.Str), "expected a string"
	default:
		return false
	}
	if !ok {
		d.fail("pagination."+key, want)
	}
	return true
}

// pagination checks the pagination section, whose fields paginationField
// took.
func (d *reader) pagination(v Value) {
	o := d.object(v, "pagination")
	if d.r.Pagination == nil {
		d.r.Pagination = &wire.Pagination{}
	}
	hasMore := false
	for _, m := range o.Members {
		if m.Value != took {
			d.fail("pagination", "unexpected field "+strconv.Quote(m.Key))
		}
		hasMore = hasMore || m.Key == "has_more"
	}
	if !hasMore {
		d.fail("pagination", "missing field has_more")
	}
	if d.err == nil {
		if err := d.r.Pagination.Check(); err != nil {
			d.fail("pagination", err.Error())
		}
	}
}
