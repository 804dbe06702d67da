package json

import (
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// appendResponse appends the canonical JSON of r to dst, checking nothing
// but what the canonical form cannot carry (a NaN or infinite float, a
// query type or group kind outside the enumerations, a property named
// "type" or "id"); AppendWithin checks the Limits first. When dst has
// less room than need, the encoding's measured length, it grows by grow
// first. On error it returns dst unchanged.
func appendResponse(dst []byte, r *wire.GraphResponse, need, grow int, frag bool) ([]byte, error) {
	e := encoder{b: dst, fragment: frag}
	if cap(dst)-len(dst) < need {
		// One allocation of about the right size, rather than the
		// doublings and copies of growing from nothing.
		e.b = slices.Grow(dst, grow)
	}
	if err := e.response(r); err != nil {
		return dst, err
	}
	return e.b, nil
}

type encoder struct {
	b   []byte
	out io.Writer // when set, spill writes b to it at element boundaries
	// fragment writes the content of a document with a header: the
	// response's format_version, query_type, nodes and edges only when
	// they are not empty (see AppendDocument).
	fragment bool
	cache    writeCache
}

// response appends r to e.b. The writing functions below take and return
// the buffer rather than keep it in e, so that appending is a store to a
// local variable: no write barrier per append while the collector runs.
func (e *encoder) response(r *wire.GraphResponse) error {
	b, err := e.appendResponse(e.b, r)
	e.b = b
	return err
}

// flush is spill at an element boundary, forgetting the cached spans when
// it empties the buffer.
func (e *encoder) flush(b []byte) ([]byte, error) {
	if e.out == nil {
		return b, nil
	}
	e.b = b
	err := e.spill()
	if len(e.b) == 0 {
		e.cache.reset()
	}
	return e.b, err
}

func (e *encoder) appendResponse(b []byte, r *wire.GraphResponse) ([]byte, error) {
	if !r.QueryType.Valid() && !(e.fragment && r.QueryType == "") {
		return b, &wire.EncodeError{Codec: "json", Path: wirecodec.Path{}.Field("query_type").String(), Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	c := &e.cache
	var err error
	start := len(b) + 1
	if e.fragment {
		// Each part that is written starts with a comma, which the
		// first one written drops at the end.
		b = append(b, '{')
		if r.FormatVersion != "" {
			b = AppendString(append(b, `,"format_version":`...), r.FormatVersion)
		}
		if r.QueryType != "" {
			b = AppendString(append(b, `,"query_type":`...), string(r.QueryType))
		}
		if len(r.Nodes) > 0 {
			b = append(b, `,"nodes":[`...)
		}
	} else {
		b = append(b, `{"format_version":`...)
		b = AppendString(b, r.FormatVersion)
		b = append(b, `,"query_type":`...)
		b = AppendString(b, string(r.QueryType))
		b = append(b, `,"nodes":[`...)
	}
	for i := range r.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		n := &r.Nodes[i]
		b = c.piece(b, c.types[:], `{"type":"`, n.Type, `","id":"`)
		b = textwire.AppendInt(b, n.ID)
		b = append(b, '"')
		for j := range n.Properties {
			p := &n.Properties[j]
			if p.Key == "type" || p.Key == "id" {
				return b, &wire.EncodeError{Codec: "json", Path: wirecodec.NodePath(i).Property(j, p.Key).String(), Msg: "property named " + strconv.Quote(p.Key) + " (reserved for the node itself)"}
			}
			b = c.piece(b, c.keys[:], `,"`, p.Key, `":`)
			if p.Value.Kind() == wire.KindString {
				b = AppendString(b, p.Value.Text())
				continue
			}
			var ok bool
			if b, ok = e.appendValue(b, p.Value); !ok {
				return b, nonFiniteError(p.Value, wirecodec.NodePath(i).Property(j, p.Key))
			}
		}
		b = append(b, '}')
		if b, err = e.flush(b); err != nil {
			return b, err
		}
	}
	switch {
	case !e.fragment:
		b = append(b, `],"edges":[`...)
	case len(r.Nodes) > 0 && len(r.Edges) > 0:
		b = append(b, `],"edges":[`...)
	case len(r.Nodes) > 0:
		b = append(b, ']')
	case len(r.Edges) > 0:
		b = append(b, `,"edges":[`...)
	}
	for i := range r.Edges {
		if i > 0 {
			b = append(b, ',')
		}
		ed := &r.Edges[i]
		b = c.piece(b, c.from[:], `{"from":"`, ed.From, `","from_id":"`)
		b = textwire.AppendInt(b, ed.FromID)
		b = c.piece(b, c.to[:], `","to":"`, ed.To, `","to_id":"`)
		b = textwire.AppendInt(b, ed.ToID)
		b = c.piece(b, c.etype[:], `","type":"`, ed.Type, `"`)
		b = appendOptInt(b, `,"depth":`, ed.Depth)
		b = appendOptInt(b, `,"path_id":`, ed.PathID)
		b = appendOptInt(b, `,"step":`, ed.Step)
		b = append(b, '}')
		if b, err = e.flush(b); err != nil {
			return b, err
		}
	}
	if !e.fragment || len(r.Edges) > 0 {
		b = append(b, ']')
	}
	if r.Columns != nil {
		b = append(b, `,"columns":[`...)
		for i := range r.Columns {
			if i > 0 {
				b = append(b, ',')
			}
			col := &r.Columns[i]
			b = append(b, `{"name":`...)
			b = AppendString(b, col.Name)
			b = append(b, `,"function":`...)
			b = AppendString(b, col.Function)
			b = appendOptStr(b, `,"target":`, col.Target)
			b = appendOptStr(b, `,"property":`, col.Property)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.GroupColumns != nil {
		b = append(b, `,"group_columns":[`...)
		for i := range r.GroupColumns {
			if i > 0 {
				b = append(b, ',')
			}
			g := &r.GroupColumns[i]
			if !g.Kind.Valid() {
				return b, &wire.EncodeError{Codec: "json", Path: wirecodec.GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(g.Kind))}
			}
			b = append(b, `{"name":`...)
			b = AppendString(b, g.Name)
			b = append(b, `,"kind":`...)
			b = AppendString(b, string(g.Kind))
			b = append(b, `,"node":`...)
			b = AppendString(b, g.Node)
			b = appendOptStr(b, `,"property":`, g.Property)
			b = appendOptStr(b, `,"entity":`, g.Entity)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.Rows != nil {
		b = append(b, `,"rows":[`...)
		for i, row := range r.Rows {
			if i > 0 {
				b = append(b, ',')
			}
			if len(row) == 0 {
				b = append(b, '{')
			}
			for j := range row {
				cell := &row[j]
				if j == 0 {
					b = c.piece(b, c.firstCell[:], `{"`, cell.Name, `":`)
				} else {
					b = c.piece(b, c.keys[:], `,"`, cell.Name, `":`)
				}
				if cell.Node != nil {
					if b, err = e.nodeRef(b, cell.Node, i, j, cell.Name); err != nil {
						return b, err
					}
					continue
				}
				var ok bool
				if b, ok = e.appendValue(b, cell.Value); !ok {
					return b, nonFiniteError(cell.Value, wirecodec.RowPath(i).Key(j, cell.Name))
				}
			}
			b = append(b, '}')
			if b, err = e.flush(b); err != nil {
				return b, err
			}
		}
		b = append(b, ']')
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return b, &wire.EncodeError{Codec: "json", Path: wirecodec.Path{}.Field("pagination").String(), Msg: err.Error()}
		}
		b = append(b, `,"pagination":{"has_more":`...)
		b = strconv.AppendBool(b, p.HasMore)
		b = appendOptInt(b, `,"total_rows":`, p.TotalRows)
		if p.Truncated.Valid {
			b = append(b, `,"truncated":`...)
			b = strconv.AppendBool(b, p.Truncated.V)
		}
		b = appendOptStr(b, `,"next_cursor":`, p.NextCursor)
		b = append(b, '}')
	}
	if e.fragment && len(b) > start && b[start] == ',' {
		b = append(b[:start], b[start+1:]...)
	}
	return append(b, '}'), nil
}

// nodeRef appends the node the cell named name, the cell-th of row row,
// holds; the cell's path is built only for an error.
func (e *encoder) nodeRef(b []byte, n *wire.Node, row, cell int, name string) ([]byte, error) {
	at := func() wirecodec.Path { return wirecodec.RowPath(row).Key(cell, name) }
	c := &e.cache
	b = c.piece(b, c.types[:], `{"type":"`, n.Type, `","id":"`)
	b = textwire.AppendInt(b, n.ID)
	b = append(b, `","properties":{`...)
	for j := range n.Properties {
		p := &n.Properties[j]
		if p.Key == "type" || p.Key == "id" {
			return b, &wire.EncodeError{Codec: "json", Path: at().Property(j, p.Key).String(), Msg: "property named " + strconv.Quote(p.Key) + " (reserved for the node itself)"}
		}
		if j == 0 {
			b = c.piece(b, c.firstKey[:], `"`, p.Key, `":`)
		} else {
			b = c.piece(b, c.keys[:], `,"`, p.Key, `":`)
		}
		var ok bool
		if b, ok = e.appendValue(b, p.Value); !ok {
			return b, nonFiniteError(p.Value, at().Property(j, p.Key))
		}
	}
	return append(b, "}}"...), nil
}

// nonFiniteError is the *EncodeError for the first NaN or infinite float
// in v, the value at p: Value.MarshalJSON's, whose path goes down to the
// float inside lists, below p.
func nonFiniteError(v wire.Value, p wirecodec.Path) *wire.EncodeError {
	_, err := v.MarshalJSON()
	ee, ok := err.(*wire.EncodeError)
	if !ok { // not reached: v holds a NaN or an infinity
		ee = &wire.EncodeError{Codec: Name, Msg: "unsupported float value"}
	}
	ee.Path = p.String() + ee.Path
	return ee
}

func appendOptInt(b []byte, key string, o wire.Opt[int64]) []byte {
	if o.Valid {
		b = append(b, key...)
		b = textwire.AppendInt(b, o.V)
	}
	return b
}

func appendOptStr(b []byte, key string, o wire.Opt[string]) []byte {
	if o.Valid {
		b = append(b, key...)
		b = AppendString(b, o.V)
	}
	return b
}

// appendValue appends v; it reports false for a NaN or infinite float.
func (e *encoder) appendValue(b []byte, v wire.Value) ([]byte, bool) {
	if !finite(v) {
		return b, false
	}
	return wire.AppendValueJSON(b, v), true
}

// finite reports whether v holds no NaN or infinite float.
func finite(v wire.Value) bool {
	switch v.Kind() {
	case wire.KindFloat:
		f := v.Float()
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	case wire.KindList:
		for _, x := range v.List() {
			if !finite(x) {
				return false
			}
		}
	}
	return true
}
