package gcf

import (
	"slices"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
)

// The memory a sink charges gcfvalue's budget with for what it builds.
const (
	sizeNode = int64(unsafe.Sizeof(wire.Node{}))
	sizeProp = int64(unsafe.Sizeof(wire.Property{}))
	sizeEdge = int64(unsafe.Sizeof(wire.Edge{}))
	sizeCell = int64(unsafe.Sizeof(wire.Cell{}))
	sizeRow  = int64(unsafe.Sizeof(wire.Row{}))
	maxSlab  = 4096 // the most elements of one kind a scratch holds
)

// nodeSink reads a node table: its type and id columns anywhere, every
// other column a property (a path column leaves it generic).
func (d *reader) nodeSink(h *gcfvalue.TableHeader) gcfvalue.TableSink {
	t := &d.nodes
	t.typeCol, t.idCol = -1, -1
	if h.Angled {
		return nil
	}
	for i := range h.Columns() {
		switch h.Column(i) {
		case "type":
			t.typeCol = i
		case "id":
			t.idCol = i
		}
	}
	if t.typeCol < 0 || t.idCol < 0 {
		return nil
	}
	return (*nodeSink)(d)
}

type nodeSink reader

func (s *nodeSink) Value() Value { return s.nodes.value() }

// Row reads a node: its present cells in column order, then the row's
// attachments of names with '>'.
func (s *nodeSink) Row(row *gcfvalue.Row) *wire.DecodeError {
	d, t := (*reader)(s), &s.nodes
	idx := t.next(row, 2*sizeNode+sizeProp*int64(len(row.Cells)))
	if len(d.nodeBuf) == maxSlab || len(d.nodeProps)+props(row) > maxSlab {
		d.flushNodes()
	}
	var n wire.Node
	start := len(d.nodeProps)
	seen, marks := 0, 0
	for i := range row.Cells {
		sc := &row.Cells[i]
		switch {
		case sc.Kind == gcfvalue.Absent:
			continue
		case i == t.typeCol || i == t.idCol:
			name := t.h.Column(i)
			if msg := typeID(&n, &seen, name, sc); msg != "" {
				return rowError(row.Line(), elementPath("nodes", idx)+"."+name, msg)
			}
			continue
		}
		v := scalar(sc)
		if sc.Kind == gcfvalue.Marker { // the row's marks-th attachment's
			var err *wire.DecodeError
			if v, _, err = d.attached(row, marks, "nodes", idx, false); err != nil {
				return err
			}
			marks++
		}
		d.nodeProps = append(d.nodeProps, wire.Property{Key: t.h.Column(i), Value: v})
	}
	for m := marks; row.Attached != nil && m < len(row.Attached.Members); m++ {
		v, _, err := d.attached(row, m, "nodes", idx, false)
		if err != nil {
			return err
		}
		d.nodeProps = append(d.nodeProps, wire.Property{Key: row.Attached.Members[m].Key, Value: v})
	}
	if msg := endNode(&n, seen, d.nodeProps, start); msg != "" {
		return rowError(row.Line(), elementPath("nodes", idx), msg)
	}
	d.nodeBuf = append(d.nodeBuf, n)
	return nil
}

// props is the most properties or cells the row r gives: one a cell and
// one an attachment.
func props(r *gcfvalue.Row) int {
	n := len(r.Cells)
	if r.Attached != nil {
		n += len(r.Attached.Members)
	}
	return n
}

// endNode ends the node n whose properties are props[start:]: what is
// wrong, when it lacks its type or id (seen, see typeID).
func endNode(n *wire.Node, seen int, props []wire.Property, start int) string {
	if seen != 3 {
		return "a node needs its type and id"
	}
	if len(props) > start {
		n.Properties = props[start:len(props):len(props)]
	}
	return ""
}

// nodeSection reads the nodes section: read by the sink, or generic.
func (d *reader) nodeSection(v Value) {
	if sunk(v) {
		d.flushNodes()
		return
	}
	d.r.Nodes = nil
	nodes := d.ungroup(v, "nodes")
	for i, n := range nodes {
		d.r.Nodes = append(d.r.Nodes, d.node(n, elementPath("nodes", i)))
		nodes[i] = nil // read: the collector may take it
	}
}

// node reads a node object: type, id, then properties.
func (d *reader) node(v Value, path string) wire.Node {
	o := d.object(v, path)
	var n wire.Node
	if len(o.Members) > 2 {
		n.Properties = make([]wire.Property, 0, len(o.Members)-2)
	}
	seen := 0
	for _, m := range o.Members {
		if m.Key != "type" && m.Key != "id" {
			n.Properties = append(n.Properties, wire.Prop(m.Key, d.value(m.Value, func() string { return path + "." + m.Key })))
		} else if msg := typeID(&n, &seen, m.Key, scalarOf(m.Value)); msg != "" {
			d.fail(path+"."+m.Key, msg)
		}
	}
	if seen != 3 {
		d.fail(path, "a node needs its type and id")
	}
	return n
}

// typeID sets n's type or id, the field name, from sc, marking it in
// seen, and returns what is wrong with it ("" when nothing).
func typeID(n *wire.Node, seen *int, name string, sc *gcfvalue.Scalar) string {
	if name == "type" {
		n.Type, *seen = sc.Str, *seen|1
		if sc.Kind != gcfvalue.String {
			return "expected a string"
		}
		return ""
	}
	n.ID, _ = sc.Num.Int64()
	*seen |= 2
	if sc.Kind != gcfvalue.Number || !sc.Num.IsInt() {
		return "expected an integer"
	}
	return ""
}

// cellValue is the value of a row's cell sc: its own, or for a marker
// (the row's marks-th) its attachment's, a node when node and it is one.
func (d *reader) cellValue(row *gcfvalue.Row, sc *gcfvalue.Scalar, marks *int, section string, idx int, node bool) (wire.Value, *wire.Node, *wire.DecodeError) {
	if sc.Kind != gcfvalue.Marker {
		return scalar(sc), nil, nil
	}
	*marks++
	return d.attached(row, *marks-1, section, idx, node)
}

// value reads a property or cell value: a scalar or a list at path.
func (d *reader) value(v Value, path func() string) wire.Value {
	if w, ok := scalarValue(v); ok {
		return w
	}
	if x, ok := v.([]Value); ok {
		return d.list(x, path)
	}
	if x, ok := v.(*gcfvalue.ScalarList); ok {
		items := make([]wire.Value, len(x.Items))
		for i := range x.Items {
			items[i] = scalar(&x.Items[i])
		}
		return wire.ListOf(items...)
	}
	d.fail(path(), "expected a value (an object is only a node cell of a row)")
	return wire.Null()
}

// list reads the list x at path.
func (d *reader) list(x []Value, path func() string) wire.Value {
	items := make([]wire.Value, len(x))
	for i, e := range x {
		if w, ok := scalarValue(e); ok {
			items[i] = w
			continue
		}
		p := path() // a list in a list, or an error
		items[i] = d.value(e, func() string { return elementPath(p, i) })
	}
	return wire.ListOf(items...)
}

// scalarValue is v as a wire.Value when it is a scalar.
func scalarValue(v Value) (wire.Value, bool) {
	sc := scalarOf(v)
	return scalar(sc), sc.Kind != notScalar
}

// flushNodes moves the nodes of the reader's scratch to the response,
// their properties copied out at their exact length, and empties it.
func (d *reader) flushNodes() {
	exactProps(d.nodeBuf, d.nodeProps)
	d.r.Nodes = append(d.r.Nodes, d.nodeBuf...)
	d.nodeBuf, d.nodeProps = emptied(d.nodeBuf), emptied(d.nodeProps)
}

// exactProps copies props, the properties of nodes in order, out at their
// exact length, and points each node's at its part of the copy.
func exactProps(nodes []wire.Node, props []wire.Property) {
	props = slices.Clone(props)
	for i := range nodes {
		if n := len(nodes[i].Properties); n > 0 {
			nodes[i].Properties, props = props[:n:n], props[n:]
		}
	}
}
