package toon

import (
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Encode returns the TOON text of r in the layout of the package
// documentation, under the default wire.Limits: deterministic, LF line
// ends, no trailing newline. Its errors are in the package documentation.
func Encode(r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(nil, r)
}

// AppendEncode appends the TOON text of r (see Encode for the layout) to
// dst, under the default wire.Limits, and returns the extended slice. On
// error it returns dst unchanged.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(dst, r)
}

// AppendEncode appends the TOON text of r to dst under the codec's
// limits (see Encode); on error dst comes back unchanged.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return c.appendEncode(dst, r, false)
}

// appendEncode is AppendEncode, or with fragment the content of a
// document with a header (see Deltas and references).
func (c *Codec) appendEncode(dst []byte, r *wire.GraphResponse, fragment bool) ([]byte, error) {
	if r == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	m, err := wirecodec.Measure(c.core.Limits, Name, delta.Checkable(r))
	if err != nil {
		return dst, err
	}
	s := getStreamer()
	defer putStreamer(s)
	s.fragment = fragment
	if err := s.prepare(r); err != nil {
		return dst, err
	}
	orig, n := dst, len(dst)
	// The text is rarely longer than the response's canonical JSON
	// (m.SizeHint): one allocation, made once, usually holds it. A
	// caller's buffer with room for a quarter of that JSON is written
	// into as it is (TOON's text is usually half its JSON or more), and
	// grows only if the text does not fit.
	if lo, _ := m.JSONBounds(); int64(cap(dst)-n) < lo/4 {
		dst = slices.Grow(dst, m.SizeHint())
	}
	e := newWriter(dst, nil)
	if err := s.write(e, r); err != nil {
		return orig, err
	}
	out := e.Buf
	if err := c.core.CheckOutput(int64(len(out)-n), "text"); err != nil {
		return orig, err
	}
	if err := m.CheckExpansion(int64(len(out) - n)); err != nil {
		return orig, err
	}
	return out, nil
}

// newWriter returns the layout's TOON writer: comma delimiter, two
// spaces per level (the generic library's defaults), appending to dst
// and, when w is not nil, writing out to w every toonwrite.FlushSize
// bytes.
func newWriter(dst []byte, w io.Writer) *toonwrite.Writer {
	return toonwrite.New(dst, w, ',', toonvalue.DefaultIndentSize)
}

// EncodeTo writes the TOON text of r (see Encode) to w under the default
// wire.Limits; see Codec.EncodeTo.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// EncodeTo writes AppendEncode's bytes to w, in writes of about 32 KiB
// at line boundaries. Nothing is written when encoding fails: the text is
// produced once into a counter (measured against MaxInputBytes) before it
// is produced again into w; only an error from w leaves partial output.
// Memory beyond the 32 KiB buffer is a rows section of a rare shape, one
// index run per stretch of a type's nodes that others interrupt, and
// node_order's group numbers.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r == nil {
		return &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	m, err := wirecodec.Measure(c.core.Limits, Name, r)
	if err != nil {
		return err
	}
	s := getStreamer()
	defer putStreamer(s)
	if err := s.prepare(r); err != nil {
		return err
	}
	var n byteCounter
	if s.buf == nil {
		s.buf = make([]byte, 0, toonwrite.FlushSize+4096)
	}
	if err := s.write(newWriter(s.buf[:0], &n), r); err != nil {
		return err
	}
	if err := c.core.CheckOutput(int64(n), "text"); err != nil {
		return err
	}
	if err := m.CheckExpansion(int64(n)); err != nil {
		return err
	}
	return s.write(newWriter(s.buf[:0], w), r)
}

// byteCounter is a writer that only counts.
type byteCounter int64

func (n *byteCounter) Write(p []byte) (int, error) {
	*n += byteCounter(len(p))
	return len(p), nil
}

// streamer is the codec's one writer, behind AppendEncode and EncodeTo:
// it writes the layout section by section through a toonwrite.Writer.
// Its scratch space is kept from one pass to the next.
type streamer struct {
	buf    []byte
	groups []nodeRuns
	split  bool
	fields []toonwrite.Field
	types  []nodeRuns  // group's scratch: the nodes of each type
	order  []int       // nodeOrder's scratch: each node's group
	memo   []plainMemo // a table's columns (memos)
	// The rows table's header (tableRows): a field a cell, and the
	// fields of its node cells' groups.
	rowFields, nodeFields []toonwrite.Field
	// fragment is set for the content of a document with a header: an
	// empty format_version, query_type, nodes or edges is left out.
	fragment bool
}

// streamers keeps streamers' scratch space from one encode to the next, so
// that an encode allocates its output and nothing else in the common case.
var streamers = sync.Pool{New: func() any { return new(streamer) }}

// maxPooledBuf is the largest EncodeTo buffer a pooled streamer keeps.
const maxPooledBuf = 2 * (toonwrite.FlushSize + 4096)

// maxPooledOrder is the most node_order entries a pooled streamer keeps.
const maxPooledOrder = 1 << 16

func getStreamer() *streamer { return streamers.Get().(*streamer) }

// putStreamer returns s to the pool, dropping what refers to the response
// just written (group names) and scratch grown unusually large.
func putStreamer(s *streamer) {
	if cap(s.buf) > maxPooledBuf {
		s.buf = nil
	}
	for i := range s.groups {
		s.groups[i].typ = ""
	}
	for i := range s.types {
		s.types[i].typ = ""
	}
	if cap(s.memo) > 1024 {
		s.memo = nil
	}
	clear(s.memo[:cap(s.memo)])
	for i := range s.fields {
		s.fields[i] = toonwrite.Field{}
	}
	if cap(s.groups) > 1024 || cap(s.types) > 1024 {
		s.groups, s.types = nil, nil
	}
	if cap(s.order) > maxPooledOrder {
		s.order = nil
	}
	s.fragment = false
	streamers.Put(s)
}

// prepare refuses a bad query type or pagination, and groups the nodes
// (refusing property keys the layout cannot carry), before anything is
// written.
func (s *streamer) prepare(r *wire.GraphResponse) error {
	if !r.QueryType.Valid() && !(s.fragment && r.QueryType == "") {
		return &wire.EncodeError{Codec: Name, Path: "query_type", Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return &wire.EncodeError{Codec: Name, Path: "pagination", Msg: err.Error()}
		}
	}
	return s.group(r.Nodes)
}

// write produces the text of r (prepared) into e. A refusal of the layout
// (a bad property value, group kind or cell) wins over an error of the
// generic writer met earlier in the text.
func (s *streamer) write(e *toonwrite.Writer, r *wire.GraphResponse) error {
	f := s.fragment
	if !f || r.FormatVersion != "" {
		e.StringField("format_version", r.FormatVersion, 0)
	}
	if !f || r.QueryType != "" {
		e.StringField("query_type", string(r.QueryType), 0)
	}
	// A fragment writes its nodes when it has some, or neither edges nor
	// rows, so that an empty content is told from none.
	if !f || len(r.Nodes) > 0 || len(r.Edges) == 0 && r.Rows == nil {
		if err := s.nodes(e, r.Nodes); err != nil {
			return err
		}
		s.nodeOrder(e, len(r.Nodes))
	}
	if !f || len(r.Edges) > 0 {
		s.edges(e, r.Edges)
	}
	if r.Columns != nil {
		s.columns(e, r.Columns)
	}
	if r.GroupColumns != nil {
		if err := s.groupColumns(e, r.GroupColumns); err != nil {
			return err
		}
	}
	if r.Rows != nil && !s.tableRows(e, r.Rows) && !s.listRows(e, r.Rows) {
		var g graphEncoder
		rows, err := g.rows(r.Rows)
		if err != nil {
			return err
		}
		e.Field("rows", rows, 0)
	}
	if p := r.Pagination; p != nil {
		s.pagination(e, p)
	}
	e.Flush()
	return e.Err()
}
