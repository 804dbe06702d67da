package toon

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Decode reads a response written in the layout of Encode, or any TOON
// text (spec v4.0, strict mode) of that shape, under the default
// wire.Limits (see Errors and Security in the package documentation).
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// Decode is the package-level Decode under the codec's limits.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	_, r, err := c.read(data, &tables{lim: c.core.Limits, src: data}, false)
	return r, err
}

// read reads data in one pass, the arrays s takes by its sinks and the
// rest into generic values, then converts it: a response, or with doc a
// document (see head.go).
func (c *Codec) read(data []byte, s toonread.Sinks, doc bool) ([]delta.Field, *wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, nil, err
	}
	l := c.core.Limits
	opts, lim := readerOptions(l)
	v, err := toonread.DecodeSinks(data, opts, lim, s)
	if err != nil {
		return nil, nil, err
	}
	d := graphDecoder{src: data, lim: l, doc: doc}
	r := d.document(v)
	if d.err == nil && r != nil {
		d.measure(r)
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return d.header, r, nil
}

// readerOptions are the reader's options and limits under l.
func readerOptions(l wire.Limits) (toonread.Options, toonread.Limits) {
	return toonread.Options{MaxDepth: depthPerList*l.MaxDepth + layoutDepth},
		toonread.Limits{Set: true, MaxElements: l.MaxElements, MaxFields: l.MaxElements + layoutFields, MaxString: l.MaxStringBytes, MaxMaterialized: l.MaxMaterializedBytes}
}

type graphDecoder struct {
	src      []byte
	lim      wire.Limits
	err      *wire.DecodeError
	propSlab []wire.Property // see props
	doc      bool            // reading a document: see headerField
	header   []delta.Field   // the document's header, as read
}

// name refuses a node type, property key or cell name past
// MaxStringBytes.
func (d *graphDecoder) name(s string, path []pathStep) bool {
	if len(s) > d.lim.MaxStringBytes {
		d.failLimit(path, "MaxStringBytes", "a name of "+strconv.Itoa(len(s))+" bytes, longer than the limit of "+strconv.Itoa(d.lim.MaxStringBytes))
		return false
	}
	return true
}

// measure refuses a response whose canonical JSON would pass
// MaxMaterializedBytes, at the first place past it; Within settles most.
func (d *graphDecoder) measure(r *wire.GraphResponse) {
	if wirecodec.Within(d.lim, len(d.src), r) {
		return
	}
	m := wirecodec.NewMeter(d.lim, len(d.src))
	fail := func(path ...pathStep) { d.failLimit(path, m.LimitName(), m.Msg()) }
	if path, ok := meterHead(m, r.Nodes, r); !ok {
		fail(path...)
		return
	}
	for i, row := range r.Rows {
		if !m.Row(row) {
			fail(keyStep("rows"), indexStep(i))
			return
		}
	}
	if !m.Finish(r) {
		fail()
	}
}

// meterHead gives m nodes, edges, columns and group columns, and returns
// the path of the first it refuses.
func meterHead(m *wirecodec.Meter, nodes []wire.Node, r *wire.GraphResponse) ([]pathStep, bool) {
	for i := range nodes {
		if !m.Node(&nodes[i]) {
			return []pathStep{keyStep("nodes")}, false
		}
	}
	for i := range r.Edges {
		if !m.Edge(&r.Edges[i]) {
			return []pathStep{keyStep("edges"), indexStep(i)}, false
		}
	}
	for i := range r.Columns {
		if !m.Column(&r.Columns[i]) {
			return []pathStep{keyStep("columns"), indexStep(i)}, false
		}
	}
	for i := range r.GroupColumns {
		if !m.GroupColumn(&r.GroupColumns[i]) {
			return []pathStep{keyStep("group_columns"), indexStep(i)}, false
		}
	}
	return nil, true
}

// newPath returns a path holding steps, with room to grow.
func newPath(steps ...pathStep) []pathStep {
	p := make([]pathStep, len(steps), 8)
	copy(p, steps)
	return p
}

func (d *graphDecoder) document(v jsonvalue.Value) *wire.GraphResponse {
	doc, ok := v.(*jsonvalue.Object)
	if !ok {
		d.fail(nil, "expected an object with format_version, query_type, nodes and edges, found "+describe(v))
		return nil
	}
	r := &wire.GraphResponse{}
	var haveVersion, haveType bool
	var nodes, order jsonvalue.Value
	var haveOrder bool
	buf := newPath()
	for _, m := range doc.Members {
		path := append(buf[:0], keyStep(m.Key))
		switch m.Key {
		case "format_version":
			r.FormatVersion, haveVersion = d.str(m.Value, path)
		case "query_type":
			var s string
			s, haveType = d.str(m.Value, path)
			r.QueryType = wire.QueryType(s)
			if haveType && !r.QueryType.Valid() {
				d.fail(path, "unknown query type "+textwire.Excerpt(s))
			}
		case "nodes":
			nodes = m.Value
		case "node_order":
			order, haveOrder = m.Value, true
		case "edges":
			r.Edges = d.edges(m.Value, path)
		case "columns":
			r.Columns = d.columns(m.Value, path)
		case "group_columns":
			r.GroupColumns = d.groupColumns(m.Value, path)
		case "rows":
			r.Rows = d.rows(m.Value, path)
		case "pagination":
			r.Pagination = d.pagination(m.Value, path)
		default:
			if !d.headerField(m.Key, m.Value, path) {
				d.fail(path, "unknown field")
			}
		}
		if d.err != nil {
			return nil
		}
	}
	switch {
	case d.header != nil && len(d.header) == len(doc.Members):
		return nil // a header alone
	case d.header != nil:
		// A content after a header leaves out an empty format_version
		// and query_type.
	case !haveVersion:
		d.fail(nil, "missing format_version")
		return nil
	case !haveType:
		d.fail(nil, "missing query_type")
		return nil
	}
	r.Nodes = d.nodes(nodes, order, haveOrder)
	if d.err != nil {
		return nil
	}
	return r
}

// only returns the one member of the object v, or fails: expected what.
func (d *graphDecoder) only(v jsonvalue.Value, path []pathStep, what string) (jsonvalue.Member, bool) {
	o := d.object(v, path)
	if d.err == nil && len(o.Members) != 1 {
		d.fail(path, "expected "+what+", found "+strconv.Itoa(len(o.Members))+" members")
	}
	if d.err != nil {
		return jsonvalue.Member{}, false
	}
	return o.Members[0], true
}

func (d *graphDecoder) str(v jsonvalue.Value, path []pathStep) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.fail(path, "expected a string, found "+describe(v))
	}
	return s, ok
}

func (d *graphDecoder) integer(v jsonvalue.Value, path []pathStep) int64 {
	if n, ok := v.(jsonvalue.Number); ok && n.IsInt() {
		i, _ := n.Int64()
		return i
	}
	d.fail(path, "expected an integer, found "+describe(v))
	return 0
}

func (d *graphDecoder) array(v jsonvalue.Value, path []pathStep) []jsonvalue.Value {
	a, ok := v.([]jsonvalue.Value)
	if !ok {
		d.fail(path, "expected an array, found "+describe(v))
	}
	return a
}

func (d *graphDecoder) object(v jsonvalue.Value, path []pathStep) *jsonvalue.Object {
	o, ok := v.(*jsonvalue.Object)
	if !ok || o == nil {
		d.fail(path, "expected an object, found "+describe(v))
		return nil
	}
	return o
}

// value converts a property or cell value, a primitive or an array of
// values, inside depth lists.
func (d *graphDecoder) value(v jsonvalue.Value, path []pathStep, depth int) wire.Value {
	switch x := v.(type) {
	case nil:
		return wire.Null()
	case bool:
		return wire.Bool(x)
	case string:
		return wire.String(x)
	case jsonvalue.Number:
		return x.Value()
	case []jsonvalue.Value:
		if depth == d.lim.MaxDepth {
			d.failLimit(path, "MaxDepth", "lists nested more than "+strconv.Itoa(d.lim.MaxDepth)+" deep")
			return wire.Value{}
		}
		vs := make([]wire.Value, len(x))
		for i, e := range x {
			vs[i] = d.value(e, append(path, indexStep(i)), depth+1)
			if d.err != nil {
				return wire.Value{}
			}
		}
		return wire.ListOf(vs...)
	}
	d.fail(path, "expected a value (null, bool, number, string or array), found "+describe(v))
	return wire.Value{}
}

// fields walks the members of an object, each key one of allowed, the
// first required of them required.
func (d *graphDecoder) fields(v jsonvalue.Value, path []pathStep, allowed []string, required int, each func(k int, v jsonvalue.Value, path []pathStep)) {
	o := d.object(v, path)
	if d.err != nil {
		return
	}
	var seen uint16
	for _, m := range o.Members {
		k := slices.Index(allowed, m.Key)
		p := append(path, keyStep(m.Key))
		if k < 0 {
			d.fail(p, "unknown field (want "+strings.Join(allowed, ", ")+")")
			return
		}
		seen |= 1 << k
		each(k, m.Value, p)
		if d.err != nil {
			return
		}
	}
	for k := 0; k < required; k++ {
		if seen&(1<<k) == 0 {
			d.fail(path, "missing "+allowed[k])
			return
		}
	}
}

func (d *graphDecoder) optInt(v jsonvalue.Value, path []pathStep) wire.Opt[int64] {
	if v == nil {
		return wire.Opt[int64]{}
	}
	return wire.Some[int64](d.integer(v, path))
}
