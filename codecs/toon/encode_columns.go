package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// The columns, group_columns and pagination sections, written line by
// line from the response as the generic writer writes the values
// graphEncoder would build for them: a table of primitives (or "key: []"
// when empty), and an object of primitives. The rows section, whose
// table or list form depends on its cells, goes through graphEncoder.

// emptyOrHeader starts the table named key at depth 0 with the given
// fields, or writes "key: []" and reports false when it has no rows.
func (s *streamer) emptyOrHeader(e *toonwrite.Writer, key string, n int) bool {
	e.Line(0)
	if n == 0 {
		e.Buf = toonwrite.AppendKey(e.Buf, key)
		e.Buf = append(e.Buf, ':', ' ', '[', ']')
		return false
	}
	e.Header(&key, n, s.fields, false)
	return true
}

// optCell appends the delimiter and an optional string's token.
func optCell(e *toonwrite.Writer, o wire.Opt[string]) {
	e.Buf = append(e.Buf, e.Delim())
	if !o.Valid {
		e.Buf = append(e.Buf, "null"...)
		return
	}
	e.Buf = e.AppendString(e.Buf, o.V)
}

func (s *streamer) columns(e *toonwrite.Writer, cols []wire.Column) {
	var target, property bool
	for _, c := range cols {
		target = target || c.Target.Valid
		property = property || c.Property.Valid
	}
	s.fields = append(s.fields[:0], toonwrite.Field{Name: "name"}, toonwrite.Field{Name: "function"})
	if target {
		s.fields = append(s.fields, toonwrite.Field{Name: "target"})
	}
	if property {
		s.fields = append(s.fields, toonwrite.Field{Name: "property"})
	}
	if !s.emptyOrHeader(e, "columns", len(cols)) {
		return
	}
	for i := range cols {
		c := &cols[i]
		e.Line(1)
		e.Buf = e.AppendString(e.Buf, c.Name)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = e.AppendString(e.Buf, c.Function)
		if target {
			optCell(e, c.Target)
		}
		if property {
			optCell(e, c.Property)
		}
	}
}

func (s *streamer) groupColumns(e *toonwrite.Writer, gcs []wire.GroupColumn) error {
	var property, entity bool
	for i, c := range gcs {
		if !c.Kind.Valid() {
			return &wire.EncodeError{Codec: Name, Path: wirecodec.GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(c.Kind))}
		}
		property = property || c.Property.Valid
		entity = entity || c.Entity.Valid
	}
	s.fields = append(s.fields[:0], toonwrite.Field{Name: "name"}, toonwrite.Field{Name: "kind"}, toonwrite.Field{Name: "node"})
	if property {
		s.fields = append(s.fields, toonwrite.Field{Name: "property"})
	}
	if entity {
		s.fields = append(s.fields, toonwrite.Field{Name: "entity"})
	}
	if !s.emptyOrHeader(e, "group_columns", len(gcs)) {
		return nil
	}
	for i := range gcs {
		c := &gcs[i]
		e.Line(1)
		e.Buf = e.AppendString(e.Buf, c.Name)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = e.AppendString(e.Buf, string(c.Kind))
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = e.AppendString(e.Buf, c.Node)
		if property {
			optCell(e, c.Property)
		}
		if entity {
			optCell(e, c.Entity)
		}
	}
	return nil
}

// pagination writes "pagination:" and has_more, then each optional field
// present in p, in canonical order, one per line.
func (s *streamer) pagination(e *toonwrite.Writer, p *wire.Pagination) {
	e.Line(0)
	e.Buf = append(e.Buf, "pagination:"...)
	e.Line(1)
	e.Buf = append(e.Buf, "has_more: "...)
	e.Buf = strconv.AppendBool(e.Buf, p.HasMore)
	if p.TotalRows.Valid {
		e.Line(1)
		e.Buf = append(e.Buf, "total_rows: "...)
		e.Buf = strconv.AppendInt(e.Buf, p.TotalRows.V, 10)
	}
	if p.Truncated.Valid {
		e.Line(1)
		e.Buf = append(e.Buf, "truncated: "...)
		e.Buf = strconv.AppendBool(e.Buf, p.Truncated.V)
	}
	if p.NextCursor.Valid {
		e.StringField("next_cursor", p.NextCursor.V, 1)
	}
}
