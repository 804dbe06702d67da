package goon

import (
	"strconv"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// The GOON form of a delta (see the package documentation, Deltas): the
// header, the node and edge sections in GOON's own node-row and edge-line
// syntax, and the rows and header fields as one line of canonical JSON.

// deltaMarker opens every GOON delta; a response opens with @header.
const deltaMarker = "@delta"

// The sections of a delta, in the order they come; each is left out when
// empty.
const (
	secRemoved      = "@removed"
	secMoved        = "@moved"
	secChanged      = "@changed"
	secAdded        = "@added"
	secEdgesRemoved = "@edges_removed"
	secEdgesMoved   = "@edges_moved"
	secEdgesAdded   = "@edges_added"
	secRows         = "@rows"
	secContent      = "@content"
)

var deltaSections = []string{secRemoved, secMoved, secChanged, secAdded,
	secEdgesRemoved, secEdgesMoved, secEdgesAdded, secRows, secContent}

// AppendDelta implements delta.Codec: it appends the GOON form of d to
// dst. GOON is lossy, so a delta is written only when it reads back
// exactly: AppendDelta reads its text back and refuses, with a
// *wire.EncodeError and nothing appended, a delta whose nodes GOON does
// not carry as they are (a string it truncates, "42" that reads back as
// 42, a float 1.0, a null, a property order other than GOON's). A delta
// between two responses as GOON reads them (Decode's results), which is
// what a GOON client holds, always reads back.
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
		return dst, &wire.EncodeError{Codec: Name, Path: what, Msg: "GOON does not carry it exactly (a value it truncates, retypes or leaves out, or properties out of GOON's order)"}
	}
	return b, nil
}

func appendDelta(b []byte, d *delta.Delta) ([]byte, error) {
	if d == nil {
		return b, &wire.EncodeError{Codec: Name, Msg: "nil delta"}
	}
	if d.Unchanged() {
		b = append(b, deltaMarker+" unchanged "...)
		return append(append(b, d.Base.String()...), '\n'), nil
	}
	if !d.QueryType.Valid() {
		return b, &wire.EncodeError{Codec: Name, Path: "query_type", Msg: "invalid query type " + strconv.Quote(string(d.QueryType))}
	}
	b = append(b, deltaMarker+"\nbase:"...)
	b = append(b, d.Base.String()...)
	b = append(b, "\nresult:"...)
	b = append(b, d.Result.String()...)
	b = append(b, "\nquery_type:"...)
	b = append(b, d.QueryType...)
	b = append(b, '\n')
	if d.FormatVersion != "" {
		b = append(b, "format_version:"...)
		b = wire.AppendJSONString(b, d.FormatVersion)
		b = append(b, '\n')
	}
	e := &encoder{}
	var err error
	o := &d.Nodes
	if b, err = nodeSection(b, secRemoved, len(o.Removed), func(i int) (string, int, int, *wire.Node) {
		k := o.Removed[i]
		return k.Type, -1, k.N, &wire.Node{Type: k.Type, ID: k.ID}
	}, nil); err != nil {
		return b, err
	}
	if b, err = nodeSection(b, secMoved, len(o.Moved), func(i int) (string, int, int, *wire.Node) {
		m := o.Moved[i]
		return m.Key.Type, m.At, m.Key.N, &wire.Node{Type: m.Key.Type, ID: m.Key.ID}
	}, nil); err != nil {
		return b, err
	}
	if b, err = nodeSection(b, secChanged, len(o.Changed), func(i int) (string, int, int, *wire.Node) {
		ch := &o.Changed[i]
		return ch.Node.Type, -1, ch.N, &ch.Node
	}, e); err != nil {
		return b, err
	}
	if b, err = nodeSection(b, secAdded, len(o.Added), func(i int) (string, int, int, *wire.Node) {
		a := &o.Added[i]
		return a.Item.Type, a.At, 0, &a.Item
	}, e); err != nil {
		return b, err
	}
	eo := &d.Edges
	if b, err = edgeSection(b, secEdgesRemoved, len(eo.Removed), func(i int) (int, int, *wire.Edge) {
		return -1, eo.Removed[i].N, &eo.Removed[i].Edge
	}); err != nil {
		return b, err
	}
	if b, err = edgeSection(b, secEdgesMoved, len(eo.Moved), func(i int) (int, int, *wire.Edge) {
		return eo.Moved[i].At, eo.Moved[i].Key.N, &eo.Moved[i].Key.Edge
	}); err != nil {
		return b, err
	}
	if b, err = edgeSection(b, secEdgesAdded, len(eo.Added), func(i int) (int, int, *wire.Edge) {
		return eo.Added[i].At, 0, &eo.Added[i].Item
	}); err != nil {
		return b, err
	}
	return appendRowsAndContent(b, d)
}

// appendPrefix appends the "at=P " and "n=K " prefixes of a delta line;
// at < 0 and n == 0 are left out.
func appendPrefix(b []byte, at, n int) []byte {
	if at >= 0 {
		b = append(b, "at="...)
		b = strconv.AppendInt(b, int64(at), 10)
		b = append(b, ' ')
	}
	if n != 0 {
		b = append(b, "n="...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ' ')
	}
	return b
}

// nodeSection appends a node section of count lines grouped under
// Type(n): headers, one group for each run of one type in list order.
// Each line is its prefixes, then the node row (GOON's own, written by
// encoder.nodeRow) when e is set, else the id alone.
func nodeSection(b []byte, name string, count int, item func(i int) (typ string, at, n int, node *wire.Node), e *encoder) ([]byte, error) {
	if count == 0 {
		return b, nil
	}
	b = append(append(b, name...), '\n')
	for i := 0; i < count; {
		typ, _, _, _ := item(i)
		j := i + 1
		for j < count {
			if t, _, _, _ := item(j); t != typ {
				break
			}
			j++
		}
		if !isName(typ) {
			return b, notName(wire.Path{}.Field(name[1:]).Index(i).Field("type").String(), "type", typ)
		}
		b = append(b, typ...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(j-i), 10)
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			_, at, n, node := item(i)
			b = appendPrefix(b, at, n)
			if e == nil {
				b = strconv.AppendInt(b, node.ID, 10)
			} else {
				var err error
				e.atSection, e.atIndex = name[1:], i
				if b, err = e.nodeRow(b, node); err != nil {
					return b, err
				}
			}
			b = append(b, '\n')
		}
	}
	return b, nil
}

// edgeSection appends an edge section: REL(n): groups, one for each run
// of one relationship type, of prefixed edge lines (appendEdge).
func edgeSection(b []byte, name string, count int, item func(i int) (at, n int, e *wire.Edge)) ([]byte, error) {
	if count == 0 {
		return b, nil
	}
	b = append(append(b, name...), '\n')
	for i := 0; i < count; {
		_, _, first := item(i)
		j := i + 1
		for j < count {
			if _, _, e := item(j); e.Type != first.Type {
				break
			}
			j++
		}
		if !isName(first.Type) {
			return b, notName(wire.Path{}.Field(name[1:]).Index(i).Field("type").String(), "relationship type", first.Type)
		}
		b = append(b, first.Type...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(j-i), 10)
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			at, n, e := item(i)
			b = appendPrefix(b, at, n)
			var err error
			if b, err = appendEdge(b, e); err != nil {
				return b, edgeError(err, wire.Path{}.Field(name[1:]).Index(i))
			}
			b = append(b, '\n')
		}
	}
	return b, nil
}

// appendRowsAndContent appends @rows (the row operations) and @content
// (canonical JSON of the rows added and the header fields set).
func appendRowsAndContent(b []byte, d *delta.Delta) ([]byte, error) {
	ro := &d.Rows
	if len(ro.Removed)+len(ro.Moved)+len(ro.Added) > 0 {
		b = append(b, secRows+"\n"...)
		if len(ro.Removed) > 0 {
			b = append(b, "removed:"...)
			for i, p := range ro.Removed {
				if i > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendInt(b, int64(p), 10)
			}
			b = append(b, '\n')
		}
		if len(ro.Moved) > 0 {
			b = append(b, "moved:"...)
			for i, m := range ro.Moved {
				if i > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendInt(b, int64(m.Key), 10)
				b = append(b, '>')
				b = strconv.AppendInt(b, int64(m.At), 10)
			}
			b = append(b, '\n')
		}
		if len(ro.Added) > 0 {
			b = append(b, "added_at:"...)
			for i, a := range ro.Added {
				if i > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendInt(b, int64(a.At), 10)
			}
			b = append(b, '\n')
		}
	}
	if d.Set == 0 && !ro.Present {
		if len(ro.Added) > 0 {
			return b, &wire.EncodeError{Codec: Name, Path: "rows", Msg: "rows added to a result without rows"}
		}
		return b, nil
	}
	c := &wire.GraphResponse{FormatVersion: d.FormatVersion, QueryType: d.QueryType}
	if ro.Present {
		c.Rows = make([]wire.Row, 0, len(ro.Added))
		for _, a := range ro.Added {
			c.Rows = append(c.Rows, a.Item)
		}
	} else if len(ro.Added) > 0 {
		return b, &wire.EncodeError{Codec: Name, Path: "rows", Msg: "rows added to a result without rows"}
	}
	var set []byte
	for _, f := range setFields {
		if d.Set.Has(f.bit) {
			set = append(set, ' ')
			set = append(set, f.name...)
			f.put(c, d)
		}
	}
	b = append(b, secContent...)
	b = append(b, set...)
	b = append(b, '\n')
	var err error
	if b, err = wire.AppendJSON(b, c); err != nil {
		if ee, ok := err.(*wire.EncodeError); ok {
			e := *ee
			e.Codec, e.Path = Name, "content."+e.Path
			return b, &e
		}
		return b, err
	}
	return append(b, '\n'), nil
}

// setFields are the header fields a delta may set, as @content names
// them.
var setFields = [...]struct {
	bit  delta.Fields
	name string
	put  func(c *wire.GraphResponse, d *delta.Delta)
	take func(d *delta.Delta, c *wire.GraphResponse) bool // reports whether c has the field
}{
	{delta.SetColumns, "columns",
		func(c *wire.GraphResponse, d *delta.Delta) { c.Columns = d.Columns },
		func(d *delta.Delta, c *wire.GraphResponse) bool { d.Columns = c.Columns; return c.Columns != nil }},
	{delta.SetGroupColumns, "group_columns",
		func(c *wire.GraphResponse, d *delta.Delta) { c.GroupColumns = d.GroupColumns },
		func(d *delta.Delta, c *wire.GraphResponse) bool {
			d.GroupColumns = c.GroupColumns
			return c.GroupColumns != nil
		}},
	{delta.SetPagination, "pagination",
		func(c *wire.GraphResponse, d *delta.Delta) { c.Pagination = d.Pagination },
		func(d *delta.Delta, c *wire.GraphResponse) bool {
			d.Pagination = c.Pagination
			return c.Pagination != nil
		}},
}
