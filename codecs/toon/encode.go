package toon

import (
	"io"
	"slices"
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
	s, m, err := c.begin(r, fragment)
	if err != nil {
		return dst, err
	}
	defer putStreamer(s)
	orig, n := dst, len(dst)
	// The text is rarely longer than the canonical JSON (m.SizeHint); a
	// buffer with room for a quarter of it is written into as it is.
	if lo, _ := m.JSONBounds(); int64(cap(dst)-n) < lo/4 {
		dst = slices.Grow(dst, m.SizeHint())
	}
	e := newWriter(dst, nil)
	if err := s.write(e, r); err != nil {
		return orig, err
	}
	if err := c.checkText(m, len(e.Buf)-n); err != nil {
		return orig, err
	}
	return e.Buf, nil
}

// begin measures r (a fragment: the content of a document) and returns a
// streamer prepared for it, to be put back.
func (c *Codec) begin(r *wire.GraphResponse, fragment bool) (*streamer, wirecodec.Measurement, error) {
	if r == nil {
		return nil, wirecodec.Measurement{}, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	m, err := wirecodec.Measure(c.core.Limits, Name, delta.Checkable(r, fragment))
	if err != nil {
		return nil, m, err
	}
	s := streamers.Get().(*streamer)
	s.fragment = fragment
	if err := s.group(r.Nodes); err != nil {
		putStreamer(s)
		return nil, m, err
	}
	return s, m, nil
}

// checkText refuses n bytes of text past MaxInputBytes or m's expansion.
func (c *Codec) checkText(m wirecodec.Measurement, n int) error {
	if err := c.core.CheckOutput(int64(n), "text"); err != nil {
		return err
	}
	return m.CheckExpansion(int64(n))
}

// newWriter returns the layout's writer (comma, two spaces a level).
func newWriter(dst []byte, w io.Writer) *toonwrite.Writer {
	return toonwrite.New(dst, w, ',', toonvalue.DefaultIndentSize)
}

// EncodeTo writes the TOON text of r (see Encode) to w under the default
// wire.Limits; see Codec.EncodeTo.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// EncodeTo writes AppendEncode's bytes to w, in writes of about 32 KiB.
// The text is produced into a counter before w, so that nothing is
// written when encoding fails; only an error from w leaves partial output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	s, m, err := c.begin(r, false)
	if err != nil {
		return err
	}
	defer putStreamer(s)
	var n byteCounter
	if s.buf == nil {
		s.buf = make([]byte, 0, toonwrite.FlushSize+4096)
	}
	if err := s.write(newWriter(s.buf[:0], &n), r); err != nil {
		return err
	}
	if err := c.checkText(m, int(n)); err != nil {
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

// streamer writes the layout section by section, for AppendEncode and
// EncodeTo, keeping its scratch space from one encode to the next.
type streamer struct {
	buf                   []byte
	groups                []nodeRuns
	split                 bool
	fields                []toonwrite.Field
	types                 []nodeRuns        // group's scratch: the nodes of each type
	order                 []int             // nodeOrder's scratch: each node's group
	memo                  []plainMemo       // a table's columns (memos)
	rowFields, nodeFields []toonwrite.Field // tableRows' header
	fragment              bool              // see appendEncode
}

// streamers keeps streamers, so that an encode allocates its output alone.
var streamers = sync.Pool{New: func() any { return new(streamer) }}

// A pooled streamer keeps an EncodeTo buffer of at most maxPooledBuf bytes
// and at most maxPooledOrder node_order entries.
const (
	maxPooledBuf   = 2 * (toonwrite.FlushSize + 4096)
	maxPooledOrder = 1 << 16
)

// putStreamer returns s to the pool, dropping the response's names and
// scratch grown unusually large.
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
	clear(s.fields)
	if cap(s.groups) > 1024 || cap(s.types) > 1024 {
		s.groups, s.types = nil, nil
	}
	if cap(s.order) > maxPooledOrder {
		s.order = nil
	}
	s.fragment = false
	streamers.Put(s)
}

// write produces the text of r (prepared) into e.
func (s *streamer) write(e *toonwrite.Writer, r *wire.GraphResponse) error {
	f := s.fragment
	if !f || r.FormatVersion != "" {
		e.StringField("format_version", r.FormatVersion, 0)
	}
	if !f || r.QueryType != "" {
		e.StringField("query_type", string(r.QueryType), 0)
	}
	// A fragment writes its nodes when it has some or nothing else.
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
		rows, err := rowsValue(r.Rows)
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
