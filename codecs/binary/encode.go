package binary

import (
	"fmt"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
)

// layoutVersion is the first element of every encoding. Version 2 added
// schema v5's fields to pagination; a decoder reads layoutV1 and
// layoutVersion and rejects any other.
const (
	layoutVersion = 2
	layoutV1      = 1
)

// sink receives the layout as a stream of items: an array announces how many
// items follow as its elements. msgpack writes them straight to bytes; CBOR
// gathers them into a tree that the CBOR library then encodes.
type sink interface {
	array(n int)
	null()
	boolean(b bool)
	integer(i int64)
	float(f float64)
	str(s string)
}

// encoder walks a response and feeds the layout to a sink. It is the one
// description of the layout on the writing side, shared by both formats.
type encoder struct {
	sink  sink
	codec string
	// names maps each name already written to its index in the string
	// table; nil disables the table (every name written in full), which is
	// kept for measuring the table's effect.
	names map[string]int64
	err   *wire.EncodeError
	// spill, when set (EncodeTo), is called after each node, edge and
	// row to hand the bytes so far to the writer; false stops the walk.
	spill func() bool
	// maxOut, when positive, stops the walk after the node, edge or row
	// whose strings take the encoding past maxOut bytes (strBytes counts
	// the bytes of every string written, a lower bound of the encoding's
	// length), so that an encoding far past MaxInputBytes is refused
	// before it is all built.
	maxOut, strBytes int64
}

// next is called after each node, edge and row: it reports false, with
// the error set, once the strings are past maxOut (from then on they are
// no longer written), and otherwise spills when spilling.
func (e *encoder) next(at string, i int) bool {
	if !e.within(at, i) {
		return false
	}
	return e.spill == nil || e.spill()
}

// within reports whether the strings are within maxOut, setting the error
// (which names at[i], or at alone when i < 0) when they are not.
func (e *encoder) within(at string, i int) bool {
	if e.maxOut <= 0 || e.strBytes <= e.maxOut {
		return true
	}
	if e.err == nil {
		if i >= 0 {
			at = fmt.Sprintf("%s[%d]", at, i)
		}
		e.err = &wire.EncodeError{Codec: e.codec, Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("the encoding is longer than the limit of %d (its strings alone pass it by %s)", e.maxOut, at)}
	}
	return false
}

func (e *encoder) fail(field, format string, args ...any) {
	if e.err == nil {
		e.err = &wire.EncodeError{Codec: e.codec, Path: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// name writes a name (entity type, edge type, property key, column or cell
// name...): in full the first time, as its table index afterwards. It
// reports false when s is not UTF-8.
func (e *encoder) name(s string) bool {
	if e.names != nil {
		if i, ok := e.names[s]; ok {
			e.sink.integer(i)
			return true
		}
	}
	if !utf8.ValidString(s) {
		return false
	}
	if e.names != nil {
		e.names[s] = int64(len(e.names))
	}
	if e.strBytes += int64(len(s)); e.maxOut > 0 && e.strBytes > e.maxOut {
		return true // not written: next refuses the encoding
	}
	e.sink.str(s)
	return true
}

// text writes a string value, reporting false when s is not UTF-8.
func (e *encoder) text(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	if e.strBytes += int64(len(s)); e.maxOut > 0 && e.strBytes > e.maxOut {
		return true // not written: next refuses the encoding
	}
	e.sink.str(s)
	return true
}

// optName writes a present optional name, or null for an absent one.
func (e *encoder) optName(o wire.OptString) bool {
	if !o.Valid {
		e.sink.null()
		return true
	}
	return e.name(o.String)
}

func (e *encoder) optInt(o wire.OptInt) {
	if o.Valid {
		e.sink.integer(o.Int)
	} else {
		e.sink.null()
	}
}

// value writes v; it reports false when a string in it is not UTF-8.
func (e *encoder) value(v wire.Value) bool {
	switch v.Kind() {
	case wire.KindNull:
		e.sink.null()
	case wire.KindBool:
		e.sink.boolean(v.Bool())
	case wire.KindInt:
		e.sink.integer(v.Int())
	case wire.KindFloat:
		e.sink.float(v.Float())
	case wire.KindString:
		return e.text(v.Text())
	case wire.KindList:
		l := v.List()
		e.sink.array(len(l))
		for _, x := range l {
			if !e.value(x) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

const notUTF8 = "not valid UTF-8"

func (e *encoder) response(r *wire.GraphResponse) {
	if !r.QueryType.Valid() {
		e.fail("query_type", "unknown query type %q", r.QueryType)
		return
	}
	if r.Pagination != nil {
		if err := r.Pagination.Check(); err != nil {
			e.fail("pagination", "%s", err.Error())
			return
		}
	}
	n := 5
	switch {
	case r.Pagination != nil:
		n = 9
	case r.Rows != nil:
		n = 8
	case r.GroupColumns != nil:
		n = 7
	case r.Columns != nil:
		n = 6
	}
	e.sink.array(n)
	e.sink.integer(layoutVersion)
	if !e.text(r.FormatVersion) {
		e.fail("format_version", notUTF8)
		return
	}
	e.name(string(r.QueryType))

	e.sink.array(len(r.Nodes))
	for i := range r.Nodes {
		if !e.node(&r.Nodes[i], nil, i, -1) || !e.next("nodes", i) {
			return
		}
	}
	e.sink.array(len(r.Edges))
	for i := range r.Edges {
		if !e.edge(&r.Edges[i], i) || !e.next("edges", i) {
			return
		}
	}
	if n == 5 {
		return
	}
	if r.Columns == nil {
		e.sink.null()
	} else {
		e.sink.array(len(r.Columns))
		for i := range r.Columns {
			if !e.column(&r.Columns[i], i) {
				return
			}
		}
	}
	if n == 6 {
		return
	}
	if r.GroupColumns == nil {
		e.sink.null()
	} else {
		e.sink.array(len(r.GroupColumns))
		for i := range r.GroupColumns {
			if !e.groupColumn(&r.GroupColumns[i], i) {
				return
			}
		}
	}
	if n == 7 {
		return
	}
	if r.Rows == nil {
		e.sink.null()
	} else {
		e.sink.array(len(r.Rows))
		for i, row := range r.Rows {
			e.sink.array(len(row))
			for j := range row {
				if !e.cell(&row[j], i, j) {
					return
				}
			}
			if !e.next("rows", i) {
				return
			}
		}
	}
	if n == 8 {
		return
	}
	e.pagination(r.Pagination)
}

// width is the length of a record of required fields followed by optional
// ones, whose presence is given in order: the record ends at the last
// optional field present, and every field before that one is written.
func width(required int, present ...bool) int {
	n := required
	for i, p := range present {
		if p {
			n = required + i + 1
		}
	}
	return n
}

// pagination writes [has_more, total_rows?, truncated?, next_cursor?] by
// the presence rule: [has_more, total_rows] for schema v2, [has_more, null,
// truncated, next_cursor?] for schema v5 (p has passed Check).
func (e *encoder) pagination(p *wire.Pagination) {
	n := width(2, p.Truncated.Valid, p.NextCursor.Valid)
	e.sink.array(n)
	e.sink.boolean(p.HasMore)
	e.optInt(p.TotalRows)
	if n > 2 {
		e.sink.boolean(p.Truncated.Bool)
	}
	if n > 3 && !e.text(p.NextCursor.String) {
		e.fail("pagination.next_cursor", notUTF8)
	}
}

// node writes [type, id, key, value, ...], or, for a row cell, the same
// preceded by the cell's name (cellName not nil).
//
// Its place, for error messages, is nodes[i] (j < 0) or rows[i][j].
func (e *encoder) node(nd *wire.Node, cellName *string, i, j int) bool {
	field := func(f string, args ...any) string {
		at := fmt.Sprintf("nodes[%d]", i)
		if j >= 0 {
			at = fmt.Sprintf("rows[%d][%d]", i, j)
		}
		return at + fmt.Sprintf(f, args...)
	}
	if k, msg := badProperty(nd.Properties); msg != "" {
		e.fail(field(".properties[%d]", k), "%s", msg)
		return false
	}
	extra := 2
	if cellName != nil {
		extra = 3
	}
	e.sink.array(extra + 2*len(nd.Properties))
	if cellName != nil && !e.name(*cellName) {
		e.fail(field(".name"), notUTF8)
		return false
	}
	if !e.name(nd.Type) {
		e.fail(field(".type"), notUTF8)
		return false
	}
	e.sink.integer(nd.ID)
	for k := range nd.Properties {
		p := &nd.Properties[k]
		if !e.name(p.Key) {
			e.fail(field(".properties[%d].key", k), notUTF8)
			return false
		}
		if !e.value(p.Value) {
			e.fail(field(".properties[%d] (%q)", k, p.Key), notUTF8)
			return false
		}
	}
	return true
}

// badProperty reports the first property that breaks the model's rules (no
// key "type" or "id", no key twice), with what is wrong; msg is "" when all
// are well. It finds them in the order the decoder does: a reserved key,
// or a repeat among the first keyset.Eager keys, as the keys come, and a
// later repeat after the last key.
func badProperty(props []wire.Property) (i int, msg string) {
	var keys keyset.Seq
	key := func(j int) string { return props[j].Key }
	for i := range props {
		k := props[i].Key
		if k == "type" || k == "id" {
			return i, fmt.Sprintf("property key %q is reserved", k)
		}
		if keys.Add(k, key) {
			return i, fmt.Sprintf("property key %q given twice", k)
		}
	}
	if r := keys.Repeat(key); r >= 0 {
		return r, fmt.Sprintf("property key %q given twice", props[r].Key)
	}
	return 0, ""
}

func (e *encoder) edge(ed *wire.Edge, i int) bool {
	n := width(5, ed.Depth.Valid, ed.PathID.Valid, ed.Step.Valid)
	e.sink.array(n)
	if !e.name(ed.From) {
		e.fail(fmt.Sprintf("edges[%d].from", i), notUTF8)
		return false
	}
	e.sink.integer(ed.FromID)
	if !e.name(ed.To) {
		e.fail(fmt.Sprintf("edges[%d].to", i), notUTF8)
		return false
	}
	e.sink.integer(ed.ToID)
	if !e.name(ed.Type) {
		e.fail(fmt.Sprintf("edges[%d].type", i), notUTF8)
		return false
	}
	if n > 5 {
		e.optInt(ed.Depth)
	}
	if n > 6 {
		e.optInt(ed.PathID)
	}
	if n > 7 {
		e.optInt(ed.Step)
	}
	return true
}

func (e *encoder) column(c *wire.Column, i int) bool {
	n := width(2, c.Target.Valid, c.Property.Valid)
	e.sink.array(n)
	ok := e.name(c.Name) && e.name(c.Function) &&
		(n < 3 || e.optName(c.Target)) && (n < 4 || e.optName(c.Property))
	if !ok {
		e.fail(fmt.Sprintf("columns[%d]", i), notUTF8)
	}
	return ok
}

func (e *encoder) groupColumn(g *wire.GroupColumn, i int) bool {
	if !g.Kind.Valid() {
		e.fail(fmt.Sprintf("group_columns[%d].kind", i), "unknown group kind %q", g.Kind)
		return false
	}
	n := width(3, g.Property.Valid, g.Entity.Valid)
	e.sink.array(n)
	ok := e.name(g.Name) && e.name(string(g.Kind)) && e.name(g.Node) &&
		(n < 4 || e.optName(g.Property)) && (n < 5 || e.optName(g.Entity))
	if !ok {
		e.fail(fmt.Sprintf("group_columns[%d]", i), notUTF8)
	}
	return ok
}

// cell writes [name, value], or [name, type, id, key, value, ...] for a node
// reference.
func (e *encoder) cell(c *wire.Cell, i, j int) bool {
	if c.Node != nil {
		if !c.Value.IsNull() {
			e.fail(fmt.Sprintf("rows[%d][%d]", i, j), "cell holds both a node and a value")
			return false
		}
		return e.node(c.Node, &c.Name, i, j)
	}
	e.sink.array(2)
	if !e.name(c.Name) {
		e.fail(fmt.Sprintf("rows[%d][%d].name", i, j), notUTF8)
		return false
	}
	if !e.value(c.Value) {
		e.fail(fmt.Sprintf("rows[%d][%d] (%q)", i, j, c.Name), notUTF8)
		return false
	}
	return true
}

// AppendEncode appends the encoding of r to dst. On error it returns dst as
// given and a *wire.EncodeError naming the place: a response the layout
// cannot carry (see the package documentation), or one that Decode under
// the codec's Limits would refuse (wire.Limits.Check, and an encoding
// longer than MaxInputBytes).
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	name := c.format.String()
	if r == nil {
		return dst, &wire.EncodeError{Codec: name, Msg: "nil response"}
	}
	size, err := c.limits.CheckSize(name, r)
	if err != nil {
		return dst, err
	}
	var out []byte
	if c.format == CBOR {
		out, err = appendCBOR(dst, r, true, c.limits.MaxInputBytes)
	} else {
		out, err = appendMsgpack(dst, r, true, c.limits.MaxInputBytes)
	}
	if err != nil {
		return dst, err
	}
	if n := int64(len(out) - len(dst)); n > c.limits.MaxInputBytes {
		return dst, &wire.EncodeError{Codec: name, Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("the encoding of %d bytes is longer than the limit of %d", n, c.limits.MaxInputBytes)}
	}
	if err := c.limits.CheckExpansion(name, size, int64(len(out)-len(dst))); err != nil {
		return dst, err
	}
	return out, nil
}
