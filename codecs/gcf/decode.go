package gcf

import (
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Decode parses GCF text in the codec's layout into a new response. Bad
// text gives a *wire.DecodeError: positioned (line, column) when the GCF
// is malformed or a table's row holds no part of a response, naming the
// place in the layout ("nodes[3].id: ...") when well-formed GCF does not
// hold a response.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, err
	}
	return c.decodeAt(data, 0, 0, true)
}

// decodeAt reads the response whose text is the GCF line then
// data[body:], after the GCF line and the fields lines of a header (a
// response's own text when body is 0: under a header, the content is a
// fragment); its errors are positioned in data. gcfvalue reads the text
// in one pass, the layout's tables into the response by the sinks (see
// sinks), the rest into generic values converted after; without sinks
// (the tests' reference), every table is converted from its generic
// value. A document's content is read from a copy of its text, which the
// memory budget is charged with.
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
	d.fragment, d.r = body > 0, &wire.GraphResponse{}
	var s gcfvalue.Sinks
	if sinks {
		s = d
	}
	v, err := gcfvalue.DecodeSinks(text, opts, s)
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
	if _, err := wirecodec.Measure(c.core.Limits, Name, checked(r, d.fragment)); err != nil {
		var ee *wire.EncodeError
		if e, ok := err.(*wire.EncodeError); ok {
			ee = e
		}
		de := &wire.DecodeError{Codec: Name, Msg: err.Error()}
		if ee != nil {
			de.Msg, de.Limit = ee.Path+": "+ee.Msg, ee.Limit
		}
		return nil, de
	}
	return r, nil
}

// decodeBudget is the most memory, as gcfvalue estimates it, that the
// value and the response decoded from n input bytes may take together: 6
// times the input plus 6 MiB, which holds a decode's peak heap (the
// input's copy and the collector's slack included) within 16 times the
// input plus 16 MiB.
func decodeBudget(n int) int64 { return 6*int64(n) + 6<<20 }

// reader builds the response: its sinks take the layout's tables as
// gcfvalue reads them, and response converts the rest of the document's
// generic value. It records the first layout error.
type reader struct {
	err      *wire.DecodeError
	fragment bool // the content of a document with a header

	nodes, edges, rows    tableState
	columnRecs, groupRecs recordSink
	colBuf                [8]col
	r                     *wire.GraphResponse
	props                 []wire.Property // the slab node properties are cut from
	cells                 []wire.Cell     // the slab row cells are cut from
	cellNodes             []wire.Node     // the slab of row cells' nodes
	slabLen, slabMax      int             // see newSlab
}

// readers holds readers between decodes, so that a decode of a small
// document neither allocates nor zeroes one.
var readers = sync.Pool{New: func() any { return new(reader) }}

// release returns d to the pool, holding nothing of the response.
func (d *reader) release() {
	*d = reader{}
	readers.Put(d)
}

// took is what the document holds where a sink read a table.
var took Value = &jsonvalue.Object{}

// Value is gcfvalue's generic value.
type Value = jsonvalue.Value

// Table chooses the sink of a table at path: nodes, edges and rows, each
// one table or (nodes and rows) a list of tables, when its columns are
// of a shape the sink reads; any other table is read as a generic value.
func (d *reader) Table(path []string, h *gcfvalue.TableHeader) gcfvalue.TableSink {
	if len(path) == 0 || len(path) > 2 || len(path) == 2 && path[1] != "" {
		return nil
	}
	inList := len(path) == 2
	var t *tableState
	switch {
	case path[0] == "columns" && !inList:
		return d.recordSink(&d.columnRecs, h, columnFields, 2)
	case path[0] == "group_columns" && !inList:
		return d.recordSink(&d.groupRecs, h, groupFields, 3)
	case path[0] == "nodes":
		t = &d.nodes
	case path[0] == "edges" && !inList:
		t = &d.edges
	case path[0] == "rows":
		t = &d.rows
	default:
		return nil
	}
	if t.cols == nil {
		t.cols = d.colBuf[:0] // one table is read at a time
	}
	t.inList, t.rows, t.cols, t.h = inList, 0, t.cols[:0], h
	d.sizeSlabs(h)
	switch t {
	case &d.nodes:
		return d.nodeSink(h, inList)
	case &d.edges:
		return d.edgeSink(h)
	}
	return d.rowSink(h)
}

// Scalar takes the document's format_version and query_type when they
// are strings.
func (d *reader) Scalar(path []string, key string, sc *gcfvalue.Scalar) (Value, bool) {
	if len(path) != 0 || sc.Kind != gcfvalue.String {
		return nil, false
	}
	switch key {
	case "format_version":
		d.r.FormatVersion = sc.Str
	case "query_type":
		d.r.QueryType = wire.QueryType(sc.Str)
	default:
		return nil, false
	}
	return took, true
}

// tableState is what a sink keeps of the table it reads and of its
// section.
type tableState struct {
	inList bool  // the table is one of a list of tables
	n      int   // the rows the section's tables held so far
	rows   int   // the rows of the table being read
	cols   []col // the table's columns, as the sink reads them
	h      *gcfvalue.TableHeader
	// a node table's type and id columns
	typeCol, idCol int
}

// col is a column of a table being read, or a node cell's group of path
// columns of a rows table: cell is the column's index among the row's
// cells (-1 for a group), leaves the group's columns.
type col struct {
	name   string
	cell   int
	field  int   // an edge column's index in edgeFields
	leaves []int // a group's columns
}

// sizeCol is the memory of a col.
const sizeCol = int64(unsafe.Sizeof(col{}))

// value is what the document holds where the table is: an empty table in
// a list of tables, which the layout refuses, is left to response.
func (t *tableState) value() Value {
	if t.inList && t.rows == 0 {
		return []Value{}
	}
	return took
}

// next counts a row of the table, charging n bytes for what it builds,
// and returns its index in the section.
func (t *tableState) next(row *gcfvalue.Row, n int64) int {
	row.Charge(n)
	t.rows++
	t.n++
	return t.n - 1
}

// sunk reports whether the section's value v was read by its sink: one
// table, or a list of tables all read by it.
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

// attached converts the generic value v of a row's attachment at line,
// a node cell when node and v is an object, with the generic conversion;
// path names it, made only when needed.
func (d *reader) attached(line int, v Value, path func() string, node bool) (wire.Value, *wire.Node, *wire.DecodeError) {
	g := reader{}
	if o, ok := v.(*jsonvalue.Object); ok && o != nil && node {
		n := g.node(o, path())
		if g.err != nil {
			return wire.Value{}, nil, rowError(line, "", g.err.Msg)
		}
		return wire.Value{}, &n, nil
	}
	w := g.value(v, path)
	if g.err != nil {
		return wire.Value{}, nil, rowError(line, "", g.err.Msg)
	}
	return w, nil, nil
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

func (d *reader) integer(v Value, path string) int64 {
	n, ok := v.(jsonvalue.Number)
	if ok && n.IsInt() {
		i, _ := n.Int64()
		return i
	}
	d.fail(path, "expected an integer")
	return 0
}

// fields reads the members of o: the required ones in req, the optional
// ones in opt; any other member is an error.
func (d *reader) fields(o *jsonvalue.Object, path string, req, opt []string) fieldMap {
	m := fieldMap(o.Members)
	for _, mem := range m {
		if !slices.Contains(req, mem.Key) && !slices.Contains(opt, mem.Key) {
			d.fail(path, "unexpected field "+strconv.Quote(mem.Key))
		}
	}
	for _, k := range req {
		if _, ok := m.get(k); !ok {
			d.fail(path, "missing field "+k)
		}
	}
	return m
}

// fieldMap is an object's members (their keys distinct), looked up by key.
type fieldMap []jsonvalue.Member

func (m fieldMap) get(k string) (Value, bool) {
	for _, x := range m {
		if x.Key == k {
			return x.Value, true
		}
	}
	return nil, false
}

// v is the value of the member k, nil when absent.
func (m fieldMap) v(k string) Value {
	v, _ := m.get(k)
	return v
}

func (d *reader) optInt(m fieldMap, k, path string) wire.Opt[int64] {
	v, ok := m.get(k)
	if !ok {
		return wire.Opt[int64]{}
	}
	return wire.Some[int64](d.integer(v, path+"."+k))
}

func (d *reader) optString(m fieldMap, k, path string) wire.Opt[string] {
	v, ok := m.get(k)
	if !ok {
		return wire.Opt[string]{}
	}
	return wire.Some(d.str(v, path+"."+k))
}

// response reads the document's value v into the response, taking the
// tables its sinks read. A fragment (the content of a document with a
// header) may leave out format_version, query_type, nodes and edges.
func (d *reader) response(v Value) *wire.GraphResponse {
	if d.err != nil {
		return nil
	}
	req, opt := []string{"format_version", "query_type", "nodes", "edges"}, []string{"columns", "group_columns", "rows", "pagination"}
	if d.fragment {
		req, opt = nil, append(req, opt...)
	}
	top := d.fields(d.object(v, "document"), "document", req, opt)
	r := d.r
	if v, ok := top.get("format_version"); (ok || !d.fragment) && v != took {
		r.FormatVersion = d.str(v, "format_version")
	}
	if v, ok := top.get("query_type"); ok || !d.fragment {
		if v != took {
			r.QueryType = wire.QueryType(d.str(v, "query_type"))
		}
		if d.err == nil && !r.QueryType.Valid() {
			d.fail("query_type", "unknown query type "+strconv.Quote(string(r.QueryType)))
		}
	}
	if v, ok := top.get("nodes"); ok || !d.fragment {
		d.nodeSection(v)
	}
	if v, ok := top.get("edges"); ok || !d.fragment {
		d.edgeSection(v)
	}
	if v, ok := top.get("columns"); ok {
		d.records(v, 2)
	}
	if v, ok := top.get("group_columns"); ok {
		d.records(v, 3)
	}
	if v, ok := top.get("rows"); ok {
		d.rowSection(v)
	}
	if v, ok := top.get("pagination"); ok {
		d.pagination(v)
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
