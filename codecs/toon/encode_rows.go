package toon

import (
	"math"
	"sync/atomic"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// tableRows writes the rows straight from the response as the generic
// writer writes rowsValue's, and reports true, when every row has the
// first's cells, primitives or nodes of the first's keys, in the same
// order; otherwise it writes nothing and reports false.
func (s *streamer) tableRows(e *toonwrite.Writer, rows []wire.Row) bool {
	if genericRows.Load() || len(rows) == 0 || len(rows[0]) == 0 {
		return false
	}
	first := rows[0]
	for _, row := range rows {
		if len(row) != len(first) {
			return false
		}
		for j := range row {
			c, f := &row[j], &first[j]
			if c.Name != f.Name || (c.Node == nil) != (f.Node == nil) {
				return false
			}
			if c.Node == nil {
				if !tablePrimitive(c.Value) {
					return false
				}
				continue
			}
			ps := c.Node.Properties
			if !wirecodec.SameKeys(ps, f.Node.Properties) {
				return false
			}
			for k := range ps {
				if !tablePrimitive(ps[k].Value) {
					return false
				}
			}
		}
	}
	// The header: a field a cell, a field group a node cell.
	s.rowFields = s.rowFields[:0]
	s.nodeFields = s.nodeFields[:0]
	for j := range first {
		if n := first[j].Node; n != nil {
			s.nodeFields = append(s.nodeFields, toonwrite.Field{Name: "type"}, toonwrite.Field{Name: "id"})
			for _, p := range n.Properties {
				s.nodeFields = append(s.nodeFields, toonwrite.Field{Name: p.Key})
			}
		}
	}
	at := 0
	for j := range first {
		f := toonwrite.Field{Name: first[j].Name}
		if n := first[j].Node; n != nil {
			k := 2 + len(n.Properties)
			f.Children = s.nodeFields[at : at+k : at+k]
			at += k
		}
		s.rowFields = append(s.rowFields, f)
	}
	key := "rows"
	e.Line(0)
	e.Header(&key, len(rows), s.rowFields, false)
	for _, row := range rows {
		e.Line(1)
		for j := range row {
			if j > 0 {
				e.Buf = append(e.Buf, e.Delim())
			}
			c := &row[j]
			if c.Node == nil {
				cell(e, c.Value)
				continue
			}
			e.Buf = e.AppendString(e.Buf, c.Node.Type)
			e.Buf = append(e.Buf, e.Delim())
			e.Buf = textwire.AppendInt(e.Buf, c.Node.ID)
			for _, p := range c.Node.Properties {
				e.Buf = append(e.Buf, e.Delim())
				cell(e, p.Value)
			}
		}
	}
	return true
}

// listRows writes rows as list items (spec §10), as the generic writer
// does when a list is among them, and reports true, for rows of at least
// one cell, the first not a list, of primitives or lists of them;
// otherwise it writes nothing and reports false.
func (s *streamer) listRows(e *toonwrite.Writer, rows []wire.Row) bool {
	if genericRows.Load() || len(rows) == 0 {
		return false
	}
	lists := false
	for _, row := range rows {
		if len(row) == 0 || row[0].Node == nil && row[0].Value.Kind() == wire.KindList {
			return false
		}
		for j := range row {
			c := &row[j]
			if c.Node == nil {
				if !itemValue(c.Value, &lists) {
					return false
				}
				continue
			}
			for _, p := range c.Node.Properties {
				if !itemValue(p.Value, &lists) {
					return false
				}
			}
		}
	}
	if !lists {
		return false
	}
	key := "rows"
	e.Line(0)
	e.Header(&key, len(rows), nil, false)
	for _, row := range rows {
		for j := range row {
			c := &row[j]
			if j == 0 {
				e.ListItem(1)
			} else {
				e.Line(2)
			}
			e.Buf = toonwrite.AppendKey(e.Buf, c.Name)
			if c.Node == nil {
				listField(e, c.Value)
				continue
			}
			e.Buf = append(e.Buf, ':')
			const depth = 3 // a node's fields, under its key, whichever cell
			e.StringField("type", c.Node.Type, depth)
			e.Line(depth)
			e.Buf = append(e.Buf, "id: "...)
			e.Buf = textwire.AppendInt(e.Buf, c.Node.ID)
			for _, p := range c.Node.Properties {
				e.Line(depth)
				e.Buf = toonwrite.AppendKey(e.Buf, p.Key)
				listField(e, p.Value)
			}
		}
	}
	return true
}

// itemValue reports whether listRows writes v, noting a list in lists.
func itemValue(v wire.Value, lists *bool) bool {
	if v.Kind() != wire.KindList {
		return tablePrimitive(v)
	}
	*lists = true
	for _, x := range v.List() {
		if x.Kind() == wire.KindList || !tablePrimitive(x) {
			return false
		}
	}
	return true
}

// listField appends, after a key, ": v", ": []" or "[N]: v1,v2" for v,
// or returns cell's message.
func listField(e *toonwrite.Writer, v wire.Value) string {
	if v.Kind() != wire.KindList {
		e.Buf = append(e.Buf, ':', ' ')
		return cell(e, v)
	}
	list := v.List()
	if len(list) == 0 {
		e.Buf = append(e.Buf, ": []"...)
		return ""
	}
	e.Header(nil, len(list), nil, false)
	for i, x := range list {
		if i == 0 {
			e.Buf = append(e.Buf, ' ')
		} else {
			e.Buf = append(e.Buf, e.Delim())
		}
		if msg := cell(e, x); msg != "" {
			return msg
		}
	}
	return ""
}

// genericRows, when set, sends every rows section to the generic writer
// (for tests).
var genericRows atomic.Bool

// tablePrimitive reports whether v is neither a list nor NaN or ±Inf.
func tablePrimitive(v wire.Value) bool {
	switch v.Kind() {
	case wire.KindList:
		return false
	case wire.KindFloat:
		f := v.Float()
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return true
}
