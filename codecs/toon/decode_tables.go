package toon

import (
	"slices"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// tables chooses the layout's tables and node lists (toonread.Sinks),
// read row by row into the response; a table of a shape the sinks do not
// take is read as a generic value and converted. It keeps what they have
// read, for the meter of a rows table.
type tables struct {
	lim      wire.Limits
	src      []byte        // the input
	nodes    []*nodeGroup  // the node groups read so far
	groups   [8]*nodeGroup // nodes' first room
	edges    *edgeTable
	inGroups int // node groups read in nodes' list form

	offered, taken int // the layout's arrays, and those read by a sink
}

// group returns the node group a sink at path reads.
func (t *tables) group(path []string) (g groupAt, ok bool) {
	switch {
	case len(path) == 2 && path[0] == "nodes":
		return groupAt{typ: path[1], at: -1}, true
	case len(path) == 3 && path[0] == "nodes" && path[1] == "":
		t.inGroups++
		return groupAt{typ: path[2], at: t.inGroups - 1}, true
	}
	return g, false
}

// groupAt is where a node group is: its type, and its index in nodes'
// list form (-1 in the object form).
type groupAt struct {
	typ string
	at  int
}

// path is the path of the group's node i.
func (g groupAt) path(i int) []pathStep {
	if g.at < 0 {
		return newPath(keyStep("nodes"), keyStep(g.typ), indexStep(i))
	}
	return newPath(keyStep("nodes"), indexStep(g.at), keyStep(g.typ), indexStep(i))
}

// List implements toonread.Sinks: a type's nodes in list form.
func (t *tables) List(path []string, h toonread.Header) toonread.ListSink {
	g, ok := t.group(path)
	if !ok {
		return nil
	}
	t.offered++
	t.taken++
	s := &nodeList{d: graphDecoder{src: t.src, lim: t.lim}, groupAt: g}
	s.nodes = make([]wire.Node, 0, min(h.Len(), h.Room()))
	t.addGroup(&s.nodeGroup)
	return s
}

// addGroup records a node group read by a sink.
func (t *tables) addGroup(g *nodeGroup) {
	if t.nodes == nil {
		t.nodes = t.groups[:0]
	}
	t.nodes = append(t.nodes, g)
}

// Table implements toonread.Sinks.
func (t *tables) Table(path []string, h toonread.Header) toonread.TableSink {
	var s toonread.TableSink
	switch g, ok := t.group(path); {
	case ok:
		s = t.nodeTable(g, h)
	case len(path) == 1 && path[0] == "edges":
		s = t.edgeTable(h)
	case len(path) == 1 && path[0] == "rows":
		s = t.rowsTable(h)
	default:
		return nil
	}
	t.offered++
	if s != nil {
		t.taken++
	}
	return s
}

// tableError is the error of the value at path, in a table's row at line.
func tableError(line int, path []pathStep, limit, msg string) *wire.DecodeError {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: pathString(path) + ": " + msg, Limit: limit}
}

// describeScalar names a cell's kind for error messages.
func describeScalar(s *toonread.Scalar) string {
	return describe([...]jsonvalue.Value{toonread.Null: nil, toonread.Bool: s.Bool, toonread.Number: s.Num, toonread.String: s.Str}[s.Kind])
}

// intCell returns the integer of a cell, or the message refusing it.
func intCell(v *toonread.Scalar) (int64, string) {
	if v.Kind != toonread.Number || !v.Num.IsInt() {
		return 0, "expected an integer, found " + describeScalar(v)
	}
	n, _ := v.Num.Int64()
	return n, ""
}

// leafFields appends to names the header's names, and reports whether it
// has no field group and no name past MaxStringBytes.
func (t *tables) leafFields(names []string, h toonread.Header) ([]string, bool) {
	if h.Fields() != h.Leaves() {
		return nil, false
	}
	for i := range h.Fields() {
		name, _ := h.Field(i)
		if len(name) > t.lim.MaxStringBytes {
			return nil, false
		}
		names = append(names, name)
	}
	return names, true
}

// tableNames is a table sink's room for a usual header's names.
const tableNames = 16

// nodeGroup is what the document holds where a sink read a type's nodes.
type nodeGroup struct{ nodes []wire.Node }

// nodeList is the sink of a type's nodes in list form.
type nodeList struct {
	nodeGroup
	groupAt
	d    graphDecoder
	path []pathStep // the path of the item being read, its index last
}

func (s *nodeList) Value() jsonvalue.Value { return &s.nodeGroup }

func (s *nodeList) Item(v jsonvalue.Value, line int) *wire.DecodeError {
	if o, ok := v.(*jsonvalue.Object); ok && len(s.d.propSlab) < len(o.Members)-1 {
		s.d.propSlab = make([]wire.Property, max(len(o.Members)-1, propChunk))
	}
	i := len(s.nodes)
	if s.path == nil {
		s.path = s.groupAt.path(i)
	}
	s.path[len(s.path)-1] = indexStep(i)
	n := s.d.node(s.typ, v, s.path)
	if s.d.err != nil {
		return s.d.err
	}
	s.nodes = append(s.nodes, n)
	return nil
}

// propChunk is how many properties of listed nodes one allocation holds.
const propChunk = 1024

// nodeTable is the sink of a table of one type's nodes.
type nodeTable struct {
	nodeGroup
	groupAt
	fields []string
	names  [tableNames]string // fields' first room
	id     int                // the index of "id" in fields
	props  []wire.Property    // room for the nodes' properties
	room   int                // rows the input can hold
}

// nodeTable returns the sink of a node table whose header holds id, not
// type, and at most MaxElements properties; any other is read generically.
func (t *tables) nodeTable(g groupAt, h toonread.Header) toonread.TableSink {
	s := &nodeTable{groupAt: g, id: -1}
	fields, ok := t.leafFields(s.names[:0], h)
	if !ok || len(fields)-1 > t.lim.MaxElements {
		return nil
	}
	s.fields = fields
	for j, name := range fields {
		switch name {
		case "id":
			s.id = j
		case "type":
			return nil
		}
	}
	if s.id < 0 {
		return nil
	}
	s.room = min(h.Len(), h.Room())
	s.nodes = make([]wire.Node, 0, s.room)
	t.addGroup(&s.nodeGroup)
	return s
}

func (s *nodeTable) Value() jsonvalue.Value { return &s.nodeGroup }

func (s *nodeTable) Row(r *toonread.Row) *wire.DecodeError {
	i := len(s.nodes)
	n := grow(&s.nodes)
	n.Type = s.typ
	if k := len(s.fields) - 1; k > 0 {
		n.Properties = take(&s.props, k, k, s.room-i)[:0]
	}
	for j, name := range s.fields {
		v := r.Next()
		if j != s.id {
			p := grow(&n.Properties)
			p.Key, p.Value = name, scalarValue(v)
			continue
		}
		var msg string
		if n.ID, msg = intCell(v); msg != "" {
			return tableError(r.Line(), append(s.path(i), keyStep("id")), "", msg)
		}
	}
	return nil
}

// edgeTable is the sink of the edges table.
type edgeTable struct {
	which []int // the edgeFields index of each of the header's fields
	names []string
	edges []wire.Edge
	room  struct {
		which [len(edgeFields)]int
		names [len(edgeFields)]string
	} // which and names' room: a header with more fields repeats one
}

// edgeTable returns the sink of an edges table whose header holds the
// required fields and no other; any other is read generically.
func (t *tables) edgeTable(h toonread.Header) toonread.TableSink {
	if h.Fields() > len(edgeFields) {
		return nil // a name repeated, or not an edge's
	}
	s := &edgeTable{}
	names, ok := t.leafFields(s.room.names[:0], h)
	if !ok {
		return nil
	}
	s.names, s.which = names, s.room.which[:len(names)]
	s.edges = make([]wire.Edge, 0, min(h.Len(), h.Room()))
	var seen uint16
	for j, name := range names {
		k := slices.Index(edgeFields[:], name)
		if k < 0 {
			return nil
		}
		s.which[j] = k
		seen |= 1 << k
	}
	if seen&0x1f != 0x1f {
		return nil
	}
	t.edges = s
	return s
}

func (s *edgeTable) Value() jsonvalue.Value { return s }

func (s *edgeTable) Row(r *toonread.Row) *wire.DecodeError {
	i := len(s.edges)
	e := grow(&s.edges)
	for j, k := range s.which {
		v := r.Next()
		fail := func(msg string) *wire.DecodeError {
			return tableError(r.Line(), []pathStep{keyStep("edges"), indexStep(i), keyStep(s.names[j])}, "", msg)
		}
		switch k {
		case 0, 2, 4:
			if v.Kind != toonread.String {
				return fail("expected a string, found " + describeScalar(v))
			}
			*[...]*string{&e.From, &e.To, &e.Type}[k/2] = v.Str
		case 1, 3:
			id, msg := intCell(v)
			if msg != "" {
				return fail(msg)
			}
			*[...]*int64{&e.FromID, &e.ToID}[k/2] = id
		default:
			var o wire.Opt[int64]
			if v.Kind != toonread.Null {
				id, msg := intCell(v)
				if msg != "" {
					return fail(msg)
				}
				o = wire.Some[int64](id)
			}
			*[...]*wire.Opt[int64]{&e.Depth, &e.PathID, &e.Step}[k-5] = o
		}
	}
	return nil
}

// grow appends an element to *s and returns it, to be filled field by
// field (a whole-struct copy into the heap costs a bulk write barrier);
// the sinks' slices are only grown, so their room is still zero.
func grow[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		var zero T
		*s = append(*s, zero)
	} else {
		*s = (*s)[:len(*s)+1]
	}
	return &(*s)[len(*s)-1]
}

// rowField is a field of a rows table's header: a cell, or, when keys is
// not nil, a node cell whose keys are the field group's names.
type rowField struct {
	name    string
	keys    []string
	typ, id int // the indexes in keys of "type" and "id"
}

// rowsTable is the sink of a rows table: each row is metered as it is
// read, and kept in blocks sized by what the meter still allows.
type rowsTable struct {
	m      *wirecodec.Meter
	fields []rowField
	rows   []wire.Row
	keep   int // rows a block holds
	cells  []wire.Cell
	nodes  []wire.Node
	props  []wire.Property
}

func (t *tables) rowsTable(h toonread.Header) toonread.TableSink {
	s := &rowsTable{}
	nodes, props := 0, 0
	for i := 0; i < h.Fields(); {
		name, end := h.Field(i)
		if len(name) > t.lim.MaxStringBytes {
			return nil
		}
		fd := rowField{name: name, typ: -1, id: -1}
		if end > i+1 {
			for j := i + 1; j < end; j++ {
				k, kend := h.Field(j)
				if kend > j+1 || len(k) > t.lim.MaxStringBytes {
					return nil // a group in a node cell, or a name too long
				}
				switch k {
				case "type":
					fd.typ = len(fd.keys)
				case "id":
					fd.id = len(fd.keys)
				}
				fd.keys = append(fd.keys, k)
			}
			if fd.typ < 0 || fd.id < 0 || len(fd.keys)-2 > t.lim.MaxElements {
				return nil
			}
			nodes++
			props += len(fd.keys) - 2
		}
		s.fields = append(s.fields, fd)
		i = end
	}
	if len(s.fields) > t.lim.MaxElements {
		return nil
	}
	s.m = wirecodec.NewMeter(t.lim, len(t.src))
	for _, nt := range t.nodes {
		for i := range nt.nodes {
			s.m.Node(&nt.nodes[i])
		}
	}
	if t.edges != nil {
		for i := range t.edges.edges {
			s.m.Edge(&t.edges.edges[i])
		}
	}
	perRow := int64(unsafe.Sizeof(wire.Row{})) + int64(len(s.fields))*int64(unsafe.Sizeof(wire.Cell{})) +
		int64(nodes)*int64(unsafe.Sizeof(wire.Node{})) + int64(props)*int64(unsafe.Sizeof(wire.Property{}))
	s.keep = int(min(int64(min(h.Len(), h.Room())), s.m.MemoryRoom()/perRow+1))
	s.rows = make([]wire.Row, 0, s.keep)
	return s
}

func (s *rowsTable) Value() jsonvalue.Value { return s }

// take returns room for n more elements, in a new block of keep rows'
// worth when the current one has less.
func take[T any](block *[]T, n, perRow, keep int) []T {
	if cap(*block)-len(*block) < n {
		*block = make([]T, 0, max(n, perRow*keep))
	}
	start := len(*block)
	*block = (*block)[:start+n]
	return (*block)[start : start+n : start+n]
}

func (s *rowsTable) Row(r *toonread.Row) *wire.DecodeError {
	i := len(s.rows)
	row := wire.Row(take(&s.cells, len(s.fields), len(s.fields), s.keep))
	for c, fd := range s.fields {
		if fd.keys == nil {
			row[c] = wire.Cell{Name: fd.name, Value: scalarValue(r.Next())}
			continue
		}
		nd := &take(&s.nodes, 1, 1, s.keep)[0]
		nd.Properties = []wire.Property{}
		if k := len(fd.keys) - 2; k > 0 {
			nd.Properties = take(&s.props, k, k, s.keep)[:0]
		}
		for j, k := range fd.keys {
			v := r.Next()
			fail := func(msg string) *wire.DecodeError {
				return tableError(r.Line(), []pathStep{keyStep("rows"), indexStep(i), keyStep(fd.name), keyStep(k)}, "", msg)
			}
			switch j {
			case fd.typ:
				if v.Kind != toonread.String {
					return fail("expected a string, found " + describeScalar(v))
				}
				nd.Type = v.Str
			case fd.id:
				var msg string
				if nd.ID, msg = intCell(v); msg != "" {
					return fail(msg)
				}
			default:
				p := grow(&nd.Properties)
				p.Key, p.Value = k, scalarValue(v)
			}
		}
		row[c] = wire.Cell{Name: fd.name, Node: nd}
	}
	if !s.m.Row(row) {
		return tableError(r.Line(), []pathStep{keyStep("rows"), indexStep(i)}, s.m.LimitName(), s.m.Msg())
	}
	s.rows = append(s.rows, row)
	return nil
}
