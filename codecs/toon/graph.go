package toon

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
)

// Encode returns the TOON text of r in graphwire's graph-aware layout, a
// TOON spec v4.0 document that any TOON decoder reads. The output is
// deterministic, has LF line endings and no trailing newline.
//
// The layout is described in the package documentation, under "The toon
// codec: layout of a GraphResponse".
//
// Encode fails, with a *wire.EncodeError naming the place (Path, in the
// response's own terms: nodes[3].score, rows[0].u.properties.name,
// query_type), for what the default wire.Limits refuse (see Security in
// the package documentation) and for what the layout cannot carry: a NaN
// or infinite float (TOON would write null), a query type or group kind
// outside the enumerations, a property named "type" or "id", two
// properties of one node (or cells of one row) with the same key.
func Encode(r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(nil, r)
}

// AppendEncode appends the TOON text of r (see Encode for the layout) to
// dst, under the default wire.Limits, and returns the extended slice. On
// error it returns dst unchanged.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(dst, r)
}

// AppendEncode appends the TOON text of r to dst under the codec's limits:
// it first refuses what wire.Limits.Check refuses, and, once written, text
// longer than MaxInputBytes; on error dst comes back unchanged. See the
// package-level Encode.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	if r == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	size, err := c.limits.CheckSize(Name, r)
	if err != nil {
		return dst, err
	}
	var g graphEncoder
	doc, err := g.document(r)
	if err != nil {
		return dst, err
	}
	n := len(dst)
	out, err := AppendMarshal(dst, doc, EncodeOptions{})
	if err != nil {
		return dst, err
	}
	if int64(len(out)-n) > c.limits.MaxInputBytes {
		return out[:n], &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the text would take " + strconv.Itoa(len(out)-n) + " bytes, more than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	if err := c.limits.CheckExpansion(Name, size, int64(len(out)-n)); err != nil {
		return dst, err
	}
	return out, nil
}

// graphEncoder builds the generic Value of a response. Objects and members
// come from slabs sized up front, so a response costs a handful of
// allocations beyond the boxing of its values.
type graphEncoder struct {
	objs []Object
	mems []Member
}

func (g *graphEncoder) object(n int) *Object {
	if len(g.objs) == 0 {
		g.objs = make([]Object, 16)
	}
	o := &g.objs[0]
	g.objs = g.objs[1:]
	if len(g.mems) < n {
		g.mems = make([]Member, max(n, 256))
	}
	o.Members = g.mems[:0:n]
	g.mems = g.mems[n:]
	return o
}

// reserve sizes the slabs for nObjs objects holding nMems members in all.
func (g *graphEncoder) reserve(nObjs, nMems int) {
	if len(g.objs) < nObjs {
		g.objs = make([]Object, nObjs)
	}
	if len(g.mems) < nMems {
		g.mems = make([]Member, nMems)
	}
}

func (g *graphEncoder) document(r *wire.GraphResponse) (*Object, error) {
	if !r.QueryType.Valid() {
		return nil, &wire.EncodeError{Codec: Name, Path: "query_type", Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return nil, &wire.EncodeError{Codec: Name, Path: "pagination", Msg: err.Error()}
		}
	}
	nObjs, nMems := 2+len(r.Nodes)+len(r.Edges)+len(r.Columns)+len(r.GroupColumns), 9+4
	for i := range r.Nodes {
		nMems += 1 + len(r.Nodes[i].Properties)
	}
	nMems += 8*len(r.Edges) + 4*len(r.Columns) + 5*len(r.GroupColumns)
	g.reserve(nObjs, nMems)

	doc := g.object(9)
	doc.Add("format_version", r.FormatVersion)
	doc.Add("query_type", string(r.QueryType))
	nodes, order, err := g.nodes(r.Nodes)
	if err != nil {
		return nil, err
	}
	doc.Add("nodes", nodes)
	if order != nil {
		doc.Add("node_order", order)
	}
	doc.Add("edges", g.edges(r.Edges))
	if r.Columns != nil {
		doc.Add("columns", g.columns(r.Columns))
	}
	if r.GroupColumns != nil {
		gc, err := g.groupColumns(r.GroupColumns)
		if err != nil {
			return nil, err
		}
		doc.Add("group_columns", gc)
	}
	if r.Rows != nil {
		rows, err := g.rows(r.Rows)
		if err != nil {
			return nil, err
		}
		doc.Add("rows", rows)
	}
	if p := r.Pagination; p != nil {
		doc.Add("pagination", g.pagination(p))
	}
	return doc, nil
}

// nodeGroup is one group of the nodes section: nodes of one type, either
// all with one key sequence (a table) or in list form.
type nodeGroup struct {
	typ   string
	nodes []int // indexes into the response's nodes, increasing
}

// nodes returns the nodes section and, when grouping changes the order,
// node_order (nil otherwise).
func (g *graphEncoder) nodes(nodes []wire.Node) (Value, Value, error) {
	if len(nodes) == 0 {
		return g.object(0), nil, nil
	}
	// Types in first-seen order, each with its nodes.
	var types []nodeGroup
	typeIndex := make(map[string]int, 4)
	for i := range nodes {
		t := nodes[i].Type
		k, ok := typeIndex[t]
		if !ok {
			k = len(types)
			typeIndex[t] = k
			types = append(types, nodeGroup{typ: t})
		}
		types[k].nodes = append(types[k].nodes, i)
	}
	groups := types[:0:0]
	split := false
	for _, tg := range types {
		if err := checkProperties(nodes, tg.nodes); err != nil {
			return nil, nil, err
		}
		if !sameKeySets(nodes, tg.nodes) || hasLists(nodes, tg.nodes) || sameKeySequences(nodes, tg.nodes) {
			groups = append(groups, tg)
			continue
		}
		// Same keys, different orders: one table per order.
		split = true
		byOrder := make(map[string]int)
		var sig []byte
		for _, i := range tg.nodes {
			sig = sig[:0]
			for _, p := range nodes[i].Properties {
				sig = strconv.AppendInt(sig, int64(len(p.Key)), 10)
				sig = append(sig, ':')
				sig = append(sig, p.Key...)
			}
			k, ok := byOrder[string(sig)]
			if !ok {
				k = len(groups)
				byOrder[string(sig)] = k
				groups = append(groups, nodeGroup{typ: tg.typ})
			}
			groups[k].nodes = append(groups[k].nodes, i)
		}
	}

	// node_order, when the groups are not each contiguous.
	var order Value
	{
		of := make([]int, len(nodes)) // group of each node
		for k, gr := range groups {
			for _, i := range gr.nodes {
				of[i] = k
			}
		}
		sorted := true
		for i := 1; i < len(of); i++ {
			if of[i] < of[i-1] {
				sorted = false
				break
			}
		}
		if !sorted {
			vs := make([]Value, len(of))
			boxed := make([]Value, len(groups))
			for k := range boxed {
				boxed[k] = Int(int64(k))
			}
			for i, k := range of {
				vs[i] = boxed[k]
			}
			order = vs
		}
	}

	arrays := make([]Value, len(groups))
	for k, gr := range groups {
		items := make([]Value, len(gr.nodes))
		for j, i := range gr.nodes {
			n := &nodes[i]
			o := g.object(1 + len(n.Properties))
			o.Add("id", Int(n.ID))
			for p := range n.Properties {
				v, msg := propertyValue(n.Properties[p].Value)
				if msg != "" {
					return nil, nil, &wire.EncodeError{Codec: Name, Path: "nodes[" + strconv.Itoa(i) + "]." + n.Properties[p].Key, Msg: msg}
				}
				o.Add(n.Properties[p].Key, v)
			}
			items[j] = o
		}
		arrays[k] = items
	}
	if !split {
		o := g.object(len(groups))
		for k, gr := range groups {
			o.Add(gr.typ, arrays[k])
		}
		return o, order, nil
	}
	list := make([]Value, len(groups))
	for k, gr := range groups {
		o := g.object(1)
		o.Add(gr.typ, arrays[k])
		list[k] = o
	}
	return list, order, nil
}

// checkProperties rejects property keys the layout cannot carry: type, id,
// and a key used twice in one node.
func checkProperties(nodes []wire.Node, idx []int) error {
	for _, i := range idx {
		if k, msg := badKeys(nodes[i].Properties); msg != "" {
			return &wire.EncodeError{Codec: Name, Path: "nodes[" + strconv.Itoa(i) + "]", Msg: msg + " " + strconv.Quote(k)}
		}
	}
	return nil
}

func badKeys(props []wire.Property) (string, string) {
	for _, p := range props {
		if p.Key == "type" || p.Key == "id" {
			return p.Key, "property named"
		}
	}
	if k, dup := duplicate(len(props), func(i int) string { return props[i].Key }); dup {
		return k, "duplicate property"
	}
	return "", ""
}

// duplicate reports a name that occurs twice among the n names name(i),
// in time linear in n.
func duplicate(n int, name func(int) string) (string, bool) {
	if i := keyset.FirstRepeat(n, name); i >= 0 {
		return name(i), true
	}
	return "", false
}

func sameKeys(a, b []wire.Property) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			return false
		}
	}
	return true
}

func sameKeySequences(nodes []wire.Node, idx []int) bool {
	first := nodes[idx[0]].Properties
	for _, i := range idx[1:] {
		if !sameKeys(first, nodes[i].Properties) {
			return false
		}
	}
	return true
}

// sameKeySets reports whether the nodes all have the same set of keys (in
// any order). Keys are known to be unique within a node.
func sameKeySets(nodes []wire.Node, idx []int) bool {
	first := nodes[idx[0]].Properties
	var set map[string]struct{}
	for _, i := range idx[1:] {
		ps := nodes[i].Properties
		if len(ps) != len(first) {
			return false
		}
		if sameKeys(first, ps) {
			continue
		}
		if set == nil {
			set = make(map[string]struct{}, len(first))
			for _, p := range first {
				set[p.Key] = struct{}{}
			}
		}
		for _, p := range ps {
			if _, ok := set[p.Key]; !ok {
				return false
			}
		}
	}
	return true
}

func hasLists(nodes []wire.Node, idx []int) bool {
	for _, i := range idx {
		for _, p := range nodes[i].Properties {
			if p.Value.Kind() == wire.KindList {
				return true
			}
		}
	}
	return false
}

// propertyValue converts a property or cell value. When the layout cannot
// carry it, it returns a message saying why.
func propertyValue(v wire.Value) (Value, string) {
	switch v.Kind() {
	case wire.KindNull:
		return nil, ""
	case wire.KindBool:
		return v.Bool(), ""
	case wire.KindInt:
		return Int(v.Int()), ""
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)
		}
		return Float(f), ""
	case wire.KindString:
		return v.Str(), ""
	case wire.KindList:
		list := v.List()
		vs := make([]Value, len(list))
		for i, e := range list {
			x, msg := propertyValue(e)
			if msg != "" {
				return nil, msg
			}
			vs[i] = x
		}
		return vs, ""
	}
	return nil, "unknown value kind " + v.Kind().String()
}

func (g *graphEncoder) edges(edges []wire.Edge) Value {
	rows := make([]Value, len(edges))
	var depth, pathID, step bool
	for i := range edges {
		depth = depth || edges[i].Depth.Valid
		pathID = pathID || edges[i].PathID.Valid
		step = step || edges[i].Step.Valid
	}
	n := 5
	for _, b := range [...]bool{depth, pathID, step} {
		if b {
			n++
		}
	}
	// Type names repeat from edge to edge; box each distinct one once.
	var boxes boxCache
	for i := range edges {
		e := &edges[i]
		o := g.object(n)
		o.Add("from", boxes.get(e.From))
		o.Add("from_id", Int(e.FromID))
		o.Add("to", boxes.get(e.To))
		o.Add("to_id", Int(e.ToID))
		o.Add("type", boxes.get(e.Type))
		if depth {
			o.Add("depth", optInt(e.Depth))
		}
		if pathID {
			o.Add("path_id", optInt(e.PathID))
		}
		if step {
			o.Add("step", optInt(e.Step))
		}
		rows[i] = o
	}
	return rows
}

// boxCache remembers the Value (interface) boxes of a few recent strings,
// so that repeated type names are boxed once.
type boxCache struct {
	keys [4]string
	vals [4]Value
	next int
}

func (c *boxCache) get(s string) Value {
	for i := range c.keys {
		if c.vals[i] != nil && c.keys[i] == s {
			return c.vals[i]
		}
	}
	v := Value(s)
	c.keys[c.next], c.vals[c.next] = s, v
	c.next = (c.next + 1) % len(c.keys)
	return v
}

func optInt(o wire.OptInt) Value {
	if !o.Valid {
		return nil
	}
	return Int(o.Int)
}

func optString(o wire.OptString) Value {
	if !o.Valid {
		return nil
	}
	return o.String
}

func (g *graphEncoder) columns(cols []wire.Column) Value {
	var target, property bool
	for _, c := range cols {
		target = target || c.Target.Valid
		property = property || c.Property.Valid
	}
	rows := make([]Value, len(cols))
	for i, c := range cols {
		o := g.object(4)
		o.Add("name", c.Name)
		o.Add("function", c.Function)
		if target {
			o.Add("target", optString(c.Target))
		}
		if property {
			o.Add("property", optString(c.Property))
		}
		rows[i] = o
	}
	return rows
}

func (g *graphEncoder) groupColumns(gcs []wire.GroupColumn) (Value, error) {
	var property, entity bool
	for i, c := range gcs {
		if !c.Kind.Valid() {
			return nil, &wire.EncodeError{Codec: Name, Path: "group_columns[" + strconv.Itoa(i) + "].kind", Msg: "invalid group kind " + strconv.Quote(string(c.Kind))}
		}
		property = property || c.Property.Valid
		entity = entity || c.Entity.Valid
	}
	rows := make([]Value, len(gcs))
	for i, c := range gcs {
		o := g.object(5)
		o.Add("name", c.Name)
		o.Add("kind", string(c.Kind))
		o.Add("node", c.Node)
		if property {
			o.Add("property", optString(c.Property))
		}
		if entity {
			o.Add("entity", optString(c.Entity))
		}
		rows[i] = o
	}
	return rows, nil
}

func (g *graphEncoder) rows(rows []wire.Row) (Value, error) {
	objs := make([]*Object, len(rows))
	for i, row := range rows {
		if name, dup := duplicate(len(row), func(j int) string { return row[j].Name }); dup {
			return nil, &wire.EncodeError{Codec: Name, Path: "rows[" + strconv.Itoa(i) + "]", Msg: "duplicate cell " + strconv.Quote(name)}
		}
		o := NewObject(len(row))
		for j := range row {
			c := &row[j]
			path := func() string { return "rows[" + strconv.Itoa(i) + "]." + c.Name }
			if c.Node != nil {
				n := c.Node
				if k, msg := badKeys(n.Properties); msg != "" {
					return nil, &wire.EncodeError{Codec: Name, Path: path(), Msg: msg + " " + strconv.Quote(k)}
				}
				ref := NewObject(2 + len(n.Properties))
				ref.Add("type", n.Type)
				ref.Add("id", Int(n.ID))
				for _, p := range n.Properties {
					v, msg := propertyValue(p.Value)
					if msg != "" {
						return nil, &wire.EncodeError{Codec: Name, Path: path() + ".properties." + p.Key, Msg: msg}
					}
					ref.Add(p.Key, v)
				}
				o.Add(c.Name, ref)
				continue
			}
			v, msg := propertyValue(c.Value)
			if msg != "" {
				return nil, &wire.EncodeError{Codec: Name, Path: path(), Msg: msg}
			}
			o.Add(c.Name, v)
		}
		objs[i] = o
	}
	out := make([]Value, len(rows))
	if tabularShape(objs) && !sameShape(objs) {
		// A TOON table would impose the first row's orders on the others:
		// write each row as a list of one-cell objects instead.
		for i, o := range objs {
			cells := make([]Value, len(o.Members))
			for j, m := range o.Members {
				c := NewObject(1)
				c.Add(m.Key, m.Value)
				cells[j] = c
			}
			out[i] = cells
		}
		return out, nil
	}
	for i, o := range objs {
		out[i] = o
	}
	return out, nil
}

// tabularShape reports whether objs qualify for a TOON table (spec §9.3,
// with nested objects as field groups): every object non-empty, all with
// the same set of keys, and each key's values all primitive or all such
// objects, recursively. Row objects here hold primitives, lists and node
// references (objects of primitives and lists).
func tabularShape(objs []*Object) bool {
	if len(objs) == 0 || len(objs[0].Members) == 0 {
		return false
	}
	first := objs[0]
	for _, o := range objs[1:] {
		if len(o.Members) != len(first.Members) {
			return false
		}
		if sameShape([]*Object{first, o}) {
			continue
		}
		set := make(map[string]struct{}, len(o.Members))
		for _, m := range o.Members {
			set[m.Key] = struct{}{}
		}
		for _, m := range first.Members {
			if _, ok := set[m.Key]; !ok {
				return false
			}
		}
	}
	var sub []*Object
	for j, m := range first.Members {
		sub = sub[:0]
		prim := true
		for _, o := range objs {
			v := memberValue(o, m.Key, j)
			switch x := v.(type) {
			case []Value:
				return false
			case *Object:
				prim = false
				sub = append(sub, x)
			}
		}
		if prim {
			continue
		}
		if len(sub) != len(objs) || !tabularShape(sub) {
			return false
		}
	}
	return true
}

// memberValue returns the value of key in o, looking at position hint
// first.
func memberValue(o *Object, key string, hint int) Value {
	if hint < len(o.Members) && o.Members[hint].Key == key {
		return o.Members[hint].Value
	}
	v, _ := o.Get(key)
	return v
}

// sameShape reports whether objs have the same keys in the same order,
// nested objects included.
func sameShape(objs []*Object) bool {
	first := objs[0]
	for _, o := range objs[1:] {
		if len(o.Members) != len(first.Members) {
			return false
		}
		for j, m := range first.Members {
			if o.Members[j].Key != m.Key {
				return false
			}
			a, aok := m.Value.(*Object)
			b, bok := o.Members[j].Value.(*Object)
			if aok != bok || aok && !sameShape([]*Object{a, b}) {
				return false
			}
		}
	}
	return true
}

// Decode reads a response written in the layout of Encode. It accepts any
// TOON text (spec v4.0, strict mode) that has that shape; both forms of
// nodes (object and list of groups), all three row forms, and any TOON
// encoding of the same values (list form where Encode writes a table,
// other delimiters, quoting) read the same.
//
// Errors are *wire.DecodeError. A TOON syntax error has the line and
// column; a value of the wrong shape names the field and the line where it
// was found: "toon: line 7: nodes.User[3].id: expected an integer, found
// string "x"".
//
// Decode applies the default wire.Limits; a Codec from New applies its
// own (see Security in the package documentation).
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// layoutDepth is the TOON nesting the layout adds around a value, and
// depthPerList the nesting each level of a list inside a list takes (a
// "- [N]:" item opens an item and an array): the generic decoder's
// MaxDepth is the codec's MaxDepth translated by them, and the list depth
// itself is checked exactly on the decoded values.
const (
	layoutDepth  = 8
	depthPerList = 2
)

// layoutFields is the most names the layout adds to a header's field
// group or an object beside a response's own (an edge has eight and no
// others; a node adds id; a node in a row adds type and id; the document
// has nine, MaxElements being at least one): the generic decoder refuses
// a group or an object of more than MaxElements+layoutFields names as it
// reads them.
const layoutFields = 8

// Decode parses TOON text into a response under the codec's limits; see
// the package-level Decode.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	l := c.limits
	if int64(len(data)) > l.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: l.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(l.MaxInputBytes, 10)}
	}
	v, err := unmarshal(data, DecodeOptions{MaxDepth: depthPerList*l.MaxDepth + layoutDepth},
		limits{set: true, maxElements: l.MaxElements, maxFields: l.MaxElements + layoutFields, maxString: l.MaxStringBytes, maxMaterialized: l.MaxMaterializedBytes})
	if err != nil {
		return nil, err
	}
	d := graphDecoder{src: data, lim: l}
	r := d.document(v)
	if d.err == nil {
		d.measure(r)
	}
	if d.err != nil {
		return nil, d.err
	}
	return r, nil
}

// pathStep is one element of a path into the document: a key, or an
// index when index >= 0.
type pathStep struct {
	key   string
	index int
}

func keyStep(k string) pathStep { return pathStep{key: k, index: -1} }
func indexStep(i int) pathStep  { return pathStep{index: i} }
func (s pathStep) isKey() bool  { return s.index < 0 }

type graphDecoder struct {
	src []byte
	lim wire.Limits
	err *wire.DecodeError
}

// name refuses a key that is a name of the response (a node type, a
// property key, a cell name) longer than MaxStringBytes. The layout's own
// keys are not checked: they are no strings of the response.
func (d *graphDecoder) name(s string, path []pathStep) bool {
	if len(s) > d.lim.MaxStringBytes {
		d.failLimit(path, "MaxStringBytes", "a name of "+strconv.Itoa(len(s))+" bytes, longer than the limit of "+strconv.Itoa(d.lim.MaxStringBytes))
		return false
	}
	return true
}

// failLimit records, like fail, a value past the limit named.
func (d *graphDecoder) failLimit(path []pathStep, limit, msg string) {
	if d.err == nil {
		d.fail(path, msg)
		d.err.Limit = limit
	}
}

// measure refuses a response whose canonical JSON would pass
// MaxMaterializedBytes, naming the first place where the count passes it.
// A key shared by the rows of a table counts once per row, in constant
// time per use.
func (d *graphDecoder) measure(r *wire.GraphResponse) {
	m := wire.NewMeter(d.lim, len(d.src))
	fail := func(path ...pathStep) { d.failLimit(path, m.LimitName(), m.Msg()) }
	for i := range r.Nodes {
		if !m.Node(&r.Nodes[i]) {
			fail(keyStep("nodes"))
			return
		}
	}
	for i := range r.Edges {
		if !m.Edge(&r.Edges[i]) {
			fail(keyStep("edges"), indexStep(i))
			return
		}
	}
	for i := range r.Columns {
		if !m.Column(&r.Columns[i]) {
			fail(keyStep("columns"), indexStep(i))
			return
		}
	}
	for i := range r.GroupColumns {
		if !m.GroupColumn(&r.GroupColumns[i]) {
			fail(keyStep("group_columns"), indexStep(i))
			return
		}
	}
	for i, row := range r.Rows {
		if !m.Row(row) {
			fail(keyStep("rows"), indexStep(i))
			return
		}
	}
	if !m.Finish(r) {
		fail()
	}
}

// fail records the first shape error, at path.
func (d *graphDecoder) fail(path []pathStep, msg string) {
	if d.err != nil {
		return
	}
	if len(path) > 0 {
		msg = pathString(path) + ": " + msg
	}
	d.err = &wire.DecodeError{Codec: codecName, Line: locate(d.src, path), Msg: msg}
	if d.err.Line == 0 {
		d.err.Line = 1
	}
}

// counted returns n followed by the singular or plural noun, as n wants.
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// thereAre returns "there is 1 one" or "there are n many".
func thereAre(n int, one, many string) string {
	if n == 1 {
		return "there is " + counted(n, one, many)
	}
	return "there are " + counted(n, one, many)
}

func pathString(path []pathStep) string {
	var b strings.Builder
	for i, s := range path {
		if !s.isKey() {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case len(s.key) > maxExcerpt:
			b.WriteString(excerpt(s.key))
		case isValidUnquotedKey(s.key) && !strings.Contains(s.key, "."):
			b.WriteString(s.key)
		default:
			b.WriteString(strconv.Quote(s.key))
		}
	}
	return b.String()
}

// describe names the kind of a decoded value for error messages.
func describe(v Value) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case Number:
		return "number " + x.String()
	case string:
		return "string " + excerpt(x)
	case []Value:
		return "an array"
	case *Object:
		return "an object"
	}
	return "a value"
}

// newPath returns a path holding steps, with room to grow without
// reallocating in the common case.
func newPath(steps ...pathStep) []pathStep {
	p := make([]pathStep, len(steps), 8)
	copy(p, steps)
	return p
}

func (d *graphDecoder) document(v Value) *wire.GraphResponse {
	doc, ok := v.(*Object)
	if !ok {
		d.fail(nil, "expected an object with format_version, query_type, nodes and edges, found "+describe(v))
		return nil
	}
	r := &wire.GraphResponse{}
	var haveVersion, haveType bool
	var nodes, order Value
	var haveOrder bool
	for _, m := range doc.Members {
		path := newPath(keyStep(m.Key))
		switch m.Key {
		case "format_version":
			r.FormatVersion, haveVersion = d.str(m.Value, path)
		case "query_type":
			var s string
			s, haveType = d.str(m.Value, path)
			r.QueryType = wire.QueryType(s)
			if haveType && !r.QueryType.Valid() {
				d.fail(path, "unknown query type "+excerpt(s))
			}
		case "nodes":
			nodes = m.Value
		case "node_order":
			order, haveOrder = m.Value, true
		case "edges":
			r.Edges = d.edges(m.Value, path)
		case "columns":
			r.Columns = d.columns(m.Value, path)
		case "group_columns":
			r.GroupColumns = d.groupColumns(m.Value, path)
		case "rows":
			r.Rows = d.rows(m.Value, path)
		case "pagination":
			r.Pagination = d.pagination(m.Value, path)
		default:
			d.fail(path, "unknown field")
		}
		if d.err != nil {
			return nil
		}
	}
	if !haveVersion {
		d.fail(nil, "missing format_version")
	} else if !haveType {
		d.fail(nil, "missing query_type")
	}
	if d.err != nil {
		return nil
	}
	r.Nodes = d.nodes(nodes, order, haveOrder)
	if d.err != nil {
		return nil
	}
	return r
}

func (d *graphDecoder) str(v Value, path []pathStep) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.fail(path, "expected a string, found "+describe(v))
	}
	return s, ok
}

func (d *graphDecoder) integer(v Value, path []pathStep) int64 {
	if n, ok := v.(Number); ok && n.IsInt() {
		i, _ := n.Int64()
		return i
	}
	d.fail(path, "expected an integer, found "+describe(v))
	return 0
}

func (d *graphDecoder) array(v Value, path []pathStep) []Value {
	a, ok := v.([]Value)
	if !ok {
		d.fail(path, "expected an array, found "+describe(v))
	}
	return a
}

func (d *graphDecoder) object(v Value, path []pathStep) *Object {
	o, ok := v.(*Object)
	if !ok || o == nil {
		d.fail(path, "expected an object, found "+describe(v))
		return nil
	}
	return o
}

// value converts a property or cell value: a primitive or an array of
// values.
func (d *graphDecoder) value(v Value, path []pathStep) wire.Value { return d.valueAt(v, path, 0) }

// valueAt converts a value inside depth lists.
func (d *graphDecoder) valueAt(v Value, path []pathStep, depth int) wire.Value {
	switch x := v.(type) {
	case nil:
		return wire.Null()
	case bool:
		return wire.Bool(x)
	case string:
		return wire.String(x)
	case Number:
		if x.IsInt() {
			i, _ := x.Int64()
			return wire.Int(i)
		}
		return wire.Float(x.Float64())
	case []Value:
		if depth == d.lim.MaxDepth {
			d.failLimit(path, "MaxDepth", "lists nested more than "+strconv.Itoa(d.lim.MaxDepth)+" deep")
			return wire.Value{}
		}
		vs := make([]wire.Value, len(x))
		for i, e := range x {
			vs[i] = d.valueAt(e, append(path, indexStep(i)), depth+1)
			if d.err != nil {
				return wire.Value{}
			}
		}
		return wire.ListOf(vs...)
	}
	d.fail(path, "expected a value (null, bool, number, string or array), found "+describe(v))
	return wire.Value{}
}

// nodes reads the nodes section: an object of type groups, or a list of
// one-key objects; then applies node_order.
func (d *graphDecoder) nodes(v Value, order Value, haveOrder bool) []wire.Node {
	type group struct {
		typ   string
		items []Value
		path  []pathStep
	}
	var groups []group
	total := 0
	switch x := v.(type) {
	case nil:
		// No nodes section: no nodes.
	case *Object:
		for _, m := range x.Members {
			path := newPath(keyStep("nodes"), keyStep(m.Key))
			if !d.name(m.Key, path) {
				return nil
			}
			items := d.array(m.Value, path)
			if d.err != nil {
				return nil
			}
			groups = append(groups, group{m.Key, items, path})
			total += len(items)
		}
	case []Value:
		for k, e := range x {
			path := newPath(keyStep("nodes"), indexStep(k))
			o := d.object(e, path)
			if d.err != nil {
				return nil
			}
			if len(o.Members) != 1 {
				d.fail(path, "expected an object with one member, a type and its nodes, found "+strconv.Itoa(len(o.Members))+" members")
				return nil
			}
			m := o.Members[0]
			path = append(path, keyStep(m.Key))
			if !d.name(m.Key, path) {
				return nil
			}
			items := d.array(m.Value, path)
			if d.err != nil {
				return nil
			}
			groups = append(groups, group{m.Key, items, path})
			total += len(items)
		}
	default:
		d.fail([]pathStep{keyStep("nodes")}, "expected an object of node types or a list of type groups, found "+describe(v))
		return nil
	}

	if total > d.lim.MaxElements {
		d.failLimit([]pathStep{keyStep("nodes")}, "MaxElements", strconv.Itoa(total)+" nodes, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
		return nil
	}
	nodes := make([]wire.Node, 0, total)
	if !haveOrder {
		for _, gr := range groups {
			for i, item := range gr.items {
				nodes = append(nodes, d.node(gr.typ, item, append(gr.path, indexStep(i))))
				if d.err != nil {
					return nil
				}
			}
		}
		return nodes
	}

	path := newPath(keyStep("node_order"))
	idx := d.array(order, path)
	if d.err != nil {
		return nil
	}
	if len(idx) != total {
		d.fail(path, "has "+counted(len(idx), "entry", "entries")+" for "+counted(total, "node", "nodes"))
		return nil
	}
	next := make([]int, len(groups))
	for i, e := range idx {
		k := d.integer(e, append(path, indexStep(i)))
		if d.err != nil {
			return nil
		}
		if k < 0 || k >= int64(len(groups)) {
			d.fail(append(path, indexStep(i)), "group "+strconv.FormatInt(k, 10)+" out of range ("+thereAre(len(groups), "group", "groups")+")")
			return nil
		}
		gr := &groups[k]
		j := next[k]
		if j >= len(gr.items) {
			d.fail(append(path, indexStep(i)), "group "+strconv.FormatInt(k, 10)+" has only "+counted(len(gr.items), "node", "nodes"))
			return nil
		}
		next[k]++
		nodes = append(nodes, d.node(gr.typ, gr.items[j], append(gr.path, indexStep(j))))
		if d.err != nil {
			return nil
		}
	}
	return nodes
}

func (d *graphDecoder) node(typ string, v Value, path []pathStep) wire.Node {
	n := wire.Node{Type: typ}
	o := d.object(v, path)
	if d.err != nil {
		return n
	}
	haveID := false
	if len(o.Members)-1 > d.lim.MaxElements {
		d.failLimit(path, "MaxElements", strconv.Itoa(len(o.Members)-1)+" properties, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
		return n
	}
	if len(o.Members) > 1 {
		n.Properties = make([]wire.Property, 0, len(o.Members)-1)
	}
	for _, m := range o.Members {
		switch m.Key {
		case "id":
			n.ID = d.integer(m.Value, append(path, keyStep("id")))
			haveID = true
		case "type":
			d.fail(append(path, keyStep("type")), `a node's type is its group's name, not a property`)
		default:
			if !d.name(m.Key, append(path, keyStep(m.Key))) {
				return n
			}
			n.Properties = append(n.Properties, wire.Property{Key: m.Key, Value: d.value(m.Value, append(path, keyStep(m.Key)))})
		}
		if d.err != nil {
			return n
		}
	}
	if !haveID {
		d.fail(path, "node without id")
	}
	return n
}

// fields walks the members of an object row, checking each key against the
// allowed ones and requiring the required ones.
func (d *graphDecoder) fields(v Value, path []pathStep, allowed []string, required int, each func(k int, v Value, path []pathStep)) {
	o := d.object(v, path)
	if d.err != nil {
		return
	}
	var seen uint16
	for _, m := range o.Members {
		k := 0
		for k < len(allowed) && allowed[k] != m.Key {
			k++
		}
		p := append(path, keyStep(m.Key))
		if k == len(allowed) {
			d.fail(p, "unknown field (want "+strings.Join(allowed, ", ")+")")
			return
		}
		seen |= 1 << k
		each(k, m.Value, p)
		if d.err != nil {
			return
		}
	}
	for k := 0; k < required; k++ {
		if seen&(1<<k) == 0 {
			d.fail(path, "missing "+allowed[k])
			return
		}
	}
}

func (d *graphDecoder) optInt(v Value, path []pathStep) wire.OptInt {
	if v == nil {
		return wire.OptInt{}
	}
	return wire.SomeInt(d.integer(v, path))
}

func (d *graphDecoder) optString(v Value, path []pathStep) wire.OptString {
	if v == nil {
		return wire.OptString{}
	}
	s, _ := d.str(v, path)
	return wire.SomeString(s)
}

var edgeFields = []string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}

func (d *graphDecoder) edges(v Value, path []pathStep) []wire.Edge {
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	edges := make([]wire.Edge, len(items))
	for i, item := range items {
		e := &edges[i]
		d.fields(item, append(path, indexStep(i)), edgeFields, 5, func(k int, v Value, p []pathStep) {
			switch k {
			case 0:
				e.From, _ = d.str(v, p)
			case 1:
				e.FromID = d.integer(v, p)
			case 2:
				e.To, _ = d.str(v, p)
			case 3:
				e.ToID = d.integer(v, p)
			case 4:
				e.Type, _ = d.str(v, p)
			case 5:
				e.Depth = d.optInt(v, p)
			case 6:
				e.PathID = d.optInt(v, p)
			case 7:
				e.Step = d.optInt(v, p)
			}
		})
		if d.err != nil {
			return nil
		}
	}
	return edges
}

var columnFields = []string{"name", "function", "target", "property"}

func (d *graphDecoder) columns(v Value, path []pathStep) []wire.Column {
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	cols := make([]wire.Column, len(items))
	for i, item := range items {
		c := &cols[i]
		d.fields(item, append(path, indexStep(i)), columnFields, 2, func(k int, v Value, p []pathStep) {
			switch k {
			case 0:
				c.Name, _ = d.str(v, p)
			case 1:
				c.Function, _ = d.str(v, p)
			case 2:
				c.Target = d.optString(v, p)
			case 3:
				c.Property = d.optString(v, p)
			}
		})
		if d.err != nil {
			return nil
		}
	}
	return cols
}

var groupColumnFields = []string{"name", "kind", "node", "property", "entity"}

func (d *graphDecoder) groupColumns(v Value, path []pathStep) []wire.GroupColumn {
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	gcs := make([]wire.GroupColumn, len(items))
	for i, item := range items {
		c := &gcs[i]
		d.fields(item, append(path, indexStep(i)), groupColumnFields, 3, func(k int, v Value, p []pathStep) {
			switch k {
			case 0:
				c.Name, _ = d.str(v, p)
			case 1:
				s, ok := d.str(v, p)
				c.Kind = wire.GroupKind(s)
				if ok && !c.Kind.Valid() {
					d.fail(p, "unknown group kind "+excerpt(s)+" (want node or property)")
				}
			case 2:
				c.Node, _ = d.str(v, p)
			case 3:
				c.Property = d.optString(v, p)
			case 4:
				c.Entity = d.optString(v, p)
			}
		})
		if d.err != nil {
			return nil
		}
	}
	return gcs
}

func (d *graphDecoder) rows(v Value, path []pathStep) []wire.Row {
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	rows := make([]wire.Row, len(items))
	for i, item := range items {
		p := append(path, indexStep(i))
		switch x := item.(type) {
		case *Object:
			if x == nil {
				break
			}
			if len(x.Members) > d.lim.MaxElements {
				d.failLimit(p, "MaxElements", strconv.Itoa(len(x.Members))+" cells, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
				return nil
			}
			row := make(wire.Row, len(x.Members))
			for j, m := range x.Members {
				row[j] = d.cell(m.Key, m.Value, append(p, keyStep(m.Key)))
				if d.err != nil {
					return nil
				}
			}
			rows[i] = row
			continue
		case []Value:
			row := make(wire.Row, len(x))
			for j, c := range x {
				cp := append(p, indexStep(j))
				o := d.object(c, cp)
				if d.err != nil {
					return nil
				}
				if len(o.Members) != 1 {
					d.fail(cp, "expected a one-cell object, found "+strconv.Itoa(len(o.Members))+" members")
					return nil
				}
				row[j] = d.cell(o.Members[0].Key, o.Members[0].Value, append(cp, keyStep(o.Members[0].Key)))
				if d.err != nil {
					return nil
				}
			}
			if name, dup := duplicate(len(row), func(j int) string { return row[j].Name }); dup {
				j := len(row) - 1
				for row[j].Name != name {
					j--
				}
				d.fail(append(p, indexStep(j), keyStep(name)), "duplicate cell")
				return nil
			}
			rows[i] = row
			continue
		}
		d.fail(p, "expected a row (an object, or a list of one-cell objects), found "+describe(item))
		return nil
	}
	return rows
}

func (d *graphDecoder) cell(name string, v Value, path []pathStep) wire.Cell {
	c := wire.Cell{Name: name}
	if !d.name(name, path) {
		return c
	}
	o, ok := v.(*Object)
	if !ok || o == nil {
		c.Value = d.value(v, path)
		return c
	}
	if len(o.Members)-2 > d.lim.MaxElements {
		d.failLimit(path, "MaxElements", strconv.Itoa(len(o.Members)-2)+" properties, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
		return c
	}
	n := &wire.Node{Properties: []wire.Property{}}
	var haveType, haveID bool
	for _, m := range o.Members {
		p := append(path, keyStep(m.Key))
		switch m.Key {
		case "type":
			n.Type, haveType = d.str(m.Value, p)
		case "id":
			n.ID = d.integer(m.Value, p)
			haveID = true
		default:
			if !d.name(m.Key, p) {
				return c
			}
			n.Properties = append(n.Properties, wire.Property{Key: m.Key, Value: d.value(m.Value, p)})
		}
		if d.err != nil {
			return c
		}
	}
	if !haveType || !haveID {
		d.fail(path, "a node reference needs type and id")
		return c
	}
	c.Node = n
	return c
}

var paginationFields = []string{"has_more", "total_rows", "truncated", "next_cursor"}

// pagination reads {has_more, total_rows} (schema v2) or {has_more,
// truncated, next_cursor?} (schema v5); has_more is required, and a mix of
// the two, or a shape missing its schema's required field, is an error at
// the pagination object.
func (d *graphDecoder) pagination(v Value, path []pathStep) *wire.Pagination {
	p := &wire.Pagination{}
	boolean := func(v Value, fp []pathStep) bool {
		b, ok := v.(bool)
		if !ok {
			d.fail(fp, "expected true or false, found "+describe(v))
		}
		return b
	}
	d.fields(v, path, paginationFields, 1, func(k int, v Value, fp []pathStep) {
		switch k {
		case 0:
			p.HasMore = boolean(v, fp)
		case 1:
			p.TotalRows = wire.SomeInt(d.integer(v, fp))
		case 2:
			p.Truncated = wire.SomeBool(boolean(v, fp))
		case 3:
			s, _ := d.str(v, fp)
			p.NextCursor = wire.SomeString(s)
		}
	})
	if d.err == nil {
		if err := p.Check(); err != nil {
			d.fail(path, err.Error())
		}
	}
	return p
}

// locate returns the line of the document where the value at path is (or
// the line of its nearest ancestor it can find), or 0. It follows the
// shape of a TOON document after a successful decode: keys at their
// indentation, array elements one per line one level deeper (table rows
// and "- " items alike), an item's first key on its "- " line. Indentation
// is DefaultIndentSize spaces per level, as Decode reads it. It reads the
// lines where they are, one at a time, and keeps none of them.
func locate(src []byte, path []pathStep) int {
	text := unsafe.String(unsafe.SliceData(src), len(src)) // read only
	text = strings.TrimPrefix(text, "\uFEFF")
	hasKey := func(content string, k []byte) bool {
		if !strings.HasPrefix(content, string(k)) {
			return false
		}
		rest := content[len(k):]
		return rest != "" && (rest[0] == ':' || rest[0] == '[')
	}
	from := locLine{next: 0, nextNum: 1, indent: -1} // the region is the lines after from, indented deeper
	indent := 0                                      // indentation of the keys or elements sought
	var item locLine                                 // the current "- " item, if haveItem
	haveItem := false
	found := 0
	var kbuf []byte
	for _, s := range path {
		var at locLine
		ok, onItem := false, false
		if s.isKey() {
			kbuf = appendKey(kbuf[:0], s.key)
			if haveItem && hasKey(strings.TrimPrefix(item.text, "- "), kbuf) {
				at, ok, onItem = item, true, true
			}
		}
		n := 0
		for l, more := lineAt(text, from.next, from.nextNum); !ok && more && l.indent > from.indent; l, more = lineAt(text, l.next, l.nextNum) {
			if l.indent != indent {
				continue
			}
			switch {
			case s.isKey():
				ok = hasKey(l.text, kbuf)
			case n == s.index:
				ok = true
			default:
				n++
			}
			if ok {
				at = l
			}
		}
		if !ok {
			break
		}
		found = at.num
		// What the found line holds sits one level deeper; an item's keys
		// sit one level deeper than its "- ", and what they hold one more.
		indent = at.indent + DefaultIndentSize
		haveItem = false
		if !s.isKey() && strings.HasPrefix(at.text, "- ") {
			item, haveItem = at, true
		} else if onItem {
			indent += DefaultIndentSize
		}
		from = at
	}
	return found
}

// locLine is a line of a document as locate reads it: its number, its
// indentation and its text after it, and where the line after it starts.
type locLine struct {
	num, indent   int
	text          string
	next, nextNum int
}

// lineAt returns the first line at or after offset pos of text (line num)
// that is neither blank nor a comment, and false past the last.
func lineAt(text string, pos, num int) (locLine, bool) {
	for pos < len(text) {
		raw, end := text[pos:], len(text)
		if i := strings.IndexByte(raw, '\n'); i >= 0 {
			raw, end = raw[:i], pos+i+1
		}
		raw = strings.TrimSuffix(raw, "\r")
		content := strings.TrimLeft(raw, " ")
		if content != "" && content[0] != '#' {
			return locLine{num: num, indent: len(raw) - len(content), text: content, next: end, nextNum: num + 1}, true
		}
		pos, num = end, num+1
	}
	return locLine{}, false
}

// pagination is the layout's pagination object: has_more, then each
// optional field present in p, in canonical order.
func (g *graphEncoder) pagination(p *wire.Pagination) *Object {
	po := g.object(4)
	po.Add("has_more", p.HasMore)
	if p.TotalRows.Valid {
		po.Add("total_rows", Int(p.TotalRows.Int))
	}
	if p.Truncated.Valid {
		po.Add("truncated", p.Truncated.Bool)
	}
	if p.NextCursor.Valid {
		po.Add("next_cursor", p.NextCursor.String)
	}
	return po
}
