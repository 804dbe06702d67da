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
// writer writes graphEncoder.rows' document, and reports true, when they
// are a table of the simplest kind: every row with the first's cells in
// the same order, each column a primitive (a float finite) in every row
// or a node whose properties have the first's keys in the same order, no
// list among them (wire.Limits.Measure has refused repeated and reserved
// names). Otherwise it writes nothing and reports false. genericRows
// turns it off, for the tests that compare the two.
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

// listRows is the rows section's other fast writer: when a list (of
// primitives) is among the cells or the node cells' properties, no row
// can be a table row, and the generic writer writes each row as a list
// item (spec §10); listRows writes them so straight from the response and
// reports true, for rows of at least one cell, the first not a list, and
// whose values are primitives (a float finite) or lists of them. For
// anything else it writes nothing and reports false.
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

// itemValue reports whether v is a value listRows writes (a primitive, a
// float finite, or a list of them), noting a list in lists.
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

// listField appends, after a field's key, the rest of the field for v, a
// primitive or a list of them: ": v", ": []", or "[N]: v1,v2"; when the
// layout cannot carry a value, it returns cell's message.
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

// genericRows, when set, sends every rows section to the generic writer.
var genericRows atomic.Bool

// tablePrimitive reports whether v is a table cell the fast writer
// writes: not a list, and a float finite.
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
