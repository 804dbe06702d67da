package toon

import (
	"io"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// EncodeTo writes the TOON text of r (see Encode) to w under the default
// wire.Limits; see Codec.EncodeTo.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// EncodeTo writes the TOON text of r to w as it produces it, in writes of
// about 32 KiB at line boundaries; the bytes and the refusals are
// AppendEncode's. Nothing is written when encoding fails: the response is
// checked, its document built and its text measured (written to a counter)
// before the first write. Only an error from w can leave partial output.
//
// The document (the generic Value tree of the layout) is built whole
// first, as AppendEncode builds it; it refers to the response's strings
// rather than copying them, but its nodes take memory in proportion to the
// response.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r == nil {
		return &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	if err := c.limits.Check(Name, r); err != nil {
		return err
	}
	var g graphEncoder
	doc, err := g.document(r)
	if err != nil {
		return err
	}
	var n byteCounter
	if err := NewEncoder(&n, EncodeOptions{}).Encode(doc); err != nil {
		return err
	}
	if int64(n) > c.limits.MaxInputBytes {
		return &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the text would take " + strconv.FormatInt(int64(n), 10) + " bytes, more than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	return NewEncoder(w, EncodeOptions{}).Encode(doc)
}

// byteCounter is a writer that only counts.
type byteCounter int64

func (n *byteCounter) Write(p []byte) (int, error) {
	*n += byteCounter(len(p))
	return len(p), nil
}
