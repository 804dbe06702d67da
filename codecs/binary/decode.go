package binary

import (
	"fmt"
	"math"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
)

// kind is the kind of one item of the layout as a source reports it.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kString
	kArray
)

var itemNames = [...]string{"null", "bool", "integer", "float", "string", "array"}

func (k kind) String() string { return itemNames[k] }

// token is one item: a scalar, or the head of an array (its length in i).
type token struct {
	kind kind
	b    bool
	i    int64
	f    float64
	s    string
}

// source yields the items of one encoding in order. An array's elements
// follow its head; its declared length has been checked against the
// decoder's limits and against the bytes remaining before next returns it.
type source interface {
	// next reads the next item into t. Its errors are *wire.DecodeError.
	next(t *token) error
	// fail returns a *wire.DecodeError positioned at the item last read.
	fail(msg string) error
	size() int // the length of the encoding
}

// decoder walks the layout over a source. It is the one description of the
// layout on the reading side, shared by both formats. The first error
// sticks: later reads return zero values and loops stop.
type decoder struct {
	src   source
	c     *Codec          // its limits and bounds
	names []string        // the string table: names written in full so far
	props []wire.Property // the chunk node properties are taken from
	depth int             // arrays entered
	lists int             // list values entered
	m     *wire.Meter
	err   error
	tok   token
}

func (d *decoder) reset(src source, c *Codec) {
	clear(d.names)
	*d = decoder{src: src, c: c, names: d.names[:0]}
	if c != nil {
		d.m = wire.NewMeter(c.limits, src.size())
	}
}

func (d *decoder) read() *token {
	if d.err != nil {
		return nil
	}
	if err := d.src.next(&d.tok); err != nil {
		d.err = err
		return nil
	}
	return &d.tok
}

func (d *decoder) failf(format string, args ...any) {
	if d.err == nil {
		d.err = d.src.fail(fmt.Sprintf(format, args...))
	}
}

// failLimit records a refusal by the Limits field limit, positioned at the
// item last read.
func (d *decoder) failLimit(limit, format string, args ...any) {
	if d.err == nil {
		d.err = d.src.fail(fmt.Sprintf(format, args...))
		if e, ok := d.err.(*wire.DecodeError); ok {
			e.Limit = limit
		}
	}
}

// count checks the length of one sequence of the response against
// MaxElements.
func (d *decoder) count(what string, n int) {
	if n > d.c.limits.MaxElements {
		d.failLimit("MaxElements", "%s: %d elements, more than the limit of %d", what, n, d.c.limits.MaxElements)
	}
}

// checkLen checks a string, name or key against MaxStringBytes.
func (d *decoder) checkLen(what, s string) {
	if len(s) > d.c.limits.MaxStringBytes {
		d.failLimit("MaxStringBytes", "%s: a string of %d bytes, longer than the limit of %d", what, len(s), d.c.limits.MaxStringBytes)
	}
}

// metered records a refusal by MaxMaterializedBytes when ok is false.
func (d *decoder) metered(ok bool) {
	if !ok {
		d.failLimit(d.m.LimitName(), "%s", d.m.Msg())
	}
}

func (d *decoder) wrongKind(what string, want string, t *token) {
	d.failf("%s: expected %s, found %s", what, want, t.kind)
}

// array reads an array head of min to max elements and enters it.
func (d *decoder) array(what string, min, max int) int {
	t := d.read()
	if t == nil {
		return 0
	}
	if t.kind != kArray {
		d.wrongKind(what, "array", t)
		return 0
	}
	return d.enter(what, int(t.i), min, max)
}

func (d *decoder) enter(what string, n, min, max int) int {
	switch {
	case n < min || n > max:
		if min == max {
			d.failf("%s: %d elements, expected %d", what, n, min)
		} else if max == math.MaxInt {
			d.failf("%s: %d elements, expected at least %d", what, n, min)
		} else {
			d.failf("%s: %d elements, expected %d to %d", what, n, min, max)
		}
		return 0
	case d.depth >= d.c.b.maxNesting:
		d.failLimit("MaxDepth", "%s: arrays nested deeper than %d levels", what, d.c.b.maxNesting)
		return 0
	}
	d.depth++
	return n
}

func (d *decoder) leave() { d.depth-- }

// optArray reads null (absent: -1) or an array head.
func (d *decoder) optArray(what string) int {
	t := d.read()
	if t == nil {
		return -1
	}
	switch t.kind {
	case kNull:
		return -1
	case kArray:
		return d.enter(what, int(t.i), 0, math.MaxInt)
	}
	d.wrongKind(what, "array or null", t)
	return -1
}

func (d *decoder) int(what string) int64 {
	t := d.read()
	if t == nil {
		return 0
	}
	if t.kind != kInt {
		d.wrongKind(what, "integer", t)
		return 0
	}
	return t.i
}

func (d *decoder) optInt(what string) wire.OptInt {
	t := d.read()
	if t == nil {
		return wire.OptInt{}
	}
	switch t.kind {
	case kNull:
		return wire.OptInt{}
	case kInt:
		return wire.SomeInt(t.i)
	}
	d.wrongKind(what, "integer or null", t)
	return wire.OptInt{}
}

func (d *decoder) str(what string) string {
	t := d.read()
	if t == nil {
		return ""
	}
	if t.kind != kString {
		d.wrongKind(what, "string", t)
		return ""
	}
	d.checkLen(what, t.s)
	return t.s
}

func (d *decoder) name(what string) string {
	t := d.read()
	if t == nil {
		return ""
	}
	s := d.resolve(what, t)
	d.checkLen(what, s)
	return s
}

// enum reads a name whose value must be one of an enumeration's; the
// caller compares it, and MaxStringBytes does not bound it.
func (d *decoder) enum(what string) string {
	t := d.read()
	if t == nil {
		return ""
	}
	return d.resolve(what, t)
}

// resolve turns a name item into its text: a string is a new table entry,
// an integer an index into the table.
func (d *decoder) resolve(what string, t *token) string {
	switch t.kind {
	case kString:
		d.names = append(d.names, t.s)
		return t.s
	case kInt:
		if t.i < 0 || t.i >= int64(len(d.names)) {
			d.failf("%s: name index %d out of range (table holds %d)", what, t.i, len(d.names))
			return ""
		}
		return d.names[t.i]
	}
	d.wrongKind(what, "name (string or table index)", t)
	return ""
}

func (d *decoder) optName(what string) wire.OptString {
	t := d.read()
	if t == nil || t.kind == kNull {
		return wire.OptString{}
	}
	s := d.resolve(what, t)
	d.checkLen(what, s)
	if d.err != nil {
		return wire.OptString{}
	}
	return wire.SomeString(s)
}

func (d *decoder) value(what string) wire.Value {
	t := d.read()
	if t == nil {
		return wire.Value{}
	}
	switch t.kind {
	case kNull:
		return wire.Null()
	case kBool:
		return wire.Bool(t.b)
	case kInt:
		return wire.Int(t.i)
	case kFloat:
		return wire.Float(t.f)
	case kString:
		d.checkLen(what, t.s)
		return wire.String(t.s)
	}
	if d.lists >= d.c.limits.MaxDepth {
		d.failLimit("MaxDepth", "%s: lists nested more than %d deep", what, d.c.limits.MaxDepth)
		return wire.Value{}
	}
	d.count(what, int(t.i))
	n := d.enter(what, int(t.i), 0, math.MaxInt)
	if d.err != nil {
		return wire.Value{}
	}
	d.lists++
	vs := make([]wire.Value, 0, prealloc(n))
	for i := 0; i < n && d.err == nil; i++ {
		vs = append(vs, d.value(what))
	}
	d.lists--
	d.leave()
	return wire.ListOf(vs...)
}

// maxPrealloc bounds how many elements a declared length may reserve room
// for ahead of reading them. Declared lengths are checked against the bytes
// left, but an element of one byte on the wire can take tens of bytes in
// memory; past this bound, slices grow with the elements actually read.
const maxPrealloc = 1024

func prealloc(n int) int { return min(n, maxPrealloc) }

func (d *decoder) response() *wire.GraphResponse {
	n := d.array("response", 5, 9)
	layout := d.int("layout version")
	if d.err == nil && layout != layoutVersion && layout != layoutV1 {
		d.failf("unsupported layout version %d (this decoder reads %d and %d)", layout, layoutV1, layoutVersion)
	}
	r := &wire.GraphResponse{}
	r.FormatVersion = d.str("format_version")
	r.QueryType = wire.QueryType(d.enum("query_type"))
	if d.err == nil && !r.QueryType.Valid() {
		d.failf("unknown query type %q", r.QueryType)
	}

	cnt := d.array("nodes", 0, math.MaxInt)
	d.count("nodes", cnt)
	r.Nodes = make([]wire.Node, 0, prealloc(cnt))
	for i := 0; i < cnt && d.err == nil; i++ {
		m := d.array("node", 2, math.MaxInt)
		if d.err == nil && m%2 != 0 {
			d.failf("node: %d elements, expected an even number", m)
		}
		r.Nodes = append(r.Nodes, wire.Node{})
		d.node(&r.Nodes[i], m-2)
		if d.err == nil {
			d.metered(d.m.Node(&r.Nodes[i]))
		}
		d.leave()
	}
	d.leave()

	cnt = d.array("edges", 0, math.MaxInt)
	d.count("edges", cnt)
	r.Edges = make([]wire.Edge, 0, prealloc(cnt))
	for i := 0; i < cnt && d.err == nil; i++ {
		r.Edges = append(r.Edges, wire.Edge{})
		d.edge(&r.Edges[i])
		if d.err == nil {
			d.metered(d.m.Edge(&r.Edges[i]))
		}
	}
	d.leave()

	if n > 5 {
		if cnt := d.optArray("columns"); cnt >= 0 {
			d.count("columns", cnt)
			r.Columns = make([]wire.Column, 0, prealloc(cnt))
			for i := 0; i < cnt && d.err == nil; i++ {
				r.Columns = append(r.Columns, wire.Column{})
				d.column(&r.Columns[i])
				if d.err == nil {
					d.metered(d.m.Column(&r.Columns[i]))
				}
			}
			d.leave()
		}
	}
	if n > 6 {
		if cnt := d.optArray("group_columns"); cnt >= 0 {
			d.count("group_columns", cnt)
			r.GroupColumns = make([]wire.GroupColumn, 0, prealloc(cnt))
			for i := 0; i < cnt && d.err == nil; i++ {
				r.GroupColumns = append(r.GroupColumns, wire.GroupColumn{})
				d.groupColumn(&r.GroupColumns[i])
				if d.err == nil {
					d.metered(d.m.GroupColumn(&r.GroupColumns[i]))
				}
			}
			d.leave()
		}
	}
	if n > 7 {
		if cnt := d.optArray("rows"); cnt >= 0 {
			d.count("rows", cnt)
			r.Rows = make([]wire.Row, 0, prealloc(cnt))
			for i := 0; i < cnt && d.err == nil; i++ {
				r.Rows = append(r.Rows, d.row())
			}
			d.leave()
		}
	}
	if n > 8 {
		t := d.read()
		switch {
		case t == nil:
		case t.kind == kArray:
			r.Pagination = d.pagination(int(t.i), layout)
		case t.kind != kNull:
			d.wrongKind("pagination", "array or null", t)
		}
	}
	d.leave()
	if d.err == nil {
		d.metered(d.m.Finish(r))
	}
	if d.err != nil {
		return nil
	}
	return r
}

// pagination reads the body of a pagination record of n elements, the
// array head having been read: [has_more, total_rows] in layout 1;
// [has_more, total_rows?, truncated?, next_cursor?] in layout 2, which
// must follow schema v2 or v5 (wire.Pagination.Check).
func (d *decoder) pagination(n int, layout int64) *wire.Pagination {
	if layout == layoutV1 {
		d.enter("pagination", n, 2, 2)
	} else {
		d.enter("pagination", n, 2, 4)
	}
	p := &wire.Pagination{}
	p.HasMore = d.boolean("pagination has_more")
	if layout == layoutV1 {
		p.TotalRows = wire.SomeInt(d.int("pagination total_rows"))
	} else {
		p.TotalRows = d.optInt("pagination total_rows")
		if n > 2 {
			if t := d.read(); t != nil && t.kind == kBool {
				p.Truncated = wire.SomeBool(t.b)
			} else if t != nil && t.kind != kNull {
				d.wrongKind("pagination truncated", "bool or null", t)
			}
		}
		if n > 3 {
			if t := d.read(); t != nil && t.kind == kString {
				p.NextCursor = wire.SomeString(t.s)
			} else if t != nil && t.kind != kNull {
				d.wrongKind("pagination next_cursor", "string or null", t)
			}
		}
		if d.err == nil {
			if err := p.Check(); err != nil {
				d.failf("pagination: %s", err.Error())
			}
		}
	}
	d.leave()
	if d.err != nil {
		return nil
	}
	return p
}

func (d *decoder) boolean(what string) bool {
	t := d.read()
	if t == nil {
		return false
	}
	if t.kind != kBool {
		d.wrongKind(what, "bool", t)
		return false
	}
	return t.b
}

// node reads the body of a node record, type, id and props/2 pairs, the
// array head having been read.
func (d *decoder) node(nd *wire.Node, props int) {
	nd.Type = d.name("node type")
	nd.ID = d.int("node id")
	if d.err != nil || props == 0 {
		return
	}
	n := props / 2
	d.count("node properties", n)
	if d.err != nil {
		return
	}
	nd.Properties = d.takeProps(n)
	var keys keyset.Seq
	key := func(j int) string { return nd.Properties[j].Key }
	for k := 0; k < n; k++ {
		name := d.name("property key")
		if d.err != nil {
			return
		}
		if name == "type" || name == "id" {
			d.failf("property key %q is reserved", name)
			return
		}
		if keys.Add(name, key) {
			d.failf("property key %q given twice", name)
			return
		}
		nd.Properties = append(nd.Properties, wire.Property{Key: name, Value: d.value("property value")})
	}
	if d.err == nil {
		if r := keys.Repeat(key); r >= 0 {
			d.failf("property key %q given twice", nd.Properties[r].Key)
		}
	}
}

// propChunk is how many properties the decoder allocates at once for the
// nodes of a response: nodes of at most propChunk/16 properties take theirs
// from a shared chunk, so that a response of many small nodes costs a few
// large allocations rather than one per node (and the garbage collector has
// fewer objects to mark).
const propChunk = 1024

// takeProps returns an empty slice with room for n properties.
func (d *decoder) takeProps(n int) []wire.Property {
	if n > propChunk/16 {
		return make([]wire.Property, 0, prealloc(n))
	}
	if cap(d.props)-len(d.props) < n {
		d.props = make([]wire.Property, 0, propChunk)
	}
	s := d.props[len(d.props) : len(d.props) : len(d.props)+n]
	d.props = d.props[:len(d.props)+n]
	return s
}

func (d *decoder) edge(e *wire.Edge) {
	n := d.array("edge", 5, 8)
	e.From = d.name("edge from")
	e.FromID = d.int("edge from_id")
	e.To = d.name("edge to")
	e.ToID = d.int("edge to_id")
	e.Type = d.name("edge type")
	if n > 5 {
		e.Depth = d.optInt("edge depth")
	}
	if n > 6 {
		e.PathID = d.optInt("edge path_id")
	}
	if n > 7 {
		e.Step = d.optInt("edge step")
	}
	d.leave()
}

func (d *decoder) column(c *wire.Column) {
	n := d.array("column", 2, 4)
	c.Name = d.name("column name")
	c.Function = d.name("column function")
	if n > 2 {
		c.Target = d.optName("column target")
	}
	if n > 3 {
		c.Property = d.optName("column property")
	}
	d.leave()
}

func (d *decoder) groupColumn(g *wire.GroupColumn) {
	n := d.array("group column", 3, 5)
	g.Name = d.name("group column name")
	g.Kind = wire.GroupKind(d.enum("group column kind"))
	if d.err == nil && !g.Kind.Valid() {
		d.failf("unknown group kind %q", g.Kind)
	}
	g.Node = d.name("group column node")
	if n > 3 {
		g.Property = d.optName("group column property")
	}
	if n > 4 {
		g.Entity = d.optName("group column entity")
	}
	d.leave()
}

func (d *decoder) row() wire.Row {
	n := d.array("row", 0, math.MaxInt)
	d.count("row", n)
	if d.err != nil {
		return nil
	}
	row := make(wire.Row, 0, prealloc(n))
	for j := 0; j < n && d.err == nil; j++ {
		row = append(row, wire.Cell{})
		c := &row[j]
		m := d.array("cell", 2, math.MaxInt)
		switch {
		case d.err != nil:
		case m == 2:
			c.Name = d.name("cell name")
			c.Value = d.value("cell value")
		case m%2 == 1:
			c.Name = d.name("cell name")
			c.Node = &wire.Node{}
			d.node(c.Node, m-3)
		default:
			d.failf("cell: %d elements, expected 2 (a value) or an odd number (a node)", m)
		}
		if d.err == nil {
			d.metered(d.m.Cell(c))
		}
		d.leave()
	}
	if d.err == nil {
		d.metered(d.m.EndRow(len(row)))
	}
	d.leave()
	return row
}

// Decode parses one response. Bad input gives a *wire.DecodeError naming
// the byte offset; nothing is allocated for a length the input declares
// before that length has been checked against the limits and against the
// bytes that remain.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	switch {
	case int64(len(data)) > c.limits.MaxInputBytes:
		e := decodeError(c.format.String(), int(c.limits.MaxInputBytes),
			fmt.Sprintf("input of %d bytes exceeds the limit of %d", len(data), c.limits.MaxInputBytes), nil)
		e.Limit = "MaxInputBytes"
		return nil, e
	case len(data) == 0:
		return nil, decodeError(c.format.String(), 0, "empty input", nil)
	case c.format == CBOR:
		return c.decodeCBOR(data)
	}
	return c.decodeMsgpack(data)
}
