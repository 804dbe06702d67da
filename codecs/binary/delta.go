package binary

import (
	"fmt"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// The delta record (see the package documentation, Deltas): the layout's
// own node, edge, column, group column, row and pagination records inside
// an array that opens with deltaTag, so that neither Sniff nor Decode takes
// it for a response (a response opens with an array of 5 to 9 items and
// an integer layout version).
const (
	deltaTag     = "graphwire_delta"
	deltaVersion = 1
	// deltaItems is the length of the record of a delta, unchangedItems
	// that of the unchanged delta.
	deltaItems     = 13
	unchangedItems = 4
)

// AppendDelta implements delta.Codec: it appends the delta record of d to
// dst. On error it returns dst as given and a *wire.EncodeError: a delta
// the layout cannot carry (what AppendEncode refuses in a node, edge or
// row; rows added to a result without rows; a negative position), or a
// record longer than MaxInputBytes.
func (c *Codec) AppendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	name := c.format.String()
	if d == nil {
		return dst, &wire.EncodeError{Codec: name, Msg: "nil delta"}
	}
	st := getEncState()
	defer putEncState(st)
	st.gen++
	e := encoder{codec: name, names: st.names, recent: &st.recent, gen: st.gen}
	var out *[]byte
	if c.format == CBOR {
		st.cb.b = dst
		e.sink, out = &st.cb, &st.cb.b
	} else {
		st.mp.b = dst
		e.sink, out = &st.mp, &st.mp.b
	}
	e.deltaRecord(d)
	if e.err != nil {
		return dst, e.err
	}
	return c.withinInput(dst, *out)
}

// withinInput refuses a record that DecodeDelta, under the codec's
// MaxInputBytes, would refuse.
func (c *Codec) withinInput(dst, out []byte) ([]byte, error) {
	if n := int64(len(out) - len(dst)); n > c.limits.MaxInputBytes {
		return dst, &wire.EncodeError{Codec: c.format.String(), Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("the delta record of %d bytes is longer than the limit of %d", n, c.limits.MaxInputBytes)}
	}
	return out, nil
}

// deltaRecord writes
//
//	[tag, version, base, result]                        (unchanged)
//	[tag, version, base, result, format_version, query_type,
//	 nodes, edges, rows, set, columns, group_columns, pagination]
func (e *encoder) deltaRecord(d *delta.Delta) {
	if d.Unchanged() {
		e.sink.array(unchangedItems)
		e.deltaHead(d)
		return
	}
	if !d.QueryType.Valid() {
		e.fail(wire.Path{}.Field("query_type"), "unknown query type %q", d.QueryType)
		return
	}
	if d.Pagination != nil && d.Set.Has(delta.SetPagination) {
		if err := d.Pagination.Check(); err != nil {
			e.fail(wire.Path{}.Field("pagination"), "%s", err.Error())
			return
		}
	}
	if !d.Rows.Present && len(d.Rows.Added) > 0 {
		e.fail(wire.Path{}.Field("rows"), "rows added to a result without rows")
		return
	}
	e.sink.array(deltaItems)
	e.deltaHead(d)
	if !e.text(d.FormatVersion) {
		e.fail(wire.Path{}.Field("format_version"), notUTF8)
		return
	}
	e.name(string(d.QueryType))
	if e.deltaNodes(&d.Nodes) && e.deltaEdges(&d.Edges) && e.deltaRows(&d.Rows) {
		e.deltaFields(d)
	}
}

func (e *encoder) deltaHead(d *delta.Delta) {
	e.sink.str(deltaTag)
	e.sink.integer(deltaVersion)
	e.sink.str(d.Base.String())
	e.sink.str(d.Result.String())
}

// position writes a position or an occurrence number, which is never
// negative.
func (e *encoder) position(at string, i int, v int) bool {
	if v < 0 {
		e.fail(wire.Path{}.Field(at).Index(i), "negative position or occurrence %d", v)
		return false
	}
	e.sink.integer(int64(v))
	return true
}

// deltaNodes writes [removed, moved, changed, added]: removed [[type, id,
// n]...], moved [[type, id, n, at]...], changed [[n, node]...], added
// [[at, node]...], each node in the layout's node record.
func (e *encoder) deltaNodes(o *delta.NodeOps) bool {
	e.sink.array(4)
	e.sink.array(len(o.Removed))
	for i, k := range o.Removed {
		if !e.nodeKey(k, "nodes.removed", i, 3) {
			return false
		}
	}
	e.sink.array(len(o.Moved))
	for i, m := range o.Moved {
		if !e.nodeKey(m.Key, "nodes.moved", i, 4) || !e.position("nodes.moved", i, m.At) {
			return false
		}
	}
	e.sink.array(len(o.Changed))
	for i := range o.Changed {
		ch := &o.Changed[i]
		e.sink.array(2)
		if !e.position("nodes.changed", i, ch.N) || !e.node(&ch.Node, nil, "nodes.changed", i, -1) {
			return false
		}
	}
	e.sink.array(len(o.Added))
	for i := range o.Added {
		a := &o.Added[i]
		e.sink.array(2)
		if !e.position("nodes.added", i, a.At) || !e.node(&a.Item, nil, "nodes.added", i, -1) {
			return false
		}
	}
	return true
}

func (e *encoder) nodeKey(k delta.NodeKey, at string, i, items int) bool {
	e.sink.array(items)
	if !e.name(k.Type) {
		return e.failField(at, i, "type")
	}
	e.sink.integer(k.ID)
	return e.position(at, i, k.N)
}

// deltaEdges writes [removed, moved, added]: removed [[n, edge]...],
// moved [[n, at, edge]...], added [[at, edge]...].
func (e *encoder) deltaEdges(o *delta.EdgeOps) bool {
	e.sink.array(3)
	e.sink.array(len(o.Removed))
	for i := range o.Removed {
		e.sink.array(2)
		if !e.position("edges.removed", i, o.Removed[i].N) || !e.edge(&o.Removed[i].Edge, "edges.removed", i) {
			return false
		}
	}
	e.sink.array(len(o.Moved))
	for i := range o.Moved {
		m := &o.Moved[i]
		e.sink.array(3)
		if !e.position("edges.moved", i, m.Key.N) || !e.position("edges.moved", i, m.At) || !e.edge(&m.Key.Edge, "edges.moved", i) {
			return false
		}
	}
	e.sink.array(len(o.Added))
	for i := range o.Added {
		e.sink.array(2)
		if !e.position("edges.added", i, o.Added[i].At) || !e.edge(&o.Added[i].Item, "edges.added", i) {
			return false
		}
	}
	return true
}

// deltaRows writes [present, removed, moved, added]: present a bool,
// removed [position...], moved [[from, at]...], added [[at, row]...],
// each row in the layout's row record.
func (e *encoder) deltaRows(o *delta.RowOps) bool {
	e.sink.array(4)
	e.sink.boolean(o.Present)
	e.sink.array(len(o.Removed))
	for i, p := range o.Removed {
		if !e.position("rows.removed", i, p) {
			return false
		}
	}
	e.sink.array(len(o.Moved))
	for i, m := range o.Moved {
		e.sink.array(2)
		if !e.position("rows.moved", i, m.Key) || !e.position("rows.moved", i, m.At) {
			return false
		}
	}
	e.sink.array(len(o.Added))
	for i := range o.Added {
		a := &o.Added[i]
		e.sink.array(2)
		if !e.position("rows.added", i, a.At) {
			return false
		}
		e.sink.array(len(a.Item))
		for j := range a.Item {
			if !e.cell(&a.Item[j], "rows.added", i, j) {
				return false
			}
		}
	}
	return true
}

// deltaFields writes set (the delta.Fields as an integer), then columns,
// group_columns and pagination: each null when not set, and when set null
// for an absent field or its record.
func (e *encoder) deltaFields(d *delta.Delta) {
	e.sink.integer(int64(d.Set))
	if !d.Set.Has(delta.SetColumns) || d.Columns == nil {
		e.sink.null()
	} else {
		e.sink.array(len(d.Columns))
		for i := range d.Columns {
			if !e.column(&d.Columns[i], i) {
				return
			}
		}
	}
	if !d.Set.Has(delta.SetGroupColumns) || d.GroupColumns == nil {
		e.sink.null()
	} else {
		e.sink.array(len(d.GroupColumns))
		for i := range d.GroupColumns {
			if !e.groupColumn(&d.GroupColumns[i], i) {
				return
			}
		}
	}
	if !d.Set.Has(delta.SetPagination) || d.Pagination == nil {
		e.sink.null()
	} else {
		e.pagination(d.Pagination)
	}
}
