package goon

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// writeHeader appends the @header section.
func (e *encoder) writeHeader(b []byte, r *wire.GraphResponse, version string) ([]byte, error) {
	b = append(b, headerMarker...)
	if !e.fragment || r.QueryType != "" {
		b = append(append(append(b, "query_type:"...), r.QueryType...), '\n')
	}
	if !e.fragment {
		b = append(append(append(b, "goon_version:"...), version...), '\n')
		b = intField(b, "nodes:", int64(len(e.nodes)))
		b = intField(b, "edges:", int64(len(e.edges)))
	}
	if p := r.Pagination; p != nil {
		if p.HasMore {
			b = append(b, "has_more:true\n"...)
		}
		if p.TotalRows.Valid {
			b = intField(b, "total_rows:", p.TotalRows.V)
		}
		if p.Truncated.V {
			b = append(b, "truncated:true\n"...)
		}
		if p.NextCursor.Valid {
			b = append(appendCursor(append(b, "next_cursor:"...), p.NextCursor.V), '\n')
		}
	}
	if !e.agg {
		return b, nil
	}
	if r.Rows != nil {
		n := 0
		for _, row := range r.Rows {
			if e.rowWrites(row) {
				n++
			}
		}
		b = intField(b, "rows:", int64(n))
	}
	b, err := descriptors(b, "group_by:", len(r.GroupColumns), func(b []byte, i int) ([]byte, error) {
		g := &r.GroupColumns[i]
		b = append(b, g.Name...)
		switch g.Kind {
		case wire.GroupByNode:
			b = append(b, "(node"...)
			if g.Entity.Valid {
				return appendPart(b, ':', g.Entity.V, wirecodec.GroupColumnPath, i, "entity")
			}
		case wire.GroupByProperty:
			b = append(b, "(property"...)
			if g.Property.Valid && g.Property.V != g.Name {
				return appendPart(b, ':', g.Property.V, wirecodec.GroupColumnPath, i, "property")
			}
		default:
			return b, &wire.EncodeError{Codec: Name, Path: wirecodec.GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(g.Kind))}
		}
		return b, nil
	})
	if err != nil {
		return b, err
	}
	return descriptors(b, "aggregations:", len(r.Columns), func(b []byte, i int) ([]byte, error) {
		c := &r.Columns[i]
		if !isName(c.Function) {
			return b, notName(wirecodec.ColumnPath(i).Field("function").String(), "function", c.Function)
		}
		b = append(append(append(b, c.Name...), '('), c.Function...)
		var err error
		if c.Target.Valid {
			if b, err = appendPart(b, ':', c.Target.V, wirecodec.ColumnPath, i, "target"); err == nil && c.Property.Valid {
				b, err = appendPart(b, '.', c.Property.V, wirecodec.ColumnPath, i, "property")
			}
		}
		return b, err
	})
}

// intField appends the header line of an integer field.
func intField(b []byte, field string, n int64) []byte {
	return append(strconv.AppendInt(append(b, field...), n, 10), '\n')
}

// descriptors appends the header line field of n descriptors, written by
// each without its closing parenthesis, separated by commas; nothing when
// n is 0.
func descriptors(b []byte, field string, n int, each func([]byte, int) ([]byte, error)) ([]byte, error) {
	if n == 0 {
		return b, nil
	}
	b = append(b, field...)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = each(b, i); err != nil {
			return b, err
		}
		b = append(b, ')')
	}
	return append(b, '\n'), nil
}

// appendPart appends sep and the name s, a part of column i's descriptor;
// s that is not a name is an error at the column's field what.
func appendPart(b []byte, sep byte, s string, path func(int) wirecodec.Path, i int, what string) ([]byte, error) {
	if !isName(s) {
		return b, notName(path(i).Field(what).String(), what, s)
	}
	return append(append(b, sep), s...), nil
}
