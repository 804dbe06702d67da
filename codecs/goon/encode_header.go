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
		b = append(b, "query_type:"...)
		b = append(b, r.QueryType...)
		b = append(b, '\n')
	}
	if !e.fragment {
		b = append(b, "goon_version:"...)
		b = append(b, version...)
		b = append(b, "\nnodes:"...)
		b = strconv.AppendInt(b, int64(len(e.nodes)), 10)
		b = append(b, "\nedges:"...)
		b = strconv.AppendInt(b, int64(len(e.edges)), 10)
		b = append(b, '\n')
	}
	if p := r.Pagination; p != nil {
		if p.HasMore {
			b = append(b, "has_more:true\n"...)
		}
		if p.TotalRows.Valid {
			b = append(b, "total_rows:"...)
			b = strconv.AppendInt(b, p.TotalRows.V, 10)
			b = append(b, '\n')
		}
		if p.Truncated.V {
			b = append(b, "truncated:true\n"...)
		}
		if p.NextCursor.Valid {
			b = append(b, "next_cursor:"...)
			b = appendCursor(b, p.NextCursor.V)
			b = append(b, '\n')
		}
	}
	if e.agg {
		return e.aggregationHeader(b, r)
	}
	return b, nil
}

// aggregationHeader appends an aggregation's rows:, group_by: and
// aggregations: fields.
func (e *encoder) aggregationHeader(b []byte, r *wire.GraphResponse) (_ []byte, err error) {
	if r.Rows != nil {
		n := 0
		for _, row := range r.Rows {
			if e.rowWrites(row) {
				n++
			}
		}
		b = append(b, "rows:"...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '\n')
	}
	if len(r.GroupColumns) > 0 {
		b = append(b, "group_by:"...)
		for i, g := range r.GroupColumns {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, g.Name...)
			switch g.Kind {
			case wire.GroupByNode:
				b = append(b, "(node"...)
				if g.Entity.Valid {
					if b, err = appendPart(b, ':', g.Entity.V, wirecodec.GroupColumnPath, i, "entity"); err != nil {
						return b, err
					}
				}
			case wire.GroupByProperty:
				b = append(b, "(property"...)
				if g.Property.Valid && g.Property.V != g.Name {
					if b, err = appendPart(b, ':', g.Property.V, wirecodec.GroupColumnPath, i, "property"); err != nil {
						return b, err
					}
				}
			default:
				return b, &wire.EncodeError{Codec: Name, Path: wirecodec.GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(g.Kind))}
			}
			b = append(b, ')')
		}
		b = append(b, '\n')
	}
	if len(r.Columns) > 0 {
		b = append(b, "aggregations:"...)
		for i, c := range r.Columns {
			if i > 0 {
				b = append(b, ',')
			}
			if !isName(c.Function) {
				return b, notName(wirecodec.ColumnPath(i).Field("function").String(), "function", c.Function)
			}
			b = append(b, c.Name...)
			b = append(b, '(')
			b = append(b, c.Function...)
			if c.Target.Valid {
				if b, err = appendPart(b, ':', c.Target.V, wirecodec.ColumnPath, i, "target"); err != nil {
					return b, err
				}
				if c.Property.Valid {
					if b, err = appendPart(b, '.', c.Property.V, wirecodec.ColumnPath, i, "property"); err != nil {
						return b, err
					}
				}
			}
			b = append(b, ')')
		}
		b = append(b, '\n')
	}
	return b, nil
}

// appendPart appends sep and the name s, a part of column i's descriptor;
// s that is not a name is an error at the column's field what.
func appendPart(b []byte, sep byte, s string, path func(int) wirecodec.Path, i int, what string) ([]byte, error) {
	if !isName(s) {
		return b, notName(path(i).Field(what).String(), what, s)
	}
	return append(append(b, sep), s...), nil
}
