package delta

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Version is the value of "graphwire_delta" in the JSON form this package
// writes and reads.
const Version = 1

// MarshalJSON returns AppendJSON(nil, d).
func (d *Delta) MarshalJSON() ([]byte, error) { return AppendJSON(nil, d) }

// AppendJSON appends the JSON form of d (see the package documentation) to
// dst: compact, deterministic, its nodes, edges, rows and header fields in
// canonical JSON (SPEC §4). A Delta canonical JSON cannot carry (a NaN
// value, an invalid query type, rows added to a result without rows) is a
// *wire.EncodeError, and nothing is appended.
func AppendJSON(dst []byte, d *Delta) ([]byte, error) {
	if d == nil {
		return dst, &wire.EncodeError{Codec: codecName, Msg: "nil delta"}
	}
	start := len(dst)
	b := append(dst, `{"graphwire_delta":`...)
	b = strconv.AppendInt(b, Version, 10)
	b = append(b, `,"base":"`...)
	b = append(b, d.Base.String()...)
	b = append(b, `","result":"`...)
	b = append(b, d.Result.String()...)
	b = append(b, '"')
	if d.Unchanged() {
		if d.Set != 0 || !d.Nodes.empty() || !d.Edges.empty() || !d.Rows.empty() {
			return dst[:start], &wire.EncodeError{Codec: codecName, Msg: "an unchanged delta with operations"}
		}
		return append(b, `,"unchanged":true}`...), nil
	}
	if d.Set != 0 {
		b = append(b, `,"set":[`...)
		first := true
		for i, name := range fieldNames {
			if d.Set&(1<<i) != 0 {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = wire.AppendJSONString(b, name)
			}
		}
		b = append(b, ']')
	}
	b = appendNodeOps(b, &d.Nodes)
	b = appendEdgeOps(b, &d.Edges)
	b = appendRowOps(b, &d.Rows)
	content, err := contentOf(d)
	if err != nil {
		return dst[:start], err
	}
	b = append(b, `,"content":`...)
	if b, err = wire.AppendJSON(b, content); err != nil {
		if ee, ok := err.(*wire.EncodeError); ok {
			e := *ee
			e.Codec = codecName
			e.Path = joinPath("content", e.Path)
			err = &e
		}
		return dst[:start], err
	}
	return append(b, '}'), nil
}

const codecName = "delta"

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

// contentOf is the response that carries d's new material in canonical
// JSON: the result's header, the changed and then the added nodes, the
// added edges, the added rows (present exactly when the result has rows),
// and the header fields d sets.
func contentOf(d *Delta) (*wire.GraphResponse, error) {
	c := &wire.GraphResponse{FormatVersion: d.FormatVersion, QueryType: d.QueryType}
	c.Nodes = make([]wire.Node, 0, len(d.Nodes.Changed)+len(d.Nodes.Added))
	for _, ch := range d.Nodes.Changed {
		c.Nodes = append(c.Nodes, ch.Node)
	}
	for _, a := range d.Nodes.Added {
		c.Nodes = append(c.Nodes, a.Item)
	}
	c.Edges = make([]wire.Edge, 0, len(d.Edges.Added))
	for _, a := range d.Edges.Added {
		c.Edges = append(c.Edges, a.Item)
	}
	if d.Rows.Present {
		c.Rows = make([]wire.Row, 0, len(d.Rows.Added))
		for _, a := range d.Rows.Added {
			c.Rows = append(c.Rows, a.Item)
		}
	} else if len(d.Rows.Added) > 0 {
		return nil, &wire.EncodeError{Codec: codecName, Path: "rows", Msg: "rows added to a result without rows"}
	}
	if d.Set.Has(SetColumns) {
		c.Columns = d.Columns
	}
	if d.Set.Has(SetGroupColumns) {
		c.GroupColumns = d.GroupColumns
	}
	if d.Set.Has(SetPagination) {
		c.Pagination = d.Pagination
	}
	return c, nil
}

func appendNodeKey(b []byte, k NodeKey) []byte {
	b = append(b, `{"type":`...)
	b = wire.AppendJSONString(b, k.Type)
	b = append(b, `,"id":"`...)
	b = strconv.AppendInt(b, k.ID, 10)
	b = append(b, '"')
	return appendN(b, k.N)
}

func appendN(b []byte, n int) []byte {
	if n != 0 {
		b = append(b, `,"n":`...)
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return b
}

func appendAt(b []byte, at int) []byte {
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, int64(at), 10)
	return append(b, '}')
}

func appendEdgeKey(b []byte, k EdgeKey) []byte {
	e := &k.Edge
	b = append(b, `{"from":`...)
	b = wire.AppendJSONString(b, e.From)
	b = append(b, `,"from_id":"`...)
	b = strconv.AppendInt(b, e.FromID, 10)
	b = append(b, `","to":`...)
	b = wire.AppendJSONString(b, e.To)
	b = append(b, `,"to_id":"`...)
	b = strconv.AppendInt(b, e.ToID, 10)
	b = append(b, `","type":`...)
	b = wire.AppendJSONString(b, e.Type)
	b = appendOptInt(b, `,"depth":`, e.Depth)
	b = appendOptInt(b, `,"path_id":`, e.PathID)
	b = appendOptInt(b, `,"step":`, e.Step)
	return appendN(b, k.N)
}

func appendOptInt(b []byte, key string, o wire.OptInt) []byte {
	if o.Valid {
		b = append(b, key...)
		b = strconv.AppendInt(b, o.Int, 10)
	}
	return b
}

// appendList appends `,"name":[...]` with one element per item, or nothing for
// no items.
func appendList[T any](b []byte, first *bool, name string, items []T, one func([]byte, T) []byte) []byte {
	if len(items) == 0 {
		return b
	}
	if !*first {
		b = append(b, ',')
	}
	*first = false
	b = append(b, '"')
	b = append(b, name...)
	b = append(b, `":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, it)
	}
	return append(b, ']')
}

func appendInt(b []byte, i int) []byte { return strconv.AppendInt(b, int64(i), 10) }

func appendNodeOps(b []byte, o *NodeOps) []byte {
	if o.empty() {
		return b
	}
	b = append(b, `,"nodes":{`...)
	first := true
	b = appendList(b, &first, "removed", o.Removed, func(b []byte, k NodeKey) []byte { return append(appendNodeKey(b, k), '}') })
	b = appendList(b, &first, "moved", o.Moved, func(b []byte, m Move[NodeKey]) []byte { return appendAt(appendNodeKey(b, m.Key), m.At) })
	b = appendList(b, &first, "changed", o.Changed, func(b []byte, c Changed) []byte { return appendInt(b, c.N) })
	b = appendList(b, &first, "added_at", o.Added, func(b []byte, a Placed[wire.Node]) []byte { return appendInt(b, a.At) })
	return append(b, '}')
}

func appendEdgeOps(b []byte, o *EdgeOps) []byte {
	if o.empty() {
		return b
	}
	b = append(b, `,"edges":{`...)
	first := true
	b = appendList(b, &first, "removed", o.Removed, func(b []byte, k EdgeKey) []byte { return append(appendEdgeKey(b, k), '}') })
	b = appendList(b, &first, "moved", o.Moved, func(b []byte, m Move[EdgeKey]) []byte { return appendAt(appendEdgeKey(b, m.Key), m.At) })
	b = appendList(b, &first, "added_at", o.Added, func(b []byte, a Placed[wire.Edge]) []byte { return appendInt(b, a.At) })
	return append(b, '}')
}

func appendRowOps(b []byte, o *RowOps) []byte {
	if o.empty() {
		return b
	}
	b = append(b, `,"rows":{`...)
	first := true
	b = appendList(b, &first, "removed", o.Removed, appendInt)
	b = appendList(b, &first, "moved", o.Moved, func(b []byte, m Move[int]) []byte {
		b = append(b, `{"from":`...)
		b = appendInt(b, m.Key)
		return appendAt(b, m.At)
	})
	b = appendList(b, &first, "added_at", o.Added, func(b []byte, a Placed[wire.Row]) []byte { return appendInt(b, a.At) })
	return append(b, '}')
}
