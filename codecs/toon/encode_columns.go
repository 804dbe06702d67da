package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// optionalTable writes the table key of n rows of strings, cell(i, k)
// row i's column k: the first required columns, and each other some row
// has.
func (s *streamer) optionalTable(e *toonwrite.Writer, key string, names []string, required, n int, cell func(i, k int) wire.Opt[string]) {
	var has [8]bool
	s.fields = s.fields[:0]
	for k, name := range names {
		for i := 0; i < n && !has[k]; i++ {
			has[k] = k < required || cell(i, k).Valid
		}
		if has[k] || k < required {
			s.fields = append(s.fields, toonwrite.Field{Name: name})
		}
	}
	e.Line(0)
	if n == 0 {
		e.Buf = append(toonwrite.AppendKey(e.Buf, key), ": []"...)
		return
	}
	e.Header(&key, n, s.fields, false)
	for i := 0; i < n; i++ {
		e.Line(1)
		for k := range names {
			switch o := cell(i, k); {
			case k < required:
				if k > 0 {
					e.Buf = append(e.Buf, e.Delim())
				}
				e.Buf = e.AppendString(e.Buf, o.V)
			case !has[k]:
			case !o.Valid:
				e.Buf = append(append(e.Buf, e.Delim()), "null"...)
			default:
				e.Buf = e.AppendString(append(e.Buf, e.Delim()), o.V)
			}
		}
	}
}

func (s *streamer) columns(e *toonwrite.Writer, cols []wire.Column) {
	s.optionalTable(e, "columns", columnFields, 2, len(cols), func(i, k int) wire.Opt[string] {
		c := &cols[i]
		return [...]wire.Opt[string]{wire.Some(c.Name), wire.Some(c.Function), c.Target, c.Property}[k]
	})
}

func (s *streamer) groupColumns(e *toonwrite.Writer, gcs []wire.GroupColumn) error {
	for i, c := range gcs {
		if !c.Kind.Valid() {
			return &wire.EncodeError{Codec: Name, Path: wirecodec.GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(c.Kind))}
		}
	}
	s.optionalTable(e, "group_columns", groupColumnFields, 3, len(gcs), func(i, k int) wire.Opt[string] {
		c := &gcs[i]
		return [...]wire.Opt[string]{wire.Some(c.Name), wire.Some(string(c.Kind)), wire.Some(c.Node), c.Property, c.Entity}[k]
	})
	return nil
}

// pagination writes the pagination object.
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
