package gcf

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// reader walks the generic value of a document, recording the first
// layout error.
type reader struct {
	err      *wire.DecodeError
	fragment bool
}

func (d *reader) fail(path, msg string) {
	if d.err == nil {
		d.err = shapeError(path, msg)
	}
}

func (d *reader) object(v jsonvalue.Value, path string) *jsonvalue.Object {
	o, ok := v.(*jsonvalue.Object)
	if !ok || o == nil {
		d.fail(path, "expected an object (a section or a table row)")
		return &jsonvalue.Object{}
	}
	return o
}

func (d *reader) array(v jsonvalue.Value, path string) []jsonvalue.Value {
	a, ok := v.([]jsonvalue.Value)
	if !ok {
		d.fail(path, "expected a table or array")
	}
	return a
}

func (d *reader) str(v jsonvalue.Value, path string) string {
	s, ok := v.(string)
	if !ok {
		d.fail(path, "expected a string")
	}
	return s
}

func (d *reader) integer(v jsonvalue.Value, path string) int64 {
	n, ok := v.(jsonvalue.Number)
	if ok && n.IsInt() {
		i, _ := n.Int64()
		return i
	}
	d.fail(path, "expected an integer")
	return 0
}

// fields reads the members of o: the required ones in req, the optional
// ones in opt; any other member is an error.
func (d *reader) fields(o *jsonvalue.Object, path string, req, opt []string) map[string]jsonvalue.Value {
	m := make(map[string]jsonvalue.Value, len(o.Members))
	for _, mem := range o.Members {
		known := false
		for _, k := range req {
			known = known || k == mem.Key
		}
		for _, k := range opt {
			known = known || k == mem.Key
		}
		if !known {
			d.fail(path, "unexpected field "+strconv.Quote(mem.Key))
		}
		m[mem.Key] = mem.Value
	}
	for _, k := range req {
		if _, ok := m[k]; !ok {
			d.fail(path, "missing field "+k)
		}
	}
	return m
}

func (d *reader) optInt(m map[string]jsonvalue.Value, k, path string) wire.OptInt {
	v, ok := m[k]
	if !ok {
		return wire.OptInt{}
	}
	return wire.SomeInt(d.integer(v, path+"."+k))
}

func (d *reader) optString(m map[string]jsonvalue.Value, k, path string) wire.OptString {
	v, ok := m[k]
	if !ok {
		return wire.OptString{}
	}
	return wire.SomeString(d.str(v, path+"."+k))
}

// response reads a document into a response.
// A fragment (the content of a document with a header) may leave out
// format_version, query_type, nodes and edges.
func response(v jsonvalue.Value, fragment bool) (*wire.GraphResponse, error) {
	d := reader{fragment: fragment}
	r := d.response(v)
	if d.err != nil {
		return nil, d.err
	}
	return r, nil
}

func (d *reader) response(v jsonvalue.Value) *wire.GraphResponse {
	req, opt := []string{"format_version", "query_type", "nodes", "edges"}, []string{"columns", "group_columns", "rows", "pagination"}
	if d.fragment {
		req, opt = nil, append(req, opt...)
	}
	top := d.fields(d.object(v, "document"), "document", req, opt)
	r := &wire.GraphResponse{}
	if v, ok := top["format_version"]; ok || !d.fragment {
		r.FormatVersion = d.str(v, "format_version")
	}
	if v, ok := top["query_type"]; ok || !d.fragment {
		r.QueryType = wire.QueryType(d.str(v, "query_type"))
	}
	if _, ok := top["query_type"]; d.err == nil && ok && !r.QueryType.Valid() {
		d.fail("query_type", "unknown query type "+strconv.Quote(string(r.QueryType)))
	}
	var nodes, edges []jsonvalue.Value
	if v, ok := top["nodes"]; ok || !d.fragment {
		nodes = d.ungroup(v, "nodes")
	}
	if v, ok := top["edges"]; ok || !d.fragment {
		edges = d.array(v, "edges")
	}
	for i, n := range nodes {
		r.Nodes = append(r.Nodes, d.node(n, "nodes["+strconv.Itoa(i)+"]"))
		nodes[i] = nil // read: the collector may take it
	}
	for i, e := range edges {
		p := "edges[" + strconv.Itoa(i) + "]"
		m := d.fields(d.object(e, p), p, []string{"from", "from_id", "to", "to_id", "type"}, []string{"depth", "path_id", "step"})
		r.Edges = append(r.Edges, wire.Edge{From: d.str(m["from"], p+".from"), FromID: d.integer(m["from_id"], p+".from_id"),
			To: d.str(m["to"], p+".to"), ToID: d.integer(m["to_id"], p+".to_id"), Type: d.str(m["type"], p+".type"),
			Depth: d.optInt(m, "depth", p), PathID: d.optInt(m, "path_id", p), Step: d.optInt(m, "step", p)})
	}
	if v, ok := top["columns"]; ok {
		r.Columns = []wire.Column{}
		for i, c := range d.array(v, "columns") {
			p := "columns[" + strconv.Itoa(i) + "]"
			m := d.fields(d.object(c, p), p, []string{"name", "function"}, []string{"target", "property"})
			r.Columns = append(r.Columns, wire.Column{Name: d.str(m["name"], p+".name"), Function: d.str(m["function"], p+".function"),
				Target: d.optString(m, "target", p), Property: d.optString(m, "property", p)})
		}
	}
	if v, ok := top["group_columns"]; ok {
		r.GroupColumns = []wire.GroupColumn{}
		for i, g := range d.array(v, "group_columns") {
			p := "group_columns[" + strconv.Itoa(i) + "]"
			m := d.fields(d.object(g, p), p, []string{"name", "kind", "node"}, []string{"property", "entity"})
			gc := wire.GroupColumn{Name: d.str(m["name"], p+".name"), Kind: wire.GroupKind(d.str(m["kind"], p+".kind")),
				Node: d.str(m["node"], p+".node"), Property: d.optString(m, "property", p), Entity: d.optString(m, "entity", p)}
			if d.err == nil && !gc.Kind.Valid() {
				d.fail(p+".kind", "unknown group kind "+strconv.Quote(string(gc.Kind)))
			}
			r.GroupColumns = append(r.GroupColumns, gc)
		}
	}
	if v, ok := top["rows"]; ok {
		r.Rows = []wire.Row{}
		rows := d.ungroup(v, "rows")
		for i, row := range rows {
			rows[i] = nil // read below: the collector may take it as the response grows
			p := "rows[" + strconv.Itoa(i) + "]"
			o := d.object(row, p)
			cells := make(wire.Row, 0, len(o.Members))
			for _, m := range o.Members {
				if n, ok := m.Value.(*jsonvalue.Object); ok && n != nil {
					node := d.node(n, p+"."+m.Key)
					cells = append(cells, wire.Cell{Name: m.Key, Node: &node})
					continue
				}
				cells = append(cells, wire.Cell{Name: m.Key, Value: d.value(m.Value, p+"."+m.Key)})
			}
			r.Rows = append(r.Rows, cells)
		}
	}
	if v, ok := top["pagination"]; ok {
		m := d.fields(d.object(v, "pagination"), "pagination", []string{"has_more"}, []string{"total_rows", "truncated", "next_cursor"})
		hm, ok := m["has_more"].(bool)
		if !ok {
			d.fail("pagination.has_more", "expected true or false")
		}
		pg := &wire.Pagination{HasMore: hm, TotalRows: d.optInt(m, "total_rows", "pagination"), NextCursor: d.optString(m, "next_cursor", "pagination")}
		if t, ok := m["truncated"]; ok {
			b, isBool := t.(bool)
			if !isBool {
				d.fail("pagination.truncated", "expected true or false")
			}
			pg.Truncated = wire.SomeBool(b)
		}
		if d.err == nil {
			if err := pg.Check(); err != nil {
				d.fail("pagination", err.Error())
			}
		}
		r.Pagination = pg
	}
	return r
}

// ungroup reads a table of objects, or a list of such tables (see
// grouped), as one list of objects.
func (d *reader) ungroup(v jsonvalue.Value, path string) []jsonvalue.Value {
	items := d.array(v, path)
	if len(items) == 0 {
		return items
	}
	if _, ok := items[0].([]jsonvalue.Value); !ok {
		return items
	}
	var out []jsonvalue.Value
	for i, g := range items {
		t, ok := g.([]jsonvalue.Value)
		if !ok || len(t) == 0 {
			d.fail(path+"["+strconv.Itoa(i)+"]", "expected a non-empty table in a list of tables")
			continue
		}
		out = append(out, t...)
		clear(t) // out holds its rows now, and response lets go of each once read
	}
	return out
}

// node reads a node object: type, id, then properties.
func (d *reader) node(v jsonvalue.Value, path string) wire.Node {
	o := d.object(v, path)
	var n wire.Node
	if len(o.Members) > 2 {
		n.Properties = make([]wire.Property, 0, len(o.Members)-2)
	}
	seen := 0
	for _, m := range o.Members {
		switch m.Key {
		case "type":
			n.Type = d.str(m.Value, path+".type")
			seen |= 1
		case "id":
			n.ID = d.integer(m.Value, path+".id")
			seen |= 2
		default:
			n.Properties = append(n.Properties, wire.Prop(m.Key, d.value(m.Value, path+"."+m.Key)))
		}
	}
	if seen != 3 {
		d.fail(path, "a node needs its type and id")
	}
	return n
}

// value reads a property or cell value: a scalar or a list.
func (d *reader) value(v jsonvalue.Value, path string) wire.Value {
	switch x := v.(type) {
	case nil:
		return wire.Null()
	case bool:
		return wire.Bool(x)
	case string:
		return wire.String(x)
	case jsonvalue.Number:
		return x.Value()
	case []jsonvalue.Value:
		items := make([]wire.Value, len(x))
		for i, e := range x {
			items[i] = d.value(e, path+"["+strconv.Itoa(i)+"]")
		}
		return wire.ListOf(items...)
	}
	d.fail(path, "expected a value (an object is only a node cell of a row)")
	return wire.Null()
}
