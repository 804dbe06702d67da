package json

import (
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// A fieldSet is an object of the schema, what in errors, whose keys are
// among names (at most 8), each at most once; the first required are
// required.
type fieldSet struct {
	what     string
	names    []string
	required int
	at       [8]int // 1 + the offset of each key read, 0 for one not read
}

var (
	responseFields    = [...]string{"format_version", "query_type", "nodes", "edges", "columns", "group_columns", "rows", "pagination"}
	edgeFields        = [...]string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}
	columnFields      = [...]string{"name", "function", "target", "property"}
	groupColumnFields = [...]string{"name", "kind", "node", "property", "entity"}
	nodeRefFields     = [...]string{"type", "id", "properties"}
	paginationFields  = [...]string{"has_more", "total_rows", "truncated", "next_cursor"}
)

// fields reads the object f, calling read with the index in f.names of
// each key, at its value, and refuses an object that lacks a required
// key: at the object, or, for the response, at its end.
func (d *decoder) fields(f *fieldSet, read func(idx int) error) error {
	start := d.Pos
	more, err := d.Open('{', f.what)
	for ; more; more, err = d.Next('}', f.what) {
		idx, err := d.field(f)
		if err == nil {
			err = read(idx)
		}
		if err != nil {
			return err
		}
	}
	if err != nil {
		return err
	}
	missing := ": missing "
	if f.what == "response" {
		start, missing = d.Pos, ": missing required field "
	}
	for i, name := range f.names[:f.required] {
		if f.at[i] == 0 {
			return d.Err(start, f.what+missing+strconv.Quote(name))
		}
	}
	return nil
}

// field reads the next key of the object f and returns its index in
// f.names, the position at its value.
func (d *decoder) field(f *fieldSet) (int, error) {
	key, off, err := d.Key(max(d.l.MaxStringBytes, 64))
	if err != nil {
		return 0, err
	}
	for i, name := range f.names {
		if name == key {
			if f.at[i] != 0 {
				return 0, d.duplicate(off, f.what, key)
			}
			f.at[i] = off + 1
			return i, nil
		}
	}
	return 0, d.unknown(off, f.what, key)
}

// response reads the response object, a whole plain response, or, with
// d.fragment, a document's content, in which an absent format_version,
// query_type, nodes or edges is empty (see AppendDocument).
func (d *decoder) response() (*wire.GraphResponse, error) {
	r := &wire.GraphResponse{}
	f := fieldSet{what: "response", names: responseFields[:], required: 4}
	if d.fragment {
		f.required = 0
	}
	err := d.fields(&f, func(idx int) (err error) {
		switch idx {
		case 0:
			r.FormatVersion, err = d.str(`"format_version"`)
		case 1:
			off := d.Pos
			var s string
			if s, err = d.enum("query_type"); err == nil {
				if r.QueryType = wire.QueryType(s); !r.QueryType.Valid() {
					err = d.Err(off, "query_type: expected one of traversal, search, neighbors, path_finding, aggregation, found "+textwire.Excerpt(s))
				}
			}
		case 2:
			r.Nodes, err = elements[wire.Node](d, "nodes", false)
		case 3:
			r.Edges, err = elements[wire.Edge](d, "edges", false)
		case 4:
			r.Columns, err = elements[wire.Column](d, "columns", false)
		case 5:
			r.GroupColumns, err = elements[wire.GroupColumn](d, "group_columns", false)
		case 6:
			r.Rows, err = elements[wire.Row](d, "rows", true)
		case 7:
			r.Pagination = &wire.Pagination{}
			err = d.pagination(r.Pagination)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if r.Nodes == nil {
		r.Nodes = []wire.Node{}
	}
	if r.Edges == nil {
		r.Edges = []wire.Edge{}
	}
	if !d.m.Finish(r) {
		return nil, d.tooBig(d.Pos)
	}
	return r, nil
}

// elements reads the array what into a new, present list of nodes,
// edges, columns, group columns or rows. With sized, a long list is sized
// from the rest of its text (see grown).
func elements[T any](d *decoder, what string, sized bool) ([]T, error) {
	list := []T{}
	more, err := d.Open('[', what)
	for ; more; more, err = d.Next(']', what) {
		if len(list) == d.l.MaxElements {
			return nil, d.tooMany(d.Pos, what)
		}
		if sized {
			list = grown(d, list, len(list))
		}
		var zero T
		list = append(list, zero)
		if err := d.element(&list[len(list)-1]); err != nil {
			return nil, err
		}
	}
	return list, err
}

// element reads the element x of a response's list and charges it to the
// materialised size, with the Meter counting strings without reading
// them (Meter.Clean) when every string read since the last charge was its
// own canonical JSON.
func (d *decoder) element(x any) (err error) {
	off, ok := d.Pos, false
	switch x := x.(type) {
	case *wire.Node:
		if err = d.node(x); err == nil {
			d.m.Clean = !d.Escaped
			ok = d.m.Node(x)
		}
	case *wire.Edge:
		if err = d.edge(x); err == nil {
			d.m.Clean = !d.Escaped
			ok = d.m.Edge(x)
		}
	case *wire.Column:
		if err = d.column(x); err == nil {
			ok = d.m.Column(x)
		}
	case *wire.GroupColumn:
		if err = d.groupColumn(x); err == nil {
			ok = d.m.GroupColumn(x)
		}
	case *wire.Row:
		if err = d.row(x); err == nil {
			ok = d.m.EndRow(len(*x))
		}
	}
	d.m.Clean, d.Escaped = false, false
	if err == nil && !ok {
		err = d.tooBig(off)
	}
	return err
}

func (d *decoder) node(n *wire.Node) error { return d.properties("node", n) }

func (d *decoder) edge(e *wire.Edge) error {
	f := fieldSet{what: "edge", names: edgeFields[:], required: 5}
	return d.fields(&f, func(idx int) (err error) {
		switch idx {
		case 0:
			e.From, err = d.str("edge from")
		case 1:
			e.FromID, err = d.id("edge from_id")
		case 2:
			e.To, err = d.str("edge to")
		case 3:
			e.ToID, err = d.id("edge to_id")
		case 4:
			e.Type, err = d.str("edge type")
		case 5:
			e.Depth, err = d.optInt("edge depth")
		case 6:
			e.PathID, err = d.optInt("edge path_id")
		case 7:
			e.Step, err = d.optInt("edge step")
		}
		return err
	})
}

func (d *decoder) optInt(field string) (wire.Opt[int64], error) {
	i, err := d.integer(field)
	return wire.Some(i), err
}

func (d *decoder) optStr(field string) (wire.Opt[string], error) {
	s, err := d.str(field)
	return wire.Some(s), err
}

func (d *decoder) column(c *wire.Column) error {
	f := fieldSet{what: "column", names: columnFields[:], required: 2}
	return d.fields(&f, func(idx int) (err error) {
		switch idx {
		case 0:
			c.Name, err = d.str("column name")
		case 1:
			c.Function, err = d.str("column function")
		case 2:
			c.Target, err = d.optStr("column target")
		case 3:
			c.Property, err = d.optStr("column property")
		}
		return err
	})
}

func (d *decoder) groupColumn(g *wire.GroupColumn) error {
	f := fieldSet{what: "group column", names: groupColumnFields[:], required: 3}
	return d.fields(&f, func(idx int) (err error) {
		switch idx {
		case 0:
			g.Name, err = d.str("group column name")
		case 1:
			off := d.Pos
			var s string
			if s, err = d.enum("group column kind"); err == nil {
				if g.Kind = wire.GroupKind(s); !g.Kind.Valid() {
					err = d.Err(off, "group column kind: expected \"node\" or \"property\", found "+textwire.Excerpt(s))
				}
			}
		case 2:
			g.Node, err = d.str("group column node")
		case 3:
			g.Property, err = d.optStr("group column property")
		case 4:
			g.Entity, err = d.optStr("group column entity")
		}
		return err
	})
}

// pagination reads a pagination object: schema v2's {has_more,
// total_rows} or schema v5's {has_more, truncated, next_cursor?}, keys in
// any order. A mix of the two, or a shape that is missing a field its
// schema requires, is an error at the key that makes it a mix, or at the
// object when a field is missing (see Pagination.Check).
func (d *decoder) pagination(p *wire.Pagination) error {
	f := fieldSet{what: "pagination", names: paginationFields[:], required: 1}
	start := d.Pos
	err := d.fields(&f, func(idx int) (err error) {
		switch idx {
		case 0:
			p.HasMore, err = d.boolean("pagination has_more")
		case 1:
			p.TotalRows, err = d.optInt("pagination total_rows")
		case 2:
			p.Truncated.V, err = d.boolean("pagination truncated")
			p.Truncated.Valid = true
		case 3:
			p.NextCursor, err = d.optStr(`"next_cursor"`)
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		// Point at the later of the keys that clash, or at the object
		// when a required field is missing.
		total, trunc, cursor := f.at[1]-1, f.at[2]-1, f.at[3]-1
		off := start
		switch {
		case total >= 0 && trunc >= 0:
			off = max(total, trunc)
		case total >= 0 && cursor >= 0:
			off = max(total, cursor)
		case cursor >= 0:
			off = cursor
		}
		return d.Err(off, "pagination: "+err.Error())
	}
	return nil
}

// boolean reads true or false.
func (d *decoder) boolean(field string) (bool, error) {
	switch {
	case d.Literal("true"):
		return true, nil
	case d.Literal("false"):
		return false, nil
	}
	return false, d.Expected("boolean for " + field)
}
