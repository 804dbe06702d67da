package json

import (
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// fields reads an object of the schema s, the value of each key into the
// matching pointer of to (see set), and refuses an object that lacks a
// required key: at the object, or, for the response, at its end. required
// overrides s.required when it is not negative. It returns 1 + the offset
// of each key read, 0 for one not read.
func (d *decoder) fields(s *schema, required int, to ...any) (at [8]int, err error) {
	start := d.Pos
	more, err := d.Open('{', s.what)
	for ; more; more, err = d.Next('}', s.what) {
		key, off, err := d.Key(max(d.l.MaxStringBytes, 64))
		if err != nil {
			return at, err
		}
		i := 0
		for i < len(s.names) && s.names[i] != key {
			i++
		}
		switch {
		case i == len(s.names):
			return at, d.unknown(off, s.what, key)
		case at[i] != 0:
			return at, d.Err(off, s.what+": duplicate field "+textwire.Excerpt(key))
		}
		at[i] = off + 1
		if err := d.set(to[i], s.labels[i]); err != nil {
			return at, err
		}
	}
	if err != nil {
		return at, err
	}
	missing := ": missing "
	if s == responseSchema {
		start, missing = d.Pos, ": missing required field "
	}
	if required < 0 {
		required = s.required
	}
	for i, name := range s.names[:required] {
		if at[i] == 0 {
			return at, d.Err(start, s.what+missing+strconv.Quote(name))
		}
	}
	return at, nil
}

// set reads the value at the position into x, by its type; label names
// it in errors.
func (d *decoder) set(x any, label string) (err error) {
	off := d.Pos
	switch x := x.(type) {
	case *string:
		*x, err = d.str(label, d.l.MaxStringBytes)
	case *wire.Opt[string]:
		x.V, err = d.str(label, d.l.MaxStringBytes)
		x.Valid = true
	case *int64: // an id
		*x, err = d.id(label)
	case *wire.Opt[int64]:
		x.V, err = d.integer(label)
		x.Valid = true
	case *bool:
		*x, err = d.boolean(label)
	case *wire.Opt[bool]:
		x.V, err = d.boolean(label)
		x.Valid = true
	case *wire.QueryType:
		var s string
		if s, err = d.str(label, max(d.l.MaxStringBytes, 64)); err == nil {
			if *x = wire.QueryType(s); !x.Valid() {
				err = d.Err(off, label+": expected one of traversal, search, neighbors, path_finding, aggregation, found "+textwire.Excerpt(s))
			}
		}
	case *wire.GroupKind:
		var s string
		if s, err = d.str(label, max(d.l.MaxStringBytes, 64)); err == nil {
			if *x = wire.GroupKind(s); !x.Valid() {
				err = d.Err(off, label+": expected \"node\" or \"property\", found "+textwire.Excerpt(s))
			}
		}
	case *[]wire.Node:
		*x, err = elements(d, &d.nodes, label)
	case *[]wire.Edge:
		*x, err = elements(d, &d.edges, label)
	case *[]wire.Column:
		*x, err = elements(d, &d.columns, label)
	case *[]wire.GroupColumn:
		*x, err = elements(d, &d.groups, label)
	case *[]wire.Row:
		*x, err = elements(d, &d.rows, label)
	case **wire.Pagination:
		*x = &wire.Pagination{}
		err = d.pagination(*x)
	case *wire.Node: // a node reference's properties
		err = d.properties("node reference", x)
	}
	return err
}

// response reads the response object, a whole plain response, or, with
// d.fragment, a document's content, in which an absent format_version,
// query_type, nodes or edges is empty (see AppendDocument).
func (d *decoder) response() (*wire.GraphResponse, error) {
	r := &wire.GraphResponse{}
	required := -1
	if d.fragment {
		required = 0
	}
	_, err := d.fields(responseSchema, required, &r.FormatVersion, &r.QueryType,
		&r.Nodes, &r.Edges, &r.Columns, &r.GroupColumns, &r.Rows, &r.Pagination)
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
// edges, columns, group columns or rows, built in the decoder's scratch
// list and copied out at its length.
func elements[T any](d *decoder, scratch *[]T, what string) ([]T, error) {
	list := (*scratch)[:0]
	defer func() { *scratch = reuse(list) }()
	more, err := d.Open('[', what)
	for ; more; more, err = d.Next(']', what) {
		if len(list) == d.l.MaxElements {
			return nil, d.tooMany(d.Pos, what)
		}
		var zero T
		list = append(grown(d, list, len(list)), zero)
		if err := d.element(&list[len(list)-1]); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	return append([]T{}, list...), nil
}

// element reads the element x of a response's list and charges it to the
// materialised size, with the Meter counting strings without reading
// them (Meter.Clean) when every string read since the last charge was its
// own canonical JSON.
func (d *decoder) element(x any) (err error) {
	off, ok := d.Pos, false
	switch x := x.(type) {
	case *wire.Node:
		err = d.properties("node", x)
		d.m.Clean = !d.Escaped
		ok = err == nil && d.m.Node(x)
	case *wire.Edge:
		_, err = d.fields(edgeSchema, -1, &x.From, &x.FromID, &x.To, &x.ToID, &x.Type, &x.Depth, &x.PathID, &x.Step)
		d.m.Clean = !d.Escaped
		ok = err == nil && d.m.Edge(x)
	case *wire.Column:
		_, err = d.fields(columnSchema, -1, &x.Name, &x.Function, &x.Target, &x.Property)
		ok = err == nil && d.m.Column(x)
	case *wire.GroupColumn:
		_, err = d.fields(groupColumnSchema, -1, &x.Name, &x.Kind, &x.Node, &x.Property, &x.Entity)
		ok = err == nil && d.m.GroupColumn(x)
	case *wire.Row:
		err = d.row(x)
		ok = err == nil && d.m.EndRow(len(*x))
	}
	d.m.Clean, d.Escaped = false, false
	if err == nil && !ok {
		err = d.tooBig(off)
	}
	return err
}

func (d *decoder) nodeRef() (*wire.Node, error) {
	n := d.keptNodes.next()
	_, err := d.fields(nodeRefSchema, -1, &n.Type, &n.ID, n)
	return n, err
}

// pagination reads a pagination object: schema v2's {has_more,
// total_rows} or schema v5's {has_more, truncated, next_cursor?}, keys in
// any order. A mix of the two, or a shape that is missing a field its
// schema requires, is an error at the key that makes it a mix, or at the
// object when a field is missing (see Pagination.Check).
func (d *decoder) pagination(p *wire.Pagination) error {
	start := d.Pos
	at, err := d.fields(paginationSchema, -1, &p.HasMore, &p.TotalRows, &p.Truncated, &p.NextCursor)
	if err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		// Point at the later of the keys that clash, or at the object
		// when a required field is missing.
		total, trunc, cursor := at[1]-1, at[2]-1, at[3]-1
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
