package toon

import (
	"io"
	"math"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// EncodeTo writes the TOON text of r (see Encode) to w under the default
// wire.Limits; see Codec.EncodeTo.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// EncodeTo writes the TOON text of r to w as it produces it, in writes of
// about 32 KiB at line boundaries; the bytes and the refusals are
// AppendEncode's. Nothing is written when encoding fails: the response is
// checked and its text produced once into a counter (which also measures
// it against MaxInputBytes) before it is produced again into w. Only an
// error from w can leave partial output.
//
// Neither pass builds the layout's whole document. The header fields, the
// node tables, node_order and the edges table are written line by line
// from the response, one node or edge at a time (only a property holding
// lists of lists is converted to a generic value first); the columns,
// group_columns, rows and pagination sections are each built as a
// document and written in turn. So memory beyond a 32 KiB buffer is
// bounded by the largest of those sections, plus, per node group, one
// index run for each stretch of its nodes that others interrupt (one run
// per group when each type's nodes are contiguous), and node_order's
// group numbers (one int per node) when that section is written.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r == nil {
		return &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	size, err := c.limits.CheckSize(Name, r)
	if err != nil {
		return err
	}
	var s streamer
	if err := s.prepare(r); err != nil {
		return err
	}
	var n byteCounter
	if err := s.write(&n, r); err != nil {
		return err
	}
	if int64(n) > c.limits.MaxInputBytes {
		return &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the text would take " + strconv.FormatInt(int64(n), 10) + " bytes, more than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	if err := c.limits.CheckExpansion(Name, size, int64(n)); err != nil {
		return err
	}
	return s.write(w, r)
}

// byteCounter is a writer that only counts.
type byteCounter int64

func (n *byteCounter) Write(p []byte) (int, error) {
	*n += byteCounter(len(p))
	return len(p), nil
}

// streamer writes the layout of graph.go's graphEncoder.document section
// by section, making the same generic-encoder calls that encoding the
// whole document makes (see encoder.root and encoder.field), so that the
// text is the same byte for byte. Its scratch space (the output buffer,
// the node groups) is kept from one pass to the next.
type streamer struct {
	buf    []byte
	groups []nodeRuns
	split  bool
	fields []field
}

// prepare refuses what graphEncoder.document refuses before it builds the
// nodes section, and groups the nodes.
func (s *streamer) prepare(r *wire.GraphResponse) error {
	if !r.QueryType.Valid() {
		return &wire.EncodeError{Codec: Name, Path: "query_type", Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return &wire.EncodeError{Codec: Name, Path: "pagination", Msg: err.Error()}
		}
	}
	return s.group(r.Nodes)
}

// write produces the text of r (prepared) into w. A refusal of the layout
// (what graphEncoder.document refuses) wins over an error of the generic
// encoder met earlier in the text, as in AppendEncode, which builds the
// whole document before encoding it.
func (s *streamer) write(w io.Writer, r *wire.GraphResponse) error {
	if s.buf == nil {
		s.buf = make([]byte, 0, flushSize+4096)
	}
	opts, _ := EncodeOptions{}.resolve()
	e := encoder{buf: s.buf[:0], w: w, opts: opts}
	e.setup()
	defer func() { s.buf = e.buf[:0] }()

	e.field("format_version", r.FormatVersion, 0)
	e.field("query_type", string(r.QueryType), 0)
	if err := s.nodes(&e, r.Nodes); err != nil {
		return err
	}
	s.nodeOrder(&e, len(r.Nodes))
	s.edges(&e, r.Edges)
	var g graphEncoder
	if r.Columns != nil {
		e.field("columns", g.columns(r.Columns), 0)
	}
	if r.GroupColumns != nil {
		gc, err := g.groupColumns(r.GroupColumns)
		if err != nil {
			return err
		}
		e.field("group_columns", gc, 0)
	}
	if r.Rows != nil {
		rows, err := g.rows(r.Rows)
		if err != nil {
			return err
		}
		e.field("rows", rows, 0)
	}
	if p := r.Pagination; p != nil {
		e.field("pagination", g.pagination(p), 0)
	}
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = w.Write(e.buf)
	}
	return e.err
}

// indexRun is a run of consecutive node indexes, lo included, hi excluded.
type indexRun struct{ lo, hi int }

// nodeRuns is one group of the nodes section (see nodeGroup), its nodes
// held as runs of consecutive indexes: one run when the nodes of a type
// are contiguous, as they usually are. tabular says whether the generic
// encoder writes the group as a table.
type nodeRuns struct {
	typ     string
	runs    []indexRun
	n       int
	tabular bool
}

func (g *nodeRuns) add(i int) {
	if k := len(g.runs); k > 0 && g.runs[k-1].hi == i {
		g.runs[k-1].hi++
	} else {
		g.runs = append(g.runs, indexRun{i, i + 1})
	}
	g.n++
}

// group computes the node groups of graphEncoder.nodes (types in
// first-seen order, a type split into one table per key order when its
// nodes have the same keys in different orders) and refuses what
// checkProperties refuses, before anything is written. A group is a table
// when its nodes have one key set and no list value (tabularFields'
// condition on objects of primitives), and then, split or not, one key
// sequence.
func (s *streamer) group(nodes []wire.Node) error {
	s.groups, s.split = s.groups[:0], false
	if len(nodes) == 0 {
		return nil
	}
	var types []nodeRuns
	typeIndex := make(map[string]int, 4)
	for i := range nodes {
		t := nodes[i].Type
		k, ok := typeIndex[t]
		if !ok {
			k = len(types)
			typeIndex[t] = k
			types = append(types, nodeRuns{typ: t})
		}
		types[k].add(i)
	}
	for _, tg := range types {
		first := nodes[tg.runs[0].lo].Properties
		sameSets, sameSeqs, lists := true, true, false
		var set map[string]struct{}
		for _, sp := range tg.runs {
			for i := sp.lo; i < sp.hi; i++ {
				ps := nodes[i].Properties
				if k, msg := badKeys(ps); msg != "" {
					return &wire.EncodeError{Codec: Name, Path: "nodes[" + strconv.Itoa(i) + "]", Msg: msg + " " + strconv.Quote(k)}
				}
				for _, p := range ps {
					lists = lists || p.Value.Kind() == wire.KindList
				}
				if !sameSets || sameKeys(first, ps) {
					continue
				}
				sameSeqs = false
				if len(ps) != len(first) {
					sameSets = false
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
						sameSets = false
						break
					}
				}
			}
		}
		if !sameSets || lists || sameSeqs {
			tg.tabular = sameSets && !lists
			s.groups = append(s.groups, tg)
			continue
		}
		s.split = true
		byOrder := make(map[string]int)
		var sig []byte
		for _, sp := range tg.runs {
			for i := sp.lo; i < sp.hi; i++ {
				sig = sig[:0]
				for _, p := range nodes[i].Properties {
					sig = strconv.AppendInt(sig, int64(len(p.Key)), 10)
					sig = append(sig, ':')
					sig = append(sig, p.Key...)
				}
				k, ok := byOrder[string(sig)]
				if !ok {
					k = len(s.groups)
					byOrder[string(sig)] = k
					s.groups = append(s.groups, nodeRuns{typ: tg.typ, tabular: true})
				}
				s.groups[k].add(i)
			}
		}
	}
	return nil
}

// nodes writes the nodes section: an object of one array per group, or,
// when a type is split, a list of one-member objects.
func (s *streamer) nodes(e *encoder, nodes []wire.Node) error {
	if !s.split {
		// encoder.field of an object that is not keyed (its members are
		// arrays): "nodes:" and one field per group.
		e.enter()
		e.line(0)
		e.buf = appendKey(e.buf, "nodes")
		e.buf = append(e.buf, ':')
		for _, gr := range s.groups {
			// encoder.array of a non-empty array of objects.
			e.enter()
			e.line(1)
			if err := s.groupBody(e, nodes, gr, 2, false); err != nil {
				return err
			}
			e.leave()
		}
		e.leave()
		return nil
	}
	// encoder.array of objects that are not tabular (their values are
	// arrays), written as list items: encoder.listObject for each.
	e.enter()
	e.line(0)
	key := "nodes"
	e.header(&key, len(s.groups), nil, false)
	for _, gr := range s.groups {
		e.enter()
		e.listItem(1)
		if err := s.groupBody(e, nodes, gr, 3, true); err != nil {
			return err
		}
		e.leave()
	}
	e.leave()
	return nil
}

// groupBody writes a group's array from its key on, the line already
// started (in the list-item form, after "- "): as a table with rows at
// depth, or as a list of node objects with items at depth.
func (s *streamer) groupBody(e *encoder, nodes []wire.Node, gr nodeRuns, depth int, listItem bool) error {
	key := gr.typ
	if gr.tabular {
		first := nodes[gr.runs[0].lo].Properties
		s.fields = append(s.fields[:0], field{name: "id"})
		for _, p := range first {
			s.fields = append(s.fields, field{name: p.Key})
		}
		e.header(&key, gr.n, s.fields, false)
		for _, sp := range gr.runs {
			for i := sp.lo; i < sp.hi; i++ {
				n := &nodes[i]
				e.line(depth)
				e.buf = strconv.AppendInt(e.buf, n.ID, 10)
				for p := range n.Properties {
					e.buf = append(e.buf, e.delim)
					if msg := e.cell(n.Properties[p].Value); msg != "" {
						return &wire.EncodeError{Codec: Name, Path: "nodes[" + strconv.Itoa(i) + "]." + n.Properties[p].Key, Msg: msg}
					}
				}
			}
		}
		return nil
	}
	if listItem {
		// encoder.listObject: the key, then the array's header as a
		// nested level.
		e.buf = appendKey(e.buf, key)
		e.enter()
		defer e.leave()
		e.header(nil, gr.n, nil, false)
	} else {
		e.header(&key, gr.n, nil, false)
	}
	for _, sp := range gr.runs {
		for i := sp.lo; i < sp.hi; i++ {
			if err := s.listNode(e, nodes, i, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// listNode writes node i as a list item at depth, as encoder.listObject
// writes its object {id, properties...}: "- id: N", then one field per
// property. A list of primitives is written inline from the response; a
// list holding lists is converted (propertyValue) and written by
// encoder.field.
func (s *streamer) listNode(e *encoder, nodes []wire.Node, i, depth int) error {
	n := &nodes[i]
	e.enter()
	defer e.leave()
	e.listItem(depth)
	e.buf = append(e.buf, "id: "...)
	e.buf = strconv.AppendInt(e.buf, n.ID, 10)
	for p := range n.Properties {
		key, v := n.Properties[p].Key, n.Properties[p].Value
		fail := func(msg string) error {
			return &wire.EncodeError{Codec: Name, Path: "nodes[" + strconv.Itoa(i) + "]." + key, Msg: msg}
		}
		if v.Kind() != wire.KindList {
			e.line(depth + 1)
			e.buf = appendKey(e.buf, key)
			e.buf = append(e.buf, ':', ' ')
			if msg := e.cell(v); msg != "" {
				return fail(msg)
			}
			continue
		}
		list := v.List()
		if !flatList(list) {
			pv, msg := propertyValue(v)
			if msg != "" {
				return fail(msg)
			}
			if e.err == nil {
				e.field(key, pv, depth+1)
			}
			continue
		}
		// encoder.array of primitives.
		e.enter()
		e.line(depth + 1)
		if len(list) == 0 {
			e.buf = appendKey(e.buf, key)
			e.buf = append(e.buf, ':', ' ', '[', ']')
		} else {
			e.header(&key, len(list), nil, false)
			for j, x := range list {
				if j == 0 {
					e.buf = append(e.buf, ' ')
				} else {
					e.buf = append(e.buf, e.delim)
				}
				if msg := e.cell(x); msg != "" {
					return fail(msg)
				}
			}
		}
		e.leave()
	}
	return nil
}

// flatList reports whether list holds no list.
func flatList(list []wire.Value) bool {
	for _, x := range list {
		if x.Kind() == wire.KindList {
			return false
		}
	}
	return true
}

// cell appends the token of a primitive property value, as the generic
// encoder writes propertyValue's result; when the layout cannot carry the
// value it returns propertyValue's message.
func (e *encoder) cell(v wire.Value) string {
	switch v.Kind() {
	case wire.KindNull:
		e.buf = append(e.buf, "null"...)
	case wire.KindBool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case wire.KindInt:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)
		}
		e.buf = appendFloat(e.buf, f)
	case wire.KindString:
		e.buf = e.appendString(e.buf, v.Str())
	default:
		_, msg := propertyValue(v)
		return msg
	}
	return ""
}

// nodeOrder writes node_order when the groups, concatenated, are not the
// nodes in order: each node's group number, inline.
func (s *streamer) nodeOrder(e *encoder, n int) {
	pos, sorted := 0, true
	for _, gr := range s.groups {
		for _, sp := range gr.runs {
			sorted = sorted && sp.lo == pos
			pos = sp.hi
		}
	}
	if sorted {
		return
	}
	of := make([]int, n)
	for k, gr := range s.groups {
		for _, sp := range gr.runs {
			for i := sp.lo; i < sp.hi; i++ {
				of[i] = k
			}
		}
	}
	e.enter()
	e.line(0)
	key := "node_order"
	e.header(&key, n, nil, false)
	for i, k := range of {
		if i == 0 {
			e.buf = append(e.buf, ' ')
		} else {
			e.buf = append(e.buf, e.delim)
		}
		e.buf = strconv.AppendInt(e.buf, int64(k), 10)
	}
	e.leave()
}

// edges writes the edges table (or "edges: []"), one line per edge, with
// the optional columns any edge has.
func (s *streamer) edges(e *encoder, edges []wire.Edge) {
	e.enter()
	defer e.leave()
	e.line(0)
	key := "edges"
	if len(edges) == 0 {
		e.buf = appendKey(e.buf, key)
		e.buf = append(e.buf, ':', ' ', '[', ']')
		return
	}
	var depth, pathID, step bool
	for i := range edges {
		depth = depth || edges[i].Depth.Valid
		pathID = pathID || edges[i].PathID.Valid
		step = step || edges[i].Step.Valid
	}
	s.fields = append(s.fields[:0], field{name: "from"}, field{name: "from_id"}, field{name: "to"}, field{name: "to_id"}, field{name: "type"})
	if depth {
		s.fields = append(s.fields, field{name: "depth"})
	}
	if pathID {
		s.fields = append(s.fields, field{name: "path_id"})
	}
	if step {
		s.fields = append(s.fields, field{name: "step"})
	}
	e.header(&key, len(edges), s.fields, false)
	optInt := func(o wire.OptInt) {
		e.buf = append(e.buf, e.delim)
		if !o.Valid {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.buf = strconv.AppendInt(e.buf, o.Int, 10)
	}
	for i := range edges {
		ed := &edges[i]
		e.line(1)
		e.buf = e.appendString(e.buf, ed.From)
		e.buf = append(e.buf, e.delim)
		e.buf = strconv.AppendInt(e.buf, ed.FromID, 10)
		e.buf = append(e.buf, e.delim)
		e.buf = e.appendString(e.buf, ed.To)
		e.buf = append(e.buf, e.delim)
		e.buf = strconv.AppendInt(e.buf, ed.ToID, 10)
		e.buf = append(e.buf, e.delim)
		e.buf = e.appendString(e.buf, ed.Type)
		if depth {
			optInt(ed.Depth)
		}
		if pathID {
			optInt(ed.PathID)
		}
		if step {
			optInt(ed.Step)
		}
	}
}
