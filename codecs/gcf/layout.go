package gcf

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// document builds the generic value of r (see the package documentation).
func document(r *wire.GraphResponse) (*jsonvalue.Object, error) {
	if !r.QueryType.Valid() {
		return nil, encErr("query_type", "invalid query type "+strconv.Quote(string(r.QueryType)))
	}
	doc := &jsonvalue.Object{}
	doc.Add("format_version", r.FormatVersion)
	doc.Add("query_type", string(r.QueryType))
	nodes := make([]jsonvalue.Value, len(r.Nodes))
	for i := range r.Nodes {
		n, err := nodeValue(&r.Nodes[i], wire.NodePath(i))
		if err != nil {
			return nil, err
		}
		nodes[i] = n
	}
	doc.Add("nodes", grouped(nodes, true))
	edges := make([]jsonvalue.Value, len(r.Edges))
	for i, e := range r.Edges {
		o := jsonvalue.NewObject(8)
		o.Add("from", e.From)
		o.Add("from_id", jsonvalue.Int(e.FromID))
		o.Add("to", e.To)
		o.Add("to_id", jsonvalue.Int(e.ToID))
		o.Add("type", e.Type)
		optInt(o, "depth", e.Depth)
		optInt(o, "path_id", e.PathID)
		optInt(o, "step", e.Step)
		edges[i] = o
	}
	doc.Add("edges", edges)
	if r.Columns != nil {
		cols := make([]jsonvalue.Value, len(r.Columns))
		for i, c := range r.Columns {
			o := jsonvalue.NewObject(4)
			o.Add("name", c.Name)
			o.Add("function", c.Function)
			optString(o, "target", c.Target)
			optString(o, "property", c.Property)
			cols[i] = o
		}
		doc.Add("columns", cols)
	}
	if r.GroupColumns != nil {
		gcs := make([]jsonvalue.Value, len(r.GroupColumns))
		for i, g := range r.GroupColumns {
			if !g.Kind.Valid() {
				return nil, encErr("group_columns["+strconv.Itoa(i)+"].kind", "invalid group kind "+strconv.Quote(string(g.Kind)))
			}
			o := jsonvalue.NewObject(5)
			o.Add("name", g.Name)
			o.Add("kind", string(g.Kind))
			o.Add("node", g.Node)
			optString(o, "property", g.Property)
			optString(o, "entity", g.Entity)
			gcs[i] = o
		}
		doc.Add("group_columns", gcs)
	}
	if r.Rows != nil {
		rows := make([]jsonvalue.Value, len(r.Rows))
		for i, row := range r.Rows {
			o := jsonvalue.NewObject(len(row))
			for j, c := range row {
				path := wire.RowPath(i).Key(j, c.Name)
				if !utf8.ValidString(c.Name) {
					return nil, encErr(path.String(), "a cell name that is not valid UTF-8")
				}
				if _, dup := o.Get(c.Name); dup {
					return nil, encErr(path.String(), "two cells named "+strconv.Quote(c.Name))
				}
				if c.Node != nil {
					n, err := nodeValue(c.Node, path)
					if err != nil {
						return nil, err
					}
					o.Add(c.Name, n)
					continue
				}
				v, err := value(c.Value, path)
				if err != nil {
					return nil, err
				}
				o.Add(c.Name, v)
			}
			rows[i] = o
		}
		doc.Add("rows", grouped(rows, false))
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return nil, encErr("pagination", err.Error())
		}
		o := jsonvalue.NewObject(4)
		o.Add("has_more", p.HasMore)
		optInt(o, "total_rows", p.TotalRows)
		if p.Truncated.Valid {
			o.Add("truncated", p.Truncated.Bool)
		}
		optString(o, "next_cursor", p.NextCursor)
		doc.Add("pagination", o)
	}
	return doc, nil
}

// grouped returns objs as one table when a table keeps every object's
// member order, and otherwise as a list of tables, each a run of
// consecutive objects that one table can carry (and, for nodes, of one
// type). A table's columns are the union of its rows' keys in first-seen
// order, and a row reads back with its members in column order, absent
// ones left out; so an object fits a run when its keys, taken in the order
// of the run's union extended by its own new keys, are in its own order.
func grouped(objs []jsonvalue.Value, byType bool) []jsonvalue.Value {
	var groups []jsonvalue.Value
	var run []jsonvalue.Value
	pos := make(map[string]int) // the run's union: key -> column
	runType := ""
	for _, v := range objs {
		o := v.(*jsonvalue.Object)
		typ := ""
		if byType {
			typ, _ = o.Members[0].Value.(string)
		}
		if len(run) > 0 && (typ != runType || !fits(o, pos)) {
			groups = append(groups, run)
			run, pos = nil, make(map[string]int)
		}
		if len(run) == 0 {
			runType = typ
		}
		for _, m := range o.Members {
			if _, ok := pos[m.Key]; !ok {
				pos[m.Key] = len(pos)
			}
		}
		run = append(run, o)
	}
	if len(groups) == 0 {
		if run == nil {
			return []jsonvalue.Value{}
		}
		return run
	}
	return append(groups, run)
}

// fits reports whether o's keys keep their order in the union pos extended
// by o's new keys.
func fits(o *jsonvalue.Object, pos map[string]int) bool {
	last, next := -1, len(pos)
	for _, m := range o.Members {
		p, ok := pos[m.Key]
		if !ok {
			p = next
			next++
		}
		if p < last {
			return false
		}
		last = p
	}
	return true
}

func encErr(path, msg string) *wire.EncodeError {
	return &wire.EncodeError{Codec: Name, Path: path, Msg: msg}
}

func optInt(o *jsonvalue.Object, k string, v wire.OptInt) {
	if v.Valid {
		o.Add(k, jsonvalue.Int(v.Int))
	}
}

func optString(o *jsonvalue.Object, k string, v wire.OptString) {
	if v.Valid {
		o.Add(k, v.String)
	}
}

// nodeValue is a node as an object: type, id, then its properties.
func nodeValue(n *wire.Node, path wire.Path) (*jsonvalue.Object, error) {
	o := jsonvalue.NewObject(2 + len(n.Properties))
	o.Add("type", n.Type)
	o.Add("id", jsonvalue.Int(n.ID))
	for j, p := range n.Properties {
		at := path.Property(j, p.Key)
		if !utf8.ValidString(p.Key) {
			return nil, encErr(at.String(), "a property key that is not valid UTF-8")
		}
		if p.Key == "type" || p.Key == "id" {
			return nil, encErr(at.String(), "a property cannot be named type or id")
		}
		if _, dup := o.Get(p.Key); dup {
			return nil, encErr(at.String(), "two properties of one name")
		}
		v, err := value(p.Value, at)
		if err != nil {
			return nil, err
		}
		o.Add(p.Key, v)
	}
	return o, nil
}

// value converts a property or cell value.
func value(v wire.Value, path wire.Path) (jsonvalue.Value, error) {
	switch v.Kind() {
	case wire.KindNull:
		return nil, nil
	case wire.KindBool:
		return v.Bool(), nil
	case wire.KindInt:
		return jsonvalue.Int(v.Int()), nil
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, encErr(path.String(), "NaN and infinite floats have no GCF form")
		}
		return jsonvalue.Float(f), nil
	case wire.KindString:
		if !utf8.ValidString(v.Text()) {
			return nil, encErr(path.String(), "a string that is not valid UTF-8")
		}
		return v.Text(), nil
	case wire.KindList:
		items := make([]jsonvalue.Value, len(v.List()))
		for i, e := range v.List() {
			x, err := value(e, path.Index(i))
			if err != nil {
				return nil, err
			}
			items[i] = x
		}
		return items, nil
	}
	return nil, encErr(path.String(), "a value of unknown kind")
}
