package json

import (
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// response reads the response object, a whole plain response, or, with
// d.fragment, a document's content, in which an absent format_version,
// query_type, nodes or edges is empty (see AppendDocument).
func (d *decoder) response() (*wire.GraphResponse, error) {
	r := &wire.GraphResponse{}
	var seen [8]bool
	fields := [...]string{"format_version", "query_type", "nodes", "edges", "columns", "group_columns", "rows", "pagination"}
	d.ws()
	err := d.object("response", func(key string, keyOff int) error {
		idx := -1
		for i, f := range fields {
			if f == key {
				idx = i
				break
			}
		}
		if idx < 0 {
			return d.errAt(keyOff, "unknown top-level field "+textwire.Excerpt(key))
		}
		if seen[idx] {
			return d.errAt(keyOff, "duplicate field "+textwire.Excerpt(key))
		}
		seen[idx] = true
		var err error
		switch idx {
		case 0:
			r.FormatVersion, err = d.str("format_version")
		case 1:
			off := d.pos
			var s string
			if s, err = d.enum("query_type"); err == nil {
				r.QueryType = wire.QueryType(s)
				if !r.QueryType.Valid() {
					err = d.errAt(off, "query_type: expected one of traversal, search, neighbors, path_finding, aggregation, found "+textwire.Excerpt(s))
				}
			}
		case 2:
			err = elements(d, "nodes", &r.Nodes, d.node, cleanCharge(d, d.m.Node))
		case 3:
			err = elements(d, "edges", &r.Edges, d.edge, cleanCharge(d, d.m.Edge))
		case 4:
			err = elements(d, "columns", &r.Columns, d.column, d.m.Column)
		case 5:
			err = elements(d, "group_columns", &r.GroupColumns, d.groupColumn, d.m.GroupColumn)
		case 6:
			r.Rows = []wire.Row{}
			err = d.array("rows", func(i int) error {
				off := d.pos
				row, err := d.row()
				if err != nil {
					return err
				}
				r.Rows = append(grown(d, r.Rows, i), row)
				if !d.m.EndRow(len(row)) {
					return d.tooBig(off)
				}
				return nil
			})
		case 7:
			r.Pagination = &wire.Pagination{}
			err = d.pagination(r.Pagination)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.pos < len(d.data) {
		return nil, d.errAt(d.pos, "unexpected data after the response: "+d.found())
	}
	if d.fragment {
		if !seen[2] {
			r.Nodes = []wire.Node{}
		}
		if !seen[3] {
			r.Edges = []wire.Edge{}
		}
	}
	for i, f := range fields[:4] {
		if !seen[i] && !d.fragment {
			return nil, d.errAt(len(d.data), "response: missing required field "+strconv.Quote(f))
		}
	}
	if !d.m.Finish(r) {
		return nil, d.tooBig(len(d.data))
	}
	return r, nil
}

// elements reads the JSON array what into a new, present *list: each
// element by read, then charged to the materialised size by charge.
func elements[T any](d *decoder, what string, list *[]T, read func(*T) error, charge func(*T) bool) error {
	*list = []T{}
	return d.array(what, func(int) error {
		off := d.pos
		var zero T
		*list = append(*list, zero)
		x := &(*list)[len(*list)-1]
		if err := read(x); err != nil {
			return err
		}
		if !charge(x) {
			return d.tooBig(off)
		}
		return nil
	})
}

// cleanCharge returns charge, run with the Meter counting strings without
// reading them (Meter.clean) when every string read since the last charge
// was taken as it was from the input: a JSON string without an escape
// that the scanner found valid UTF-8 with no control character is its own
// canonical JSON.
func cleanCharge[T any](d *decoder, charge func(*T) bool) func(*T) bool {
	return func(x *T) bool {
		d.m.Clean = !d.escaped
		ok := charge(x)
		d.m.Clean, d.escaped = false, false
		return ok
	}
}

func (d *decoder) node(n *wire.Node) error {
	var haveType, haveID bool
	var keys objectKeys
	start := d.pos
	base := len(d.props)
	defer func() { d.props = d.props[:base] }()
	err := d.object("node", func(key string, keyOff int) error {
		var err error
		switch key {
		case "type":
			if haveType {
				return d.errAt(keyOff, "node: duplicate field \"type\"")
			}
			haveType = true
			n.Type, err = d.name1("node type")
		case "id":
			if haveID {
				return d.errAt(keyOff, "node: duplicate field \"id\"")
			}
			haveID = true
			n.ID, err = d.id("node id")
		default:
			err = d.property(&keys, base, "node", key, keyOff)
		}
		return err
	})
	if err != nil {
		return err
	}
	if n.Properties, err = d.endProperties(&keys, base, "node"); err != nil {
		return err
	}
	if !haveType {
		return d.errAt(start, "node: missing \"type\"")
	}
	if !haveID {
		return d.errAt(start, "node: missing \"id\"")
	}
	return nil
}

// fields parses an object whose keys are among names, each at most once,
// calling fn with the index in names of each key, at its value. The first
// required names must be present. Errors start with what. There are at
// most 8 names.
func (d *decoder) fields(what string, names []string, required int, fn func(idx int) error) error {
	var seen [8]bool
	start := d.pos
	err := d.object(what, func(key string, keyOff int) error {
		idx := -1
		for i, f := range names {
			if f == key {
				idx = i
				break
			}
		}
		if idx < 0 {
			return d.errAt(keyOff, what+": unknown field "+textwire.Excerpt(key))
		}
		if seen[idx] {
			return d.errAt(keyOff, what+": duplicate field "+textwire.Excerpt(key))
		}
		seen[idx] = true
		return fn(idx)
	})
	if err != nil {
		return err
	}
	for i, f := range names[:required] {
		if !seen[i] {
			return d.errAt(start, what+": missing "+strconv.Quote(f))
		}
	}
	return nil
}

var edgeFields = [...]string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}

func (d *decoder) edge(e *wire.Edge) error {
	return d.fields("edge", edgeFields[:], 5, func(idx int) error {
		var err error
		switch idx {
		case 0:
			e.From, err = d.name1("edge from")
		case 1:
			e.FromID, err = d.id("edge from_id")
		case 2:
			e.To, err = d.name1("edge to")
		case 3:
			e.ToID, err = d.id("edge to_id")
		case 4:
			e.Type, err = d.name1("edge type")
		case 5:
			e.Depth.V, err = d.integer("edge depth")
			e.Depth.Valid = true
		case 6:
			e.PathID.V, err = d.integer("edge path_id")
			e.PathID.Valid = true
		case 7:
			e.Step.V, err = d.integer("edge step")
			e.Step.Valid = true
		}
		return err
	})
}

var columnFields = [...]string{"name", "function", "target", "property"}

func (d *decoder) column(c *wire.Column) error {
	return d.fields("column", columnFields[:], 2, func(idx int) error {
		var err error
		switch idx {
		case 0:
			c.Name, err = d.name1("column name")
		case 1:
			c.Function, err = d.name1("column function")
		case 2:
			c.Target.V, err = d.name1("column target")
			c.Target.Valid = true
		case 3:
			c.Property.V, err = d.name1("column property")
			c.Property.Valid = true
		}
		return err
	})
}

var groupColumnFields = [...]string{"name", "kind", "node", "property", "entity"}

func (d *decoder) groupColumn(g *wire.GroupColumn) error {
	return d.fields("group column", groupColumnFields[:], 3, func(idx int) error {
		var err error
		switch idx {
		case 0:
			g.Name, err = d.name1("group column name")
		case 1:
			off := d.pos
			var s string
			if s, err = d.enum("group column kind"); err == nil {
				g.Kind = wire.GroupKind(s)
				if !g.Kind.Valid() {
					err = d.errAt(off, "group column kind: expected \"node\" or \"property\", found "+textwire.Excerpt(s))
				}
			}
		case 2:
			g.Node, err = d.name1("group column node")
		case 3:
			g.Property.V, err = d.name1("group column property")
			g.Property.Valid = true
		case 4:
			g.Entity.V, err = d.name1("group column entity")
			g.Entity.Valid = true
		}
		return err
	})
}

func (d *decoder) row() (wire.Row, error) {
	var keys objectKeys
	base := len(d.cells)
	defer func() { d.cells = d.cells[:base] }()
	err := d.object("row", func(key string, keyOff int) error {
		cells := d.cells[base:]
		if len(cells) == d.l.MaxElements {
			return d.tooMany(keyOff, "row cells")
		}
		if len(key) > d.l.MaxStringBytes {
			return d.tooLong(keyOff)
		}
		if keys.add(key, keyOff, func(i int) string { return cells[i].Name }) {
			return d.errAt(keyOff, "row: duplicate cell "+textwire.Excerpt(key))
		}
		var c wire.Cell
		if d.peek() == '{' {
			n, err := d.nodeRef()
			if err != nil {
				return err
			}
			c = wire.Cell{Name: key, Node: n}
		} else {
			v, err := d.value(key)
			if err != nil {
				return err
			}
			c = wire.Cell{Name: key, Value: v}
		}
		d.cells = append(d.cells, c)
		if !d.m.Cell(&c) {
			return d.tooBig(keyOff)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if off, k, dup := keys.repeat(func(i int) string { return d.cells[base+i].Name }); dup {
		return nil, d.errAt(off, "row: duplicate cell "+textwire.Excerpt(k))
	}
	if len(d.cells) == base {
		return wire.Row{}, nil
	}
	return d.keptCells.keep(d.cells[base:]), nil
}

var nodeRefFields = [...]string{"type", "id", "properties"}

func (d *decoder) nodeRef() (*wire.Node, error) {
	n := d.keptNodes.next()
	err := d.fields("node reference", nodeRefFields[:], len(nodeRefFields), func(idx int) error {
		var err error
		switch idx {
		case 0:
			n.Type, err = d.name1("node reference type")
		case 1:
			n.ID, err = d.id("node reference id")
		case 2:
			n.Properties, err = d.refProperties()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// refProperties parses the properties object of a node reference.
func (d *decoder) refProperties() ([]wire.Property, error) {
	var keys objectKeys
	base := len(d.props)
	defer func() { d.props = d.props[:base] }()
	err := d.object("properties", func(key string, keyOff int) error {
		if key == "type" || key == "id" {
			return d.errAt(keyOff, "node reference: property named "+strconv.Quote(key))
		}
		return d.property(&keys, base, "node reference", key, keyOff)
	})
	if err != nil {
		return nil, err
	}
	return d.endProperties(&keys, base, "node reference")
}

// property reads the value of the property key, at keyOff, of a node
// whose properties so far are d.props[base:], after checking the key
// against MaxElements, MaxStringBytes and the keys before it; what names
// the node in errors ("node", "node reference").
func (d *decoder) property(keys *objectKeys, base int, what, key string, keyOff int) error {
	props := d.props[base:]
	if len(props) == d.l.MaxElements {
		return d.tooMany(keyOff, what+" properties")
	}
	if len(key) > d.l.MaxStringBytes {
		return d.tooLong(keyOff)
	}
	if keys.add(key, keyOff, func(i int) string { return props[i].Key }) {
		return d.errAt(keyOff, what+": duplicate property "+textwire.Excerpt(key))
	}
	v, err := d.value(key)
	d.props = append(grown(d, d.props, len(props)), wire.Property{Key: key, Value: v})
	return err
}

// endProperties returns a copy of the node's properties, d.props[base:],
// once its object has been read, or the error for a repeated key that
// property could not find at once.
func (d *decoder) endProperties(keys *objectKeys, base int, what string) ([]wire.Property, error) {
	if off, k, dup := keys.repeat(func(i int) string { return d.props[base+i].Key }); dup {
		return nil, d.errAt(off, what+": duplicate property "+textwire.Excerpt(k))
	}
	if ps := d.props[base:]; base == 0 && len(ps) >= presizeMin && cap(ps)-len(ps) <= len(ps)/8 {
		// Sized by grown to the node's properties: the scratch becomes
		// them rather than being copied, and the next node starts a new one.
		d.props = nil
		return ps[:len(ps):len(ps)], nil
	}
	return d.keepProps(d.props[base:]), nil
}

// paginationKeys are the pagination fields in canonical order.
var paginationKeys = [...]string{"has_more", "total_rows", "truncated", "next_cursor"}

// pagination parses a pagination object: schema v2's {has_more,
// total_rows} or schema v5's {has_more, truncated, next_cursor?}, keys in
// any order. A mix of the two, or a shape that is missing a field its
// schema requires, is an error at the key that makes it a mix, or at the
// object when a field is missing (see Pagination.Schema).
func (d *decoder) pagination(p *wire.Pagination) error {
	at := [len(paginationKeys)]int{-1, -1, -1, -1} // offset of each key, -1 when absent
	start := d.pos
	err := d.object("pagination", func(key string, keyOff int) error {
		k := 0
		for k < len(paginationKeys) && paginationKeys[k] != key {
			k++
		}
		if k == len(paginationKeys) {
			return d.errAt(keyOff, "pagination: unknown field "+textwire.Excerpt(key))
		}
		if at[k] >= 0 {
			return d.errAt(keyOff, "pagination: duplicate field "+textwire.Excerpt(key))
		}
		at[k] = keyOff
		var err error
		switch k {
		case 0:
			p.HasMore, err = d.boolean("pagination has_more")
		case 1:
			p.TotalRows.V, err = d.integer("pagination total_rows")
			p.TotalRows.Valid = true
		case 2:
			p.Truncated.V, err = d.boolean("pagination truncated")
			p.Truncated.Valid = true
		case 3:
			p.NextCursor.V, err = d.str("next_cursor")
			p.NextCursor.Valid = true
		}
		return err
	})
	if err != nil {
		return err
	}
	if at[0] < 0 {
		return d.errAt(start, `pagination: missing "has_more"`)
	}
	if err := p.Check(); err != nil {
		// Point at the later of the keys that clash, or at the object
		// when a required field is missing.
		off := start
		switch {
		case at[1] >= 0 && at[2] >= 0:
			off = max(at[1], at[2])
		case at[1] >= 0 && at[3] >= 0:
			off = max(at[1], at[3])
		case at[3] >= 0:
			off = at[3]
		}
		return d.errAt(off, "pagination: "+err.Error())
	}
	return nil
}
