package toon

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// The TOON form of a delta (see the package documentation, Deltas) is a
// TOON document whose first line is "graphwire_delta: 1" and whose keys
// come in the order of deltaKeys, each left out when empty. The node
// sections (changed, added) are written by the layout's node writer, the
// edge sections by its edge writer, the rows and header fields by its
// section writers: a reader who knows a toon response reads a delta.
const (
	deltaKey       = "graphwire_delta"
	deltaVersion   = 1
	unchangedValue = "unchanged "
)

// deltaKeys are the keys of a delta, in the order they come.
var deltaKeys = []string{
	deltaKey, "base", "result", "query_type", "format_version",
	"removed", "moved",
	"changed_n", "changed", "changed_order",
	"added_at", "added", "added_order",
	"edges_removed_n", "edges_removed",
	"edges_moved_n", "edges_moved_at", "edges_moved",
	"edges_added_at", "edges_added",
	"rows_removed", "rows_moved", "rows_added_at", "rows_added",
	"columns", "group_columns", "pagination",
}

// AppendDelta implements delta.Codec: it appends the TOON form of d to
// dst. A delta is written only when it reads back as it is: AppendDelta
// reads its text back and refuses, with a *wire.EncodeError and nothing
// appended, a delta whose values toon does not carry exactly (a float
// 1.0, which reads back as the integer 1, a NaN). A delta between two
// responses as toon reads them (Decode's results) always reads back.
func (c *Codec) AppendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	b, err := appendDelta(dst, d)
	if err != nil {
		return dst, err
	}
	back, err := c.DecodeDelta(b[len(dst):])
	if err != nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "the delta does not read back: " + err.Error()}
	}
	if what := delta.Differs(d, back); what != "" {
		return dst, &wire.EncodeError{Codec: Name, Path: what, Msg: "toon does not carry it exactly (a value it retypes or refuses)"}
	}
	return b, nil
}

func ints(n int, at func(i int) int) []jsonvalue.Value {
	vs := make([]jsonvalue.Value, n)
	for i := range vs {
		vs[i] = jsonvalue.Int(int64(at(i)))
	}
	return vs
}

func anyNonZero(n int, at func(i int) int) bool {
	for i := range n {
		if at(i) != 0 {
			return true
		}
	}
	return false
}

func member(k string, v jsonvalue.Value) jsonvalue.Member { return jsonvalue.Member{Key: k, Value: v} }

func appendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	if d == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil delta"}
	}
	e := newWriter(dst, nil)
	if d.Unchanged() {
		e.Field(deltaKey, unchangedValue+d.Base.String(), 0)
		return append(e.Buf, '\n'), nil
	}
	if !d.QueryType.Valid() {
		return dst, &wire.EncodeError{Codec: Name, Path: "query_type", Msg: "invalid query type " + strconv.Quote(string(d.QueryType))}
	}
	if !d.Rows.Present && len(d.Rows.Added) > 0 {
		return dst, &wire.EncodeError{Codec: Name, Path: "rows", Msg: "rows added to a result without rows"}
	}
	e.Field(deltaKey, jsonvalue.Int(deltaVersion), 0)
	e.Field("base", d.Base.String(), 0)
	e.Field("result", d.Result.String(), 0)
	e.Field("query_type", string(d.QueryType), 0)
	if d.FormatVersion != "" {
		e.Field("format_version", d.FormatVersion, 0)
	}
	o := &d.Nodes
	if len(o.Removed) > 0 {
		withN := anyNonZero(len(o.Removed), func(i int) int { return o.Removed[i].N })
		rows := make([]jsonvalue.Value, len(o.Removed))
		for i, k := range o.Removed {
			rows[i] = keyObject(k, withN, -1)
		}
		e.Field("removed", rows, 0)
	}
	if len(o.Moved) > 0 {
		withN := anyNonZero(len(o.Moved), func(i int) int { return o.Moved[i].Key.N })
		rows := make([]jsonvalue.Value, len(o.Moved))
		for i, m := range o.Moved {
			rows[i] = keyObject(m.Key, withN, m.At)
		}
		e.Field("moved", rows, 0)
	}
	var s streamer
	if len(o.Changed) > 0 {
		if anyNonZero(len(o.Changed), func(i int) int { return o.Changed[i].N }) {
			e.Field("changed_n", ints(len(o.Changed), func(i int) int { return o.Changed[i].N }), 0)
		}
		nodes := make([]wire.Node, len(o.Changed))
		for i := range o.Changed {
			nodes[i] = o.Changed[i].Node
		}
		if err := s.nodeSection(e, "changed", nodes); err != nil {
			return dst, err
		}
	}
	if len(o.Added) > 0 {
		e.Field("added_at", ints(len(o.Added), func(i int) int { return o.Added[i].At }), 0)
		nodes := make([]wire.Node, len(o.Added))
		for i := range o.Added {
			nodes[i] = o.Added[i].Item
		}
		if err := s.nodeSection(e, "added", nodes); err != nil {
			return dst, err
		}
	}
	eo := &d.Edges
	if len(eo.Removed) > 0 {
		edges := make([]wire.Edge, len(eo.Removed))
		for i := range eo.Removed {
			edges[i] = eo.Removed[i].Edge
		}
		if anyNonZero(len(edges), func(i int) int { return eo.Removed[i].N }) {
			e.Field("edges_removed_n", ints(len(edges), func(i int) int { return eo.Removed[i].N }), 0)
		}
		s.edgeSection(e, "edges_removed", edges)
	}
	if len(eo.Moved) > 0 {
		edges := make([]wire.Edge, len(eo.Moved))
		for i := range eo.Moved {
			edges[i] = eo.Moved[i].Key.Edge
		}
		if anyNonZero(len(edges), func(i int) int { return eo.Moved[i].Key.N }) {
			e.Field("edges_moved_n", ints(len(edges), func(i int) int { return eo.Moved[i].Key.N }), 0)
		}
		e.Field("edges_moved_at", ints(len(edges), func(i int) int { return eo.Moved[i].At }), 0)
		s.edgeSection(e, "edges_moved", edges)
	}
	if len(eo.Added) > 0 {
		edges := make([]wire.Edge, len(eo.Added))
		for i := range eo.Added {
			edges[i] = eo.Added[i].Item
		}
		e.Field("edges_added_at", ints(len(edges), func(i int) int { return eo.Added[i].At }), 0)
		s.edgeSection(e, "edges_added", edges)
	}
	var g graphEncoder
	ro := &d.Rows
	if len(ro.Removed) > 0 {
		e.Field("rows_removed", ints(len(ro.Removed), func(i int) int { return ro.Removed[i] }), 0)
	}
	if len(ro.Moved) > 0 {
		rows := make([]jsonvalue.Value, len(ro.Moved))
		for i, m := range ro.Moved {
			rows[i] = &jsonvalue.Object{Members: []jsonvalue.Member{member("from", jsonvalue.Int(int64(m.Key))), member("at", jsonvalue.Int(int64(m.At)))}}
		}
		e.Field("rows_moved", rows, 0)
	}
	if ro.Present {
		if len(ro.Added) > 0 {
			e.Field("rows_added_at", ints(len(ro.Added), func(i int) int { return ro.Added[i].At }), 0)
		}
		added := make([]wire.Row, len(ro.Added))
		for i := range ro.Added {
			added[i] = ro.Added[i].Item
		}
		rows, err := g.rows(added)
		if err != nil {
			return dst, err
		}
		e.Field("rows_added", rows, 0)
	}
	// The header sections are written by the response's section writers;
	// a section set to nil is written "key: null".
	if d.Set.Has(delta.SetColumns) {
		if d.Columns == nil {
			e.Field("columns", nil, 0)
		} else {
			s.columns(e, d.Columns)
		}
	}
	if d.Set.Has(delta.SetGroupColumns) {
		if d.GroupColumns == nil {
			e.Field("group_columns", nil, 0)
		} else if err := s.groupColumns(e, d.GroupColumns); err != nil {
			return dst, err
		}
	}
	if d.Set.Has(delta.SetPagination) {
		if p := d.Pagination; p == nil {
			e.Field("pagination", nil, 0)
		} else {
			if err := p.Check(); err != nil {
				return dst, &wire.EncodeError{Codec: Name, Path: "pagination", Msg: err.Error()}
			}
			s.pagination(e, p)
		}
	}
	if err := e.Err(); err != nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: err.Error()}
	}
	return append(e.Buf, '\n'), nil
}

// keyObject is the row of a removed (at < 0) or moved node: type, id, and
// n when withN.
func keyObject(k delta.NodeKey, withN bool, at int) *jsonvalue.Object {
	o := &jsonvalue.Object{Members: []jsonvalue.Member{member("type", k.Type), member("id", jsonvalue.Int(k.ID))}}
	if withN {
		o.Members = append(o.Members, member("n", jsonvalue.Int(int64(k.N))))
	}
	if at >= 0 {
		o.Members = append(o.Members, member("at", jsonvalue.Int(int64(at))))
	}
	return o
}

// rename replaces the key old that the layout's writer put at the start
// of the line beginning at b[from:] (after the line break Line writes) by
// key.
func rename(b []byte, from int, old, key string) []byte {
	if from < len(b) && b[from] == '\n' {
		from++
	}
	if !bytes.HasPrefix(b[from:], []byte(old)) {
		return b // not reached: the writer starts the line with old
	}
	rest := bytes.Clone(b[from+len(old):])
	return append(append(b[:from], key...), rest...)
}

// nodeSection writes nodes as the response's nodes section (and its
// node_order when needed), under key and key_order.
func (s *streamer) nodeSection(e *toonwrite.Writer, key string, nodes []wire.Node) error {
	if err := s.group(nodes); err != nil {
		var ee *wire.EncodeError
		if errors.As(err, &ee) {
			ee.Path = key + ": " + ee.Path
		}
		return err
	}
	from := len(e.Buf)
	if err := s.nodes(e, nodes); err != nil {
		return err
	}
	e.Buf = rename(e.Buf, from, "nodes", key)
	from = len(e.Buf)
	s.nodeOrder(e, len(nodes))
	if len(e.Buf) > from {
		e.Buf = rename(e.Buf, from, "node_order", key+"_order")
	}
	return nil
}

// edgeSection writes edges as the response's edges table, under key.
func (s *streamer) edgeSection(e *toonwrite.Writer, key string, edges []wire.Edge) {
	from := len(e.Buf)
	s.edges(e, edges)
	e.Buf = rename(e.Buf, from, "edges", key)
}
