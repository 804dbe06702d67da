package toon

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.Codec = (*Codec)(nil)

// DecodeDelta implements delta.Codec: it reads the TOON form of a delta
// under the codec's Limits (those of Decode, MaxElements bounding each
// list of the delta). Errors are *wire.DecodeError naming the line; a
// limit passed matches errors.Is(err, wire.ErrLimit). What it builds is
// charged to a delta.Meter, the generic parse of the document first, line
// by line before it parses (about 48 bytes a line and 40 a delimiter,
// parseCost): past MaxExpansion times the input plus
// wire.ExpansionAllowance bytes in memory it refuses at the line it
// reached. The delta is not
// trusted: delta.Patch checks it against its base and result
// fingerprints.
func (c *Codec) DecodeDelta(data []byte) (*delta.Delta, error) {
	l := c.limits
	if int64(len(data)) > l.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: l.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(l.MaxInputBytes, 10)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &wire.DecodeError{Codec: Name, Line: 1, Msg: "empty input, expected " + deltaKey + ":"}
	}
	m := delta.NewMeter(l, len(data))
	if line := m.Parse(data, parseCost); line > 0 {
		return nil, &wire.DecodeError{Codec: Name, Line: line, Msg: "parsing the document up to this line: " + m.Msg(), Limit: m.LimitName()}
	}
	v, err := toonread.Decode(data, toonread.Options{MaxDepth: depthPerList*l.MaxDepth + layoutDepth},
		toonread.Limits{Set: true, MaxElements: l.MaxElements, MaxFields: l.MaxElements + layoutFields, MaxString: l.MaxStringBytes, MaxMaterialized: l.MaxMaterializedBytes})
	if err != nil {
		return nil, err
	}
	d := deltaDecoder{graphDecoder: graphDecoder{src: data, lim: l}, m: m}
	dl := d.document(v)
	if d.err != nil {
		return nil, d.err
	}
	return dl, nil
}

// SniffDelta is the confidence that prefix opens the TOON form of a delta:
// 0.99 when its first line (after an optional byte order mark and blank
// lines) starts "graphwire_delta: ", 0 otherwise. Sniff rates a delta 0.
func (c *Codec) SniffDelta(prefix []byte) float64 {
	if isDelta(prefix) {
		return 0.99
	}
	return 0
}

func isDelta(prefix []byte) bool {
	t, ok := wire.SniffText(prefix)
	return ok && bytes.HasPrefix(t, []byte(deltaKey+": "))
}

// parseCost is the in-memory cost of toonread's parse of a document, an
// upper bound on what it builds: an object or list item a line, with the
// bytes of its text, which strings may copy; a member or item a
// delimiter.
var parseCost = delta.ParseCost{Line: 48, Cell: 40, Delims: ",|\t"}

type deltaDecoder struct {
	graphDecoder
	m *delta.Meter
}

// add appends x to *list, charged to d.m (delta.Append), or records the
// refusal at path.
func add[T any](d *deltaDecoder, path []pathStep, list *[]T, x T) {
	if d.err != nil {
		return
	}
	l, ok := delta.Append(d.m, *list, x)
	if !ok {
		d.failLimit(path, d.m.LimitName(), d.m.Msg())
		return
	}
	*list = l
}

// fits records a refusal at path when what was charged to d.m's Response
// does not fit beside the delta's own lists.
func (d *deltaDecoder) fits(ok bool, path []pathStep) {
	if (!ok || !d.m.Fits()) && d.err == nil {
		d.failLimit(path, d.m.LimitName(), d.m.Msg())
	}
}

func (d *deltaDecoder) document(v jsonvalue.Value) *delta.Delta {
	doc, ok := v.(*jsonvalue.Object)
	if !ok || len(doc.Members) == 0 || doc.Members[0].Key != deltaKey {
		d.fail(nil, "expected a delta, whose first line is "+deltaKey+": 1 or "+deltaKey+": unchanged HASH")
		return nil
	}
	dl := &delta.Delta{}
	first := doc.Members[0]
	if s, ok := first.Value.(string); ok {
		rest, ok := strings.CutPrefix(s, unchangedValue)
		if !ok {
			d.fail(newPath(keyStep(deltaKey)), "expected 1 or \"unchanged HASH\", found "+textwire.Excerpt(s))
			return nil
		}
		h, err := delta.ParseHash(rest)
		if err != nil {
			d.fail(newPath(keyStep(deltaKey)), err.Error())
			return nil
		}
		if len(doc.Members) > 1 {
			d.fail(newPath(keyStep(doc.Members[1].Key)), "a field after the unchanged delta, which is the whole document")
			return nil
		}
		dl.Base, dl.Result = h, h
		return dl
	}
	if n := d.integer(first.Value, newPath(keyStep(deltaKey))); d.err == nil && n != deltaVersion {
		d.fail(newPath(keyStep(deltaKey)), "unsupported delta version "+strconv.FormatInt(n, 10)+" (this decoder reads 1)")
	}
	if d.err != nil {
		return nil
	}
	vals := make(map[string]jsonvalue.Value, len(doc.Members))
	last := 0
	for _, m := range doc.Members[1:] {
		k := 1
		for k < len(deltaKeys) && deltaKeys[k] != m.Key {
			k++
		}
		switch {
		case k == len(deltaKeys):
			d.fail(newPath(keyStep(m.Key)), "unknown field in a delta (the fields are "+strings.Join(deltaKeys, " ")+")")
		case k <= last:
			d.fail(newPath(keyStep(m.Key)), "field out of order or repeated (the order is "+strings.Join(deltaKeys, " ")+")")
		}
		if d.err != nil {
			return nil
		}
		last = k
		vals[m.Key] = m.Value
	}
	for _, k := range []string{"base", "result", "query_type"} {
		if _, ok := vals[k]; !ok {
			d.fail(nil, "the delta has no "+k)
			return nil
		}
	}
	dl.Base = d.hash(vals, "base")
	dl.Result = d.hash(vals, "result")
	qt, _ := d.str(vals["query_type"], newPath(keyStep("query_type")))
	if dl.QueryType = wire.QueryType(qt); d.err == nil && !dl.QueryType.Valid() {
		d.fail(newPath(keyStep("query_type")), "unknown query type "+textwire.Excerpt(qt))
	}
	if v, ok := vals["format_version"]; ok && d.err == nil {
		if dl.FormatVersion, _ = d.str(v, newPath(keyStep("format_version"))); d.err == nil && dl.FormatVersion == "" {
			d.fail(newPath(keyStep("format_version")), "empty (an empty format_version is left out)")
		}
	}
	if d.err == nil && dl.Base == dl.Result {
		d.fail(newPath(keyStep("result")), "base and result are equal: such a delta is the one line "+deltaKey+": \"unchanged "+dl.Base.String()+"\"")
	}
	if d.err != nil {
		return nil
	}
	d.nodeOps(vals, &dl.Nodes)
	d.edgeOps(vals, &dl.Edges)
	d.rowOps(vals, &dl.Rows)
	d.fields(vals, dl)
	if d.err != nil {
		return nil
	}
	return dl
}

func (d *deltaDecoder) hash(vals map[string]jsonvalue.Value, key string) delta.Hash {
	path := newPath(keyStep(key))
	s, _ := d.str(vals[key], path)
	if d.err != nil {
		return delta.Hash{}
	}
	h, err := delta.ParseHash(s)
	if err != nil {
		d.fail(path, err.Error())
	}
	return h
}

// positions reads an inline list of positions (0 to MaxInt32) of want
// elements (any number when want < 0); absent is nil when optional.
func (d *deltaDecoder) positions(vals map[string]jsonvalue.Value, key string, want int, optional bool) []int {
	path := newPath(keyStep(key))
	v, ok := vals[key]
	if !ok {
		if !optional && d.err == nil {
			d.fail(nil, "the delta has no "+key)
		}
		return nil
	}
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	if want >= 0 && len(items) != want {
		d.fail(path, strconv.Itoa(len(items))+" positions, expected "+strconv.Itoa(want))
		return nil
	}
	if len(items) == 0 {
		d.fail(path, "empty (an empty list is left out)")
		return nil
	}
	var ps []int
	for i := 0; i < len(items) && d.err == nil; i++ {
		p := append(path, indexStep(i))
		add(d, p, &ps, d.position(items[i], p))
	}
	return ps
}

func (d *deltaDecoder) position(v jsonvalue.Value, path []pathStep) int {
	n := d.integer(v, path)
	if d.err == nil && (n < 0 || n > math.MaxInt32) {
		d.fail(path, "expected a position 0 to 2147483647, found "+strconv.FormatInt(n, 10))
	}
	return int(n)
}

// keys reads the rows of removed or moved: type, id, n (optional) and,
// for moved, at.
func (d *deltaDecoder) keys(v jsonvalue.Value, key string, each func(k delta.NodeKey, at int, path []pathStep)) {
	path := newPath(keyStep(key))
	items := d.array(v, path)
	if d.err == nil && len(items) == 0 {
		d.fail(path, "empty (an empty list is left out)")
	}
	allowed := []string{"type", "id", "n"}
	required := 2
	if key == "moved" {
		allowed, required = []string{"type", "id", "at", "n"}, 3
	}
	for i := 0; i < len(items) && d.err == nil; i++ {
		var k delta.NodeKey
		at := -1
		p := append(path, indexStep(i))
		d.graphDecoder.fields(items[i], p, allowed, required, func(f int, v jsonvalue.Value, p []pathStep) {
			switch allowed[f] {
			case "type":
				k.Type, _ = d.str(v, p)
				d.name(k.Type, p)
			case "id":
				k.ID = d.integer(v, p)
			case "n":
				k.N = d.position(v, p)
			case "at":
				at = d.position(v, p)
			}
		})
		each(k, at, p)
	}
}

// nodeList reads a node section under key (and key_order) with the
// layout's node reader, as the nodes section of a response.
func (d *deltaDecoder) nodeList(vals map[string]jsonvalue.Value, key string) []wire.Node {
	v, ok := vals[key]
	if !ok {
		return nil
	}
	order, haveOrder := vals[key+"_order"]
	// The node reader names its section "nodes": it reads a copy of the
	// text whose key lines say so, line for line, and its errors are
	// renamed back.
	if !d.m.Scratch(2 * int64(len(d.src))) { // the renamed copies
		d.failLimit(newPath(keyStep(key)), d.m.LimitName(), d.m.Msg())
		return nil
	}
	sub := graphDecoder{src: renameLine(renameLine(d.src, key, "nodes"), key+"_order", "node_order"), lim: d.lim}
	nodes := sub.nodes(v, order, haveOrder, nil)
	d.m.Scratch(-2 * int64(len(d.src))) // the copies are let go
	if sub.err != nil {
		if rest, ok := strings.CutPrefix(sub.err.Msg, "node_order"); ok {
			sub.err.Msg = key + "_order" + rest
		} else if rest, ok := strings.CutPrefix(sub.err.Msg, "nodes"); ok {
			sub.err.Msg = key + rest
		}
		d.err = sub.err
		return nil
	}
	if len(nodes) == 0 {
		d.fail(newPath(keyStep(key)), "empty (an empty section is left out)")
		return nil
	}
	at := newPath(keyStep(key))
	for i := 0; i < len(nodes) && d.err == nil; i++ {
		d.fits(d.m.Response().Node(&nodes[i]), append(at, indexStep(i)))
	}
	if d.err != nil {
		return nil
	}
	return nodes
}

// renameLine returns src with the top-level key of the line starting
// "key:" or "key[" replaced by to (src itself when there is none).
func renameLine(src []byte, key, to string) []byte {
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := src[off : off+end]
		if len(line) > len(key) && string(line[:len(key)]) == key && (line[len(key)] == ':' || line[len(key)] == '[') {
			out := make([]byte, 0, len(src)+len(to)-len(key))
			out = append(append(append(out, src[:off]...), to...), src[off+len(key):]...)
			return out
		}
		off += end + 1
	}
	return src
}

func (d *deltaDecoder) nodeOps(vals map[string]jsonvalue.Value, o *delta.NodeOps) {
	if v, ok := vals["removed"]; ok {
		d.keys(v, "removed", func(k delta.NodeKey, _ int, p []pathStep) { add(d, p, &o.Removed, k) })
	}
	if v, ok := vals["moved"]; ok && d.err == nil {
		d.keys(v, "moved", func(k delta.NodeKey, at int, p []pathStep) {
			add(d, p, &o.Moved, delta.Move[delta.NodeKey]{Key: k, At: at})
		})
	}
	if d.err != nil {
		return
	}
	if _, ok := vals["changed_order"]; ok {
		if _, ok := vals["changed"]; !ok {
			d.fail(newPath(keyStep("changed_order")), "without changed")
			return
		}
	}
	changed := d.nodeList(vals, "changed")
	ns := d.positions(vals, "changed_n", len(changed), true)
	if _, ok := vals["changed_n"]; ok && len(changed) == 0 && d.err == nil {
		d.fail(newPath(keyStep("changed_n")), "without changed")
	}
	atChanged := newPath(keyStep("changed"))
	for i := 0; i < len(changed) && d.err == nil; i++ {
		c := delta.Changed{Node: changed[i]}
		if ns != nil {
			c.N = ns[i]
		}
		add(d, append(atChanged, indexStep(i)), &o.Changed, c)
	}
	if d.err != nil {
		return
	}
	if _, ok := vals["added_order"]; ok {
		if _, ok := vals["added"]; !ok {
			d.fail(newPath(keyStep("added_order")), "without added")
			return
		}
	}
	added := d.nodeList(vals, "added")
	if d.err != nil {
		return
	}
	_, haveAt := vals["added_at"]
	if len(added) > 0 || haveAt {
		at := d.positions(vals, "added_at", len(added), false)
		atAdded := newPath(keyStep("added"))
		for i := 0; i < len(at) && d.err == nil; i++ {
			add(d, append(atAdded, indexStep(i)), &o.Added, delta.Placed[wire.Node]{At: at[i], Item: added[i]})
		}
	}
}

// edgeList reads an edge section under key with the layout's edge reader.
func (d *deltaDecoder) edgeList(vals map[string]jsonvalue.Value, key string) []wire.Edge {
	v, ok := vals[key]
	if !ok || d.err != nil {
		return nil
	}
	path := newPath(keyStep(key))
	edges := d.edges(v, path)
	if d.err == nil && len(edges) == 0 {
		d.fail(path, "empty (an empty section is left out)")
	}
	for i := 0; i < len(edges) && d.err == nil; i++ {
		d.fits(d.m.Response().Edge(&edges[i]), append(path, indexStep(i)))
	}
	return edges
}

// edgeExtras checks that the lists beside an edge section come with it.
func (d *deltaDecoder) edgeExtras(vals map[string]jsonvalue.Value, key string, extras ...string) bool {
	if _, ok := vals[key]; ok {
		return true
	}
	for _, x := range extras {
		if _, ok := vals[x]; ok && d.err == nil {
			d.fail(newPath(keyStep(x)), "without "+key)
		}
	}
	return false
}

func (d *deltaDecoder) edgeOps(vals map[string]jsonvalue.Value, o *delta.EdgeOps) {
	if d.err != nil {
		return
	}
	if d.edgeExtras(vals, "edges_removed", "edges_removed_n") {
		edges := d.edgeList(vals, "edges_removed")
		ns := d.positions(vals, "edges_removed_n", len(edges), true)
		atEdgesRemoved := newPath(keyStep("edges_removed"))
		for i := 0; i < len(edges) && d.err == nil; i++ {
			k := delta.EdgeKey{Edge: edges[i]}
			if ns != nil {
				k.N = ns[i]
			}
			add(d, append(atEdgesRemoved, indexStep(i)), &o.Removed, k)
		}
	}
	if d.edgeExtras(vals, "edges_moved", "edges_moved_n", "edges_moved_at") {
		edges := d.edgeList(vals, "edges_moved")
		ns := d.positions(vals, "edges_moved_n", len(edges), true)
		at := d.positions(vals, "edges_moved_at", len(edges), false)
		atEdgesMoved := newPath(keyStep("edges_moved"))
		for i := 0; i < len(edges) && d.err == nil; i++ {
			m := delta.Move[delta.EdgeKey]{Key: delta.EdgeKey{Edge: edges[i]}, At: at[i]}
			if ns != nil {
				m.Key.N = ns[i]
			}
			add(d, append(atEdgesMoved, indexStep(i)), &o.Moved, m)
		}
	}
	if d.edgeExtras(vals, "edges_added", "edges_added_at") {
		edges := d.edgeList(vals, "edges_added")
		at := d.positions(vals, "edges_added_at", len(edges), false)
		atEdgesAdded := newPath(keyStep("edges_added"))
		for i := 0; i < len(edges) && d.err == nil; i++ {
			add(d, append(atEdgesAdded, indexStep(i)), &o.Added, delta.Placed[wire.Edge]{At: at[i], Item: edges[i]})
		}
	}
}

func (d *deltaDecoder) rowOps(vals map[string]jsonvalue.Value, o *delta.RowOps) {
	if d.err != nil {
		return
	}
	o.Removed = d.positions(vals, "rows_removed", -1, true)
	if v, ok := vals["rows_moved"]; ok && d.err == nil {
		path := newPath(keyStep("rows_moved"))
		items := d.array(v, path)
		if d.err == nil && len(items) == 0 {
			d.fail(path, "empty (an empty list is left out)")
		}
		for i := 0; i < len(items) && d.err == nil; i++ {
			var m delta.Move[int]
			p := append(path, indexStep(i))
			d.graphDecoder.fields(items[i], p, []string{"from", "at"}, 2, func(f int, v jsonvalue.Value, p []pathStep) {
				if f == 0 {
					m.Key = d.position(v, p)
				} else {
					m.At = d.position(v, p)
				}
			})
			add(d, p, &o.Moved, m)
		}
	}
	v, ok := vals["rows_added"]
	if !ok {
		if _, ok := vals["rows_added_at"]; ok && d.err == nil {
			d.fail(newPath(keyStep("rows_added_at")), "without rows_added")
		}
		return
	}
	o.Present = true
	path := newPath(keyStep("rows_added"))
	var rows []wire.Row
	if items, ok := v.([]jsonvalue.Value); !ok || len(items) > 0 {
		rows = d.rows(v, path)
	}
	for i := 0; i < len(rows) && d.err == nil; i++ {
		d.fits(d.m.Response().Row(rows[i]), append(path, indexStep(i)))
	}
	if d.err != nil || len(rows) == 0 {
		if _, ok := vals["rows_added_at"]; ok && d.err == nil {
			d.fail(newPath(keyStep("rows_added_at")), "but rows_added is empty")
		}
		return
	}
	at := d.positions(vals, "rows_added_at", len(rows), false)
	for i := 0; i < len(at) && d.err == nil; i++ {
		add(d, append(path, indexStep(i)), &o.Added, delta.Placed[wire.Row]{At: at[i], Item: rows[i]})
	}
}

// fields reads columns, group_columns and pagination: present when the
// delta sets them, null when it sets them absent.
func (d *deltaDecoder) fields(vals map[string]jsonvalue.Value, dl *delta.Delta) {
	if d.err != nil {
		return
	}
	if v, ok := vals["columns"]; ok {
		dl.Set |= delta.SetColumns
		if v != nil {
			dl.Columns = d.columns(v, newPath(keyStep("columns")))
			if dl.Columns == nil && d.err == nil {
				dl.Columns = []wire.Column{}
			}
		}
	}
	if v, ok := vals["group_columns"]; ok && d.err == nil {
		dl.Set |= delta.SetGroupColumns
		if v != nil {
			dl.GroupColumns = d.groupColumns(v, newPath(keyStep("group_columns")))
			if dl.GroupColumns == nil && d.err == nil {
				dl.GroupColumns = []wire.GroupColumn{}
			}
		}
	}
	if v, ok := vals["pagination"]; ok && d.err == nil {
		dl.Set |= delta.SetPagination
		if v != nil {
			dl.Pagination = d.pagination(v, newPath(keyStep("pagination")))
		}
	}
}
