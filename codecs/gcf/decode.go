package gcf

import (
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Decode parses GCF text in the codec's layout into a new response (see
// the package documentation for its errors).
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, err
	}
	return c.decodeAt(data, 0, 0, true)
}

// decodeAt reads the response whose text is the GCF line then
// data[body:], after the GCF line and the fields lines of a header (a
// response's own text when body is 0: under a header, the content is a
// fragment, read from a copy charged to the memory budget); its errors
// are positioned in data. Without sinks (the tests' reference), every
// table is converted from its generic value.
func (c *Codec) decodeAt(data []byte, body, fields int, sinks bool) (*wire.GraphResponse, error) {
	text, scratch := data, 0
	if body > 0 {
		text = append(append(make([]byte, 0, len(gcfLine)+len(data)-body), gcfLine...), data[body:]...)
		scratch = len(text)
	}
	opts := c.value
	opts.Limits.MaxMaterializedBytes = min(opts.Limits.MaxMaterializedBytes, decodeBudget(len(data))-int64(scratch))
	d := readers.Get().(*reader)
	defer d.release()
	d.fragment, d.generic, d.r = body > 0, !sinks, &wire.GraphResponse{}
	v, err := gcfvalue.DecodeSinks(text, opts, d)
	if err != nil {
		return nil, shiftError(err, body, fields)
	}
	r := d.response(v)
	if d.err != nil {
		return nil, shiftError(d.err, body, fields)
	}
	// What a decoder of GCF cannot refuse as it reads (the model's rules,
	// the limits of the response as a whole) it refuses here, with the
	// encoders' own check (Measure refuses exactly what Check does).
	if _, err := wirecodec.Measure(c.core.Limits, Name, delta.Checkable(r, d.fragment)); err != nil {
		de := &wire.DecodeError{Codec: Name, Msg: err.Error()}
		if ee, ok := err.(*wire.EncodeError); ok {
			de.Msg, de.Limit = ee.Path+": "+ee.Msg, ee.Limit
		}
		return nil, de
	}
	return r, nil
}

// decodeBudget is the most memory, as gcfvalue estimates it, that the
// value and the response decoded from n input bytes may take together
// (see the package documentation).
func decodeBudget(n int) int64 { return 6*int64(n) + 6<<20 }

// reader builds the response: its sinks take the layout's tables, and
// response converts the rest. It records the first layout error.
type reader struct {
	err      *wire.DecodeError
	fragment bool // the content of a document with a header
	generic  bool // every table read as a generic value (the tests' reference)

	nodes, rows tableState
	recs        [3]recordSink // by record kind
	colBuf      [8]col
	r           *wire.GraphResponse
	scratch
}

// scratch is what a pooled reader keeps between decodes, empty: the
// nodes and rows its sinks read, up to maxSlab of each kind of element,
// until flushNodes and flushRows copy them out at their exact length (a
// response's memory is what it holds, whatever the tables it came from).
type scratch struct {
	nodeBuf   []wire.Node     // the nodes section's
	nodeProps []wire.Property // their properties
	rowBuf    []wire.Row      // the rows section's
	rowCells  []wire.Cell     // their cells
	cellNodes []wire.Node     // the cells' nodes
	cellProps []wire.Property // their properties
}

// readers holds readers between decodes.
var readers = sync.Pool{New: func() any { return new(reader) }}

// release returns d to the pool, holding nothing of the response.
func (d *reader) release() {
	s := d.scratch // a failed decode's is not flushed
	*d = reader{}
	if max(cap(s.nodeBuf), cap(s.nodeProps), cap(s.rowBuf), cap(s.rowCells), cap(s.cellNodes), cap(s.cellProps)) <= 2*maxSlab { // as appends grow it
		d.scratch = scratch{emptied(s.nodeBuf), emptied(s.nodeProps), emptied(s.rowBuf), emptied(s.rowCells), emptied(s.cellNodes), emptied(s.cellProps)}
	}
	readers.Put(d)
}

// emptied is s cleared, its room kept.
func emptied[T any](s []T) []T {
	clear(s)
	return s[:0]
}

// took is what the document holds where a sink read a table.
var took Value = &jsonvalue.Object{}

// Value is gcfvalue's generic value.
type Value = jsonvalue.Value

// Table chooses the sink of a table at path: nodes, edges and rows, each
// one table or (nodes and rows) a list of tables, when its columns are
// of a shape the sink reads; any other table is read as a generic value.
func (d *reader) Table(path []string, h *gcfvalue.TableHeader) gcfvalue.TableSink {
	if d.generic || len(path) == 0 || len(path) > 2 || len(path) == 2 && path[1] != "" {
		return nil
	}
	inList := len(path) == 2
	var t *tableState
	switch {
	case path[0] == "edges" && !inList:
		return d.recordSink(edgeRecords, h)
	case path[0] == "columns" && !inList:
		return d.recordSink(columnRecords, h)
	case path[0] == "group_columns" && !inList:
		return d.recordSink(groupRecords, h)
	case path[0] == "nodes":
		t = &d.nodes
	case path[0] == "rows":
		t = &d.rows
	default:
		return nil
	}
	if t.cols == nil {
		t.cols = d.colBuf[:0] // one table is read at a time
	}
	t.inList, t.rows, t.cols, t.h = inList, 0, t.cols[:0], h
	if t == &d.nodes {
		return d.nodeSink(h)
	}
	return d.rowSink(h)
}

// Scalar takes the document's format_version and query_type when they
// are strings, and the pagination's fields.
func (d *reader) Scalar(path []string, key string, sc *gcfvalue.Scalar) (Value, bool) {
	switch {
	case len(path) == 1 && path[0] == "pagination":
		return took, d.paginationField(key, sc)
	case len(path) != 0 || sc.Kind != gcfvalue.String:
		return nil, false
	case key == "format_version":
		d.r.FormatVersion = sc.Str
	case key == "query_type":
		d.r.QueryType = wire.QueryType(sc.Str)
	default:
		return nil, false
	}
	return took, true
}

// tableState is what a sink keeps of its table and section.
type tableState struct {
	inList bool  // the table is one of a list of tables
	n      int   // the rows the section's tables held so far
	rows   int   // the rows of the table being read
	cols   []col // the table's columns, as the sink reads them
	h      *gcfvalue.TableHeader
	// a node table's type and id columns
	typeCol, idCol int
}

// col is a column of a table being read, cell its index among the row's
// cells; or a node cell's group of path columns (cell -1) and its leaves.
type col struct {
	name   string
	cell   int
	leaves []int // a group's columns
}

// sizeCol is the memory of a col.
const sizeCol = int64(unsafe.Sizeof(col{}))

// value is what the document holds where the table is (an empty table in
// a list of tables is left to response, which refuses it).
func (t *tableState) value() Value {
	if t.inList && t.rows == 0 {
		return []Value{}
	}
	return took
}

// next counts a row, charging n bytes, and returns its index in the
// section.
func (t *tableState) next(row *gcfvalue.Row, n int64) int {
	row.Charge(n)
	t.rows++
	t.n++
	return t.n - 1
}

// sunk reports whether the section's value v was read by its sink.
func sunk(v Value) bool {
	if v == took {
		return true
	}
	items, ok := v.([]Value)
	if !ok || len(items) == 0 {
		return false
	}
	for _, it := range items {
		if it != took {
			return false
		}
	}
	return true
}

// rowError is the error of a table's row at line in the layout's terms.
func rowError(line int, path, msg string) *wire.DecodeError {
	return &wire.DecodeError{Codec: Name, Line: line, Column: 1, Msg: path + ": " + msg}
}

// elementPath names the n-th element of a section.
func elementPath(section string, n int) string { return section + "[" + strconv.Itoa(n) + "]" }

// scalar is a cell's value.
func scalar(sc *gcfvalue.Scalar) wire.Value {
	switch sc.Kind {
	case gcfvalue.Bool:
		return wire.Bool(sc.Bool)
	case gcfvalue.Number:
		return sc.Num.Value()
	case gcfvalue.String:
		return wire.String(sc.Str)
	}
	return wire.Null()
}

// attached converts the generic value of row's m-th attachment, a node
// cell when node and it is an object, with the generic conversion.
func (d *reader) attached(row *gcfvalue.Row, m int, section string, idx int, node bool) (wire.Value, *wire.Node, *wire.DecodeError) {
	mem := &row.Attached.Members[m]
	path := func() string { return elementPath(section, idx) + "." + mem.Key }
	g := reader{}
	var w wire.Value
	var n *wire.Node
	if o, ok := mem.Value.(*jsonvalue.Object); ok && o != nil && node {
		nv := g.node(o, path())
		n = &nv
	} else {
		w = g.value(mem.Value, path)
	}
	if g.err != nil {
		return wire.Value{}, nil, rowError(row.Line(), "", g.err.Msg)
	}
	return w, n, nil
}

func (d *reader) fail(path, msg string) {
	if d.err == nil {
		d.err = shapeError(path, msg)
	}
}

func (d *reader) object(v Value, path string) *jsonvalue.Object {
	o, ok := v.(*jsonvalue.Object)
	if !ok || o == nil || o == took {
		d.fail(path, "expected an object (a section or a table row)")
		return &jsonvalue.Object{}
	}
	return o
}

func (d *reader) array(v Value, path string) []Value {
	a, ok := v.([]Value)
	if !ok {
		d.fail(path, "expected a table or array")
	}
	return a
}

func (d *reader) str(v Value, path string) string {
	s, ok := v.(string)
	if !ok {
		d.fail(path, "expected a string")
	}
	return s
}

// response reads the document's value v into the response. A fragment
// may leave out format_version, query_type, nodes and edges.
func (d *reader) response(v Value) *wire.GraphResponse {
	r, seen := d.r, 0
	for _, m := range d.object(v, "document").Members {
		i := slices.Index(contentMembers, m.Key)
		if i < 0 {
			d.fail("document", "unexpected field "+strconv.Quote(m.Key))
			continue
		}
		seen |= 1 << i
		switch m.Key {
		case "format_version":
			if m.Value != took {
				r.FormatVersion = d.str(m.Value, m.Key)
			}
		case "query_type":
			if m.Value != took {
				r.QueryType = wire.QueryType(d.str(m.Value, m.Key))
			}
		case "nodes":
			d.nodeSection(m.Value)
		case "edges":
			d.records(m.Value, edgeRecords)
		case "columns":
			d.records(m.Value, columnRecords)
		case "group_columns":
			d.records(m.Value, groupRecords)
		case "rows":
			d.rowSection(m.Value)
		case "pagination":
			d.pagination(m.Value)
		}
	}
	for i, k := range contentMembers[:4] {
		if seen&(1<<i) == 0 && !d.fragment {
			d.fail("document", "missing field "+k)
		}
	}
	if (seen&2 != 0 || !d.fragment) && d.err == nil && !r.QueryType.Valid() {
		d.fail("query_type", "unknown query type "+strconv.Quote(string(r.QueryType)))
	}
	if d.err != nil {
		return nil
	}
	return r
}

// ungroup reads a table of objects, or a list of such tables, as one
// list of objects.
func (d *reader) ungroup(v Value, path string) []Value {
	items := d.array(v, path)
	if len(items) == 0 {
		return items
	}
	if _, ok := items[0].([]Value); !ok {
		return items
	}
	var out []Value
	for i, g := range items {
		t, ok := g.([]Value)
		if !ok || len(t) == 0 {
			d.fail(elementPath(path, i), "expected a non-empty table in a list of tables")
			continue
		}
		out = append(out, t...)
		clear(t) // out holds its rows now, and the reader lets go of each once read
	}
	return out
}
