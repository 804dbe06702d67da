package gcfvalue

import (
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// Sinks let a reader that knows a document's layout take the rows of
// chosen tables itself, as they are read, instead of their generic value
// (see DecodeSinks). Everything else about a table is checked as for any
// table.
//
// Table is called at the header of each table (a tabular array with a
// field declaration, not a keyed table); path holds the keys of the
// objects enclosing it, "" for an item of an expanded array and ".name"
// for a row's attachment, then the table's own key. It returns the
// table's sink, or nil for its generic value. A table in a sink's row's
// attachment is read as a generic value, without asking.
//
// Scalar is called for each key=value member of an object outside a
// sink's table, path holding the keys of the objects enclosing it. It
// returns what the object holds for the member and true when it takes
// the value, or false for its generic value.
type Sinks interface {
	Table(path []string, h *TableHeader) TableSink
	Scalar(path []string, key string, sc *Scalar) (Value, bool)
}

// TableHeader is the header of a table whose sink is being chosen.
type TableHeader struct {
	d      *decoder
	l      line
	fields []field
	// Rows is the declared number of rows bounded by what the rest of
	// the input can hold (a byte a cell): what a sink may make room for.
	Rows   int
	Room   int  // the bytes of input after the header
	Angled bool // a declared column's name holds a '>' (a path column's, or one like it)
}

// Charge counts n bytes of what the caller builds against the decoder's
// memory bound (see Options), ending the decode past it.
func (h *TableHeader) Charge(n int64) { h.d.charge(&h.l, n) }

// Columns is the number of the table's declared columns.
func (h *TableHeader) Columns() int { return len(h.fields) }

// Column is the name of declared column i, valid while the table is read.
func (h *TableHeader) Column(i int) string { return h.fields[i].name }

// A TableSink takes the rows of one table.
type TableSink interface {
	// Row reads one row; an error ends the decode with it.
	Row(r *Row) *wire.DecodeError
	// Value is what the document holds where the table is, once its rows
	// are read.
	Value() Value
}

// ScalarList is an inline array of scalars ("labels [2]: a,b") in a sink's
// row's attachments: its items, valid while the row is read.
type ScalarList struct{ Items []Scalar }

// scalarList decodes the items of l from index i into the row's scratch.
func (d *decoder) scalarList(l *line, i int) *ScalarList {
	start := len(d.listItems)
	if i < len(l.Text) {
		d.listItems, _ = d.scalars(l, i, ',', false, d.listItems, d.lim.maxFields, nil)
	}
	if len(d.lists) == cap(d.lists) {
		d.lists = make([]ScalarList, 0, max(8, 2*cap(d.lists))) // the row's earlier lists stay where they are
	}
	d.lists = append(d.lists, ScalarList{Items: d.listItems[start:len(d.listItems):len(d.listItems)]})
	return &d.lists[len(d.lists)-1]
}

// rowObject is the scratch object of a sink's row's attachments.
func (d *decoder) rowObject() *jsonvalue.Object {
	clear(d.rowObj.Members)
	d.rowObj.Members = d.rowObj.Members[:0]
	return &d.rowObj
}

// Row is one row of a table being read.
type Row struct {
	d   *decoder
	num int // the row's line number
	// Cells holds the row's cells in the header's order; a Marker
	// cell's value is its attachment's.
	Cells []Scalar
	// Attached holds the row's attachments (nil when none): its markers'
	// in column order, then those of names with '>', as written. It is
	// valid while the row is read.
	Attached *jsonvalue.Object
}

// Line is the row's line number in the document.
func (r *Row) Line() int { return r.num }

// Charge is TableHeader.Charge.
func (r *Row) Charge(n int64) { r.d.charge(&line{Num: r.num}, n) }

// DecodeSinks decodes a generic-profile GCF document as Decode does, the
// tables s chooses read by its sinks (see Sinks), whose Value stands where
// their tables are.
func DecodeSinks(data []byte, opts Options, s Sinks) (Value, error) {
	var doc Document
	if err := decodeDocument(data, opts, s, &doc); err != nil {
		return nil, err
	}
	return doc.Value, nil
}

// memberScalar is the value of member k, at index i of l's content.
func (d *decoder) memberScalar(l *line, k string, i int) Value {
	if d.sinks == nil || d.inSink {
		return d.scalar(l, i)
	}
	sc := &d.memberSc
	d.scalarAt(l, i, len(l.Text), false, sc)
	if v, ok := d.sinks.Scalar(d.path, k, sc); ok {
		return v
	}
	return d.box(l, sc)
}

// push and pop keep, for the Sinks, the keys of the values being read.
func (d *decoder) push(key string) {
	if d.sinks != nil && !d.inSink {
		d.path = append(d.path, key)
	}
}

func (d *decoder) pop() {
	if d.sinks != nil && !d.inSink {
		d.path = d.path[:len(d.path)-1]
	}
}

// sink returns the sink of the table h at l, or nil.
func (d *decoder) sink(l *line, h *arrHeader) TableSink {
	if d.sinks == nil || h.keyed || d.inSink {
		return nil
	}
	th := &d.sinkHeader
	*th = TableHeader{d: d, l: *l, fields: h.fields, Rows: h.count, Room: len(d.src) - l.TextStart() - len(l.Text)}
	if room := th.Room / max(len(h.fields), 1); h.deferred || th.Rows > room {
		th.Rows = room
	}
	for i := range h.fields {
		th.Angled = th.Angled || h.fields[i].gt
	}
	return d.sinks.Table(d.path, th)
}

// memScalar is the estimated memory of a Scalar.
const memScalar = int64(unsafe.Sizeof(Scalar{}))

// sinkRow reads the row l (d.last), the idx-th of its table, and its
// attachments into r.
func (d *decoder) sinkRow(l *line, r *Row, idx int, t *tableState, depth int) {
	r.num = l.Num
	clear(d.listItems)
	d.lists, d.listItems = d.lists[:0], d.listItems[:0]
	var b objBuilder
	r.Cells = d.rowMembers(l, idx, t, r.Cells[:0], &b, false)
	if b.o == nil {
		// Without markers, an attachment can still follow: one for a name
		// with '>' (spec §7.4.6.1), on a line starting with '.'.
		next := d.peek()
		if next == nil || next.Depth < depth || next.Depth == depth && next.Text[0] != '.' {
			r.Attached = nil
			return
		}
		b = objBuilder{o: d.rowObject(), line: l.Num}
	}
	rl := *l // d.last, which the attachments' lines replace
	d.attachments(&rl, t, &b, depth)
	r.Attached = d.finish(&b)
}
