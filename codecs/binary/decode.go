package binary

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Decode parses one response; bad input gives a *wire.DecodeError naming
// the byte offset (see the package documentation, Security).
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) { return c.decode(data, false) }

// decode is Decode, or with content a document's, whose query type may be "".
func (c *Codec) decode(data []byte, content bool) (*wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, &wire.DecodeError{Codec: c.format.String(), Msg: "empty input"}
	}
	st := decPool.Get().(*decState)
	defer func() {
		st.src.reset(nil, 0, nil)
		st.d.reset(nil, nil)
		decPool.Put(st)
	}()
	st.src.reset(data, c.format, c)
	st.d.reset(&st.src, c)
	st.d.content = content
	r := st.d.response()
	if st.d.err != nil {
		return nil, st.d.err
	}
	if st.src.off != len(data) {
		return nil, st.src.failAt(st.src.off, fmt.Sprintf("%d trailing bytes after the response", len(data)-st.src.off), nil)
	}
	return r, nil
}

// decState is what a decode borrows: its source and decoder, whose string
// table is kept from one response to the next.
type decState struct {
	src source
	d   decoder
}

var decPool = sync.Pool{New: func() any { return &decState{} }}

func (d *decoder) response() *wire.GraphResponse {
	n := d.array("response", 5, 9)
	layout := d.int("layout version")
	if d.err == nil && layout != layoutVersion && layout != layoutV1 {
		d.failf("unsupported layout version %d (Decode reads %d and %d)", layout, layoutV1, layoutVersion)
	}
	r := &wire.GraphResponse{}
	r.FormatVersion = d.str("format_version")
	r.QueryType = wire.QueryType(d.enum("query_type"))
	if d.err == nil && !r.QueryType.Valid() && !(d.content && r.QueryType == "") {
		d.failf("unknown query type %q", r.QueryType)
	}

	r.Nodes = records(d, "nodes", d.array("nodes", 0, math.MaxInt), d.nodeRecord, d.m.Node)
	r.Edges = records(d, "edges", d.array("edges", 0, math.MaxInt), d.edge, d.m.Edge)
	if n > 5 {
		if cnt := d.optArray("columns"); cnt >= 0 {
			r.Columns = records(d, "columns", cnt, d.column, d.m.Column)
		}
	}
	if n > 6 {
		if cnt := d.optArray("group_columns"); cnt >= 0 {
			r.GroupColumns = records(d, "group_columns", cnt, d.groupColumn, d.m.GroupColumn)
		}
	}
	if n > 7 {
		if cnt := d.optArray("rows"); cnt >= 0 {
			// A row meters its cells as it reads them.
			r.Rows = records(d, "rows", cnt, func(row *wire.Row) { *row = d.row() }, nil)
		}
	}
	if n > 8 {
		if t := d.item("pagination", kArray, true); t != nil {
			r.Pagination = d.pagination(int(t.i), layout)
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

// records reads the n records of an entered array, each with read and
// then meter (when not nil), and leaves the array.
func records[T any](d *decoder, what string, n int, read func(*T), meter func(*T) bool) []T {
	d.count(what, n)
	var zero T
	c, r := d.reserve(what, n, int64(unsafe.Sizeof(zero)))
	if d.err != nil {
		return nil
	}
	s := make([]T, 0, c)
	for i := 0; i < n && d.err == nil; i++ {
		s = append(s, zero)
		read(&s[i])
		if meter != nil && d.err == nil {
			d.metered(meter(&s[i]))
		}
	}
	d.release(r)
	d.leave()
	return s
}

// pagination reads the body of a pagination record of n elements:
// [has_more, total_rows] in layout 1, schema v2's or v5's in layout 2.
func (d *decoder) pagination(n int, layout int64) *wire.Pagination {
	d.enter("pagination", n, 2, 2+2*int(layout-layoutV1)) // layout 1: 2 elements; layout 2: up to 4
	p := &wire.Pagination{}
	p.HasMore = d.boolean("pagination has_more")
	if layout == layoutV1 {
		p.TotalRows = wire.Some[int64](d.int("pagination total_rows"))
	} else {
		p.TotalRows = d.optInt("pagination total_rows")
		if n > 2 {
			if t := d.item("pagination truncated", kBool, true); t != nil {
				p.Truncated = wire.Some(t.b)
			}
		}
		if n > 3 {
			if t := d.item("pagination next_cursor", kString, true); t != nil {
				p.NextCursor = wire.Some(t.s)
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

// nodeRecord reads [type, id, key, value, ...].
func (d *decoder) nodeRecord(nd *wire.Node) {
	m := d.array("node", 2, math.MaxInt)
	if d.err == nil && m%2 != 0 {
		d.failf("node: %d elements, expected an even number", m)
	}
	d.node(nd, m-2)
	d.leave()
}

// node reads type, id and props/2 pairs, the array head having been read.
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
	var r int64
	nd.Properties, r = alloc(d, &d.props, "node properties", n, sizeProperty)
	defer d.release(r)
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
	d.optNames(n-2, []string{"column target", "column property"}, &c.Target, &c.Property)
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
	d.optNames(n-3, []string{"group column property", "group column entity"}, &g.Property, &g.Entity)
	d.leave()
}

// optNames reads a record's n optional names, called what, into fields.
func (d *decoder) optNames(n int, what []string, fields ...*wire.Opt[string]) {
	for k := 0; k < n && k < len(fields); k++ {
		*fields[k] = d.optName(what[k])
	}
}

// The sizes in memory of a property, a cell and a list item.
const (
	sizeProperty = int64(unsafe.Sizeof(wire.Property{}))
	sizeCell     = int64(unsafe.Sizeof(wire.Cell{}))
	sizeValue    = int64(unsafe.Sizeof(wire.Value{}))
)

func (d *decoder) row() wire.Row {
	n := d.array("row", 0, math.MaxInt)
	d.count("row", n)
	if d.err != nil {
		return nil
	}
	row, r := alloc(d, &d.cells, "row", n, sizeCell)
	if d.err != nil {
		return nil
	}
	defer d.release(r)
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
			c.Node = &take(&d.nodes, 1, d.src.left())[:1][0]
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
		if i := keyset.FirstRepeat(len(row), func(i int) string { return row[i].Name }); i >= 0 {
			d.failf("row: duplicate cell %s", textwire.Excerpt(row[i].Name))
		}
	}
	if d.err == nil {
		d.metered(d.m.EndRow(len(row)))
	}
	d.leave()
	return row
}
