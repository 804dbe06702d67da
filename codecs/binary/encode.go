package binary

import (
	"io"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// layoutVersion leads every encoding; Decode reads layoutV1 too.
const (
	layoutVersion = 2
	layoutV1      = 1
)

// AppendEncode appends the encoding of r to dst. On error it returns dst as
// given and a *wire.EncodeError naming the place: a response the layout
// cannot carry, or one Decode under the codec's Limits would refuse.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return c.appendEncode(dst, r, r)
}

// appendEncode is AppendEncode with r checked as checked (a document's
// content as delta.Checkable gives it).
func (c *Codec) appendEncode(dst []byte, r, checked *wire.GraphResponse) ([]byte, error) {
	size, err := c.check(checked)
	if err != nil {
		return dst, err
	}
	out, err := c.write(dst, r, true, c.core.Limits.MaxInputBytes, nil)
	if err != nil {
		return dst, err
	}
	if err := c.checkOut(size, int64(len(out)-len(dst))); err != nil {
		return dst, err
	}
	return out, nil
}

// streamChunk is how many bytes EncodeTo gathers before it writes them.
const streamChunk = 32 << 10

// EncodeTo writes AppendEncode's bytes to w in writes of about 32 KiB,
// never holding them whole; a first pass checks them, so only an error
// from w can leave partial output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	size, err := c.check(r)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, streamChunk+streamChunk/4)
	var n byteCounter
	if _, err := c.write(buf, r, true, c.core.Limits.MaxInputBytes, &n); err != nil {
		return err
	}
	if err := c.checkOut(size, int64(n)); err != nil {
		return err
	}
	_, err = c.write(buf, r, true, 0, w)
	return err
}

// check refuses a nil response and one over the codec's Limits.
func (c *Codec) check(r *wire.GraphResponse) (wirecodec.Measurement, error) {
	if r == nil {
		return wirecodec.Measurement{}, &wire.EncodeError{Codec: c.format.String(), Msg: "nil response"}
	}
	return wirecodec.Measure(c.core.Limits, c.format.String(), r)
}

// checkOut refuses an encoding of n bytes that Decode would refuse.
func (c *Codec) checkOut(size wirecodec.Measurement, n int64) error {
	if err := c.core.CheckOutput(n, "encoding"); err != nil {
		return err
	}
	return size.CheckExpansion(n)
}

// byteCounter is a writer that only counts, for EncodeTo's first pass.
type byteCounter int64

func (n *byteCounter) Write(p []byte) (int, error) {
	*n += byteCounter(len(p))
	return len(p), nil
}

// encState is what an encoding borrows: a sink of each format, the string
// table and the scratch buffer, kept from one response to the next.
type encState struct {
	mp      mpSink
	cb      cborSink
	names   map[string]int64
	scratch []byte
}

// The encoders' states: one in lastEnc, which the garbage collector never
// empties (an encode then allocates its output only), the rest in encPool.
var (
	lastEnc atomic.Pointer[encState]
	encPool = sync.Pool{New: func() any {
		return &encState{names: make(map[string]int64, 64)}
	}}
)

// getEncState lends a state; putEncState takes it back, emptied.
func getEncState() *encState {
	if st := lastEnc.Swap(nil); st != nil {
		return st
	}
	return encPool.Get().(*encState)
}

func putEncState(st *encState) {
	st.mp.b, st.cb.b = nil, nil
	clear(st.names)
	if !lastEnc.CompareAndSwap(nil, st) {
		encPool.Put(st)
	}
}

// write walks r in c's format, appending to dst, or with w writing to w in
// chunks (and returning dst emptied). With table false every name is
// written in full. maxOut, when positive, stops the walk once the
// encoding is surely longer (encoder.maxOut).
func (c *Codec) write(dst []byte, r *wire.GraphResponse, table bool, maxOut int64, w io.Writer) ([]byte, error) {
	st := getEncState()
	defer putEncState(st)
	// Without a writer the bytes gather in the scratch buffer and are
	// appended to dst once.
	buf := dst
	if w == nil {
		buf = st.scratch[:0]
	}
	var s sink
	var out *[]byte
	if c.format == CBOR {
		st.cb.b = buf
		s, out = &st.cb, &st.cb.b
	} else {
		st.mp.b = buf
		s, out = &st.mp, &st.mp.b
	}
	e := encoder{sink: s, codec: c.format.String(), maxOut: maxOut}
	if table {
		e.names = st.names
	}
	var sp *spiller
	if w != nil {
		sp = &spiller{w: w, out: out}
		e.spill = sp.chunk
	}
	e.response(r)
	e.within("the end", -1)
	if e.err != nil {
		return dst, e.err
	}
	if sp != nil {
		if !sp.flush() {
			return dst, sp.err
		}
		return *out, nil
	}
	if cap(*out) <= maxScratch {
		st.scratch = (*out)[:0]
	}
	return append(dst, *out...), nil
}

// maxScratch is the largest scratch buffer the encoders' pool keeps.
const maxScratch = 8 << 20

// spiller hands the bytes an encoding gathers in *out to w, for EncodeTo.
type spiller struct {
	w   io.Writer
	out *[]byte
	err error
}

// chunk writes the bytes once they reach streamChunk; false once w failed.
func (s *spiller) chunk() bool {
	if len(*s.out) < streamChunk {
		return s.err == nil
	}
	return s.flush()
}

// flush writes the bytes gathered; false once w has failed.
func (s *spiller) flush() bool {
	if s.err == nil && len(*s.out) > 0 {
		_, s.err = s.w.Write(*s.out)
		*s.out = (*s.out)[:0]
	}
	return s.err == nil
}

const notUTF8 = "not valid UTF-8"

func (e *encoder) response(r *wire.GraphResponse) {
	// r has passed wirecodec.Measure: its query type, group kinds and
	// pagination are valid, its property keys neither reserved nor
	// repeated.
	n := 5
	switch {
	case r.Pagination != nil:
		n = 9
	case r.Rows != nil:
		n = 8
	case r.GroupColumns != nil:
		n = 7
	case r.Columns != nil:
		n = 6
	}
	e.sink.array(n)
	e.sink.integer(layoutVersion)
	if !e.text(r.FormatVersion) {
		e.fail(wirecodec.Path{}.Field("format_version"), notUTF8)
		return
	}
	e.name(string(r.QueryType))

	e.sink.array(len(r.Nodes))
	for i := range r.Nodes {
		if !e.node(&r.Nodes[i], nil, "nodes", i, -1) || !e.next("nodes", i) {
			return
		}
	}
	e.sink.array(len(r.Edges))
	for i := range r.Edges {
		if !e.edge(&r.Edges[i], "edges", i) || !e.next("edges", i) {
			return
		}
	}
	if n == 5 {
		return
	}
	if !optList(e, r.Columns, e.column) || n == 6 {
		return
	}
	if !optList(e, r.GroupColumns, e.groupColumn) || n == 7 {
		return
	}
	if r.Rows == nil {
		e.sink.null()
	} else {
		e.sink.array(len(r.Rows))
		for i, row := range r.Rows {
			e.sink.array(len(row))
			for j := range row {
				if !e.cell(&row[j], "rows", i, j) {
					return
				}
			}
			if !e.next("rows", i) {
				return
			}
		}
	}
	if n == 8 {
		return
	}
	e.pagination(r.Pagination)
}

// optList writes nil items as null, others as an array; false at the
// first item that fails.
func optList[T any](e *encoder, items []T, item func(*T, int) bool) bool {
	if items == nil {
		e.sink.null()
		return true
	}
	e.sink.array(len(items))
	for i := range items {
		if !item(&items[i], i) {
			return false
		}
	}
	return true
}

// width is the length of a record of required fields then optional ones
// (present in order): it ends at the last one present.
func width(required int, present ...bool) int {
	n := required
	for i, p := range present {
		if p {
			n = required + i + 1
		}
	}
	return n
}

// pagination writes [has_more, total_rows?, truncated?, next_cursor?]
// (p has passed Check).
func (e *encoder) pagination(p *wire.Pagination) {
	n := width(2, p.Truncated.Valid, p.NextCursor.Valid)
	e.sink.array(n)
	e.sink.boolean(p.HasMore)
	e.optInt(p.TotalRows)
	if n > 2 {
		e.sink.boolean(p.Truncated.V)
	}
	if n > 3 && !e.text(p.NextCursor.V) {
		e.fail(wirecodec.Path{}.Field("pagination").Field("next_cursor"), notUTF8)
	}
}

// node writes [type, id, key, value, ...], preceded by the cell's name for
// a row cell (cellName not nil). Its place is list[i] (j < 0) or the j-th
// cell of list[i].
func (e *encoder) node(nd *wire.Node, cellName *string, list string, i, j int) bool {
	at := func() wirecodec.Path {
		p := wirecodec.Path{}.Field(list).Index(i)
		if j >= 0 {
			p = p.Key(j, *cellName)
		}
		return p
	}
	extra := 2
	if cellName != nil {
		extra = 3
	}
	e.sink.array(extra + 2*len(nd.Properties))
	if cellName != nil && !e.name(*cellName) {
		e.fail(at(), "cell name "+notUTF8)
		return false
	}
	if !e.name(nd.Type) {
		e.fail(at().Field("type"), notUTF8)
		return false
	}
	e.sink.integer(nd.ID)
	for k := range nd.Properties {
		p := &nd.Properties[k]
		if !e.name(p.Key) {
			e.fail(at().Property(k, p.Key), "property key "+notUTF8)
			return false
		}
		if !e.value(p.Value) {
			bad, _ := badText(at().Property(k, p.Key), p.Value)
			e.fail(bad, notUTF8)
			return false
		}
	}
	return true
}

// badText returns the path of the first string of v (at p) that is not
// valid UTF-8 (p itself, or the list element that holds it), and whether
// there is one.
func badText(p wirecodec.Path, v wire.Value) (wirecodec.Path, bool) {
	switch v.Kind() {
	case wire.KindString:
		return p, !utf8.ValidString(v.Text())
	case wire.KindList:
		for i, x := range v.List() {
			if q, ok := badText(p.Index(i), x); ok {
				return q, true
			}
		}
	}
	return p, false
}

// edge writes [from, from_id, to, to_id, type, depth?, path_id?, step?].
func (e *encoder) edge(ed *wire.Edge, list string, i int) bool {
	n := width(5, ed.Depth.Valid, ed.PathID.Valid, ed.Step.Valid)
	e.sink.array(n)
	if !e.name(ed.From) {
		return e.failField(list, i, "from")
	}
	e.sink.integer(ed.FromID)
	if !e.name(ed.To) {
		return e.failField(list, i, "to")
	}
	e.sink.integer(ed.ToID)
	if !e.name(ed.Type) {
		return e.failField(list, i, "type")
	}
	if n > 5 {
		e.optInt(ed.Depth)
	}
	if n > 6 {
		e.optInt(ed.PathID)
	}
	if n > 7 {
		e.optInt(ed.Step)
	}
	return true
}

// failField records that the field of list[i] is not UTF-8.
func (e *encoder) failField(list string, i int, field string) bool {
	e.fail(wirecodec.Path{}.Field(list).Index(i).Field(field), notUTF8)
	return false
}

func (e *encoder) column(c *wire.Column, i int) bool {
	return e.record("columns", i, []string{"name", "function", "target", "property"}, []string{c.Name, c.Function}, c.Target, c.Property)
}

func (e *encoder) groupColumn(g *wire.GroupColumn, i int) bool {
	return e.record("group_columns", i, []string{"name", "kind", "node", "property", "entity"}, []string{g.Name, string(g.Kind), g.Node}, g.Property, g.Entity)
}

// record writes list[i], a record of the names req, then the two optional
// ones opt; false at one that is not UTF-8, named by fields.
func (e *encoder) record(list string, i int, fields, req []string, opt ...wire.Opt[string]) bool {
	n := width(len(req), opt[0].Valid, opt[1].Valid)
	e.sink.array(n)
	for j := 0; j < n; j++ {
		if j < len(req) && !e.name(req[j]) || j >= len(req) && !e.optName(opt[j-len(req)]) {
			return e.failField(list, i, fields[j])
		}
	}
	return true
}

// cell writes [name, value], or [name, type, id, key, value, ...] for a node
// reference; it is the j-th cell of list[i].
func (e *encoder) cell(c *wire.Cell, list string, i, j int) bool {
	at := func() wirecodec.Path { return wirecodec.Path{}.Field(list).Index(i).Key(j, c.Name) }
	if c.Node != nil {
		if c.Value.Kind() != wire.KindNull {
			e.fail(at(), "cell holds both a node and a value")
			return false
		}
		return e.node(c.Node, &c.Name, list, i, j)
	}
	e.sink.array(2)
	if !e.name(c.Name) {
		e.fail(at(), "cell name "+notUTF8)
		return false
	}
	if !e.value(c.Value) {
		bad, _ := badText(at(), c.Value)
		e.fail(bad, notUTF8)
		return false
	}
	return true
}
