package toon

import (
	"io"

	"github.com/graphwire/graphwire/wire"
)

// EncodeTo writes the TOON text of r (see Encode) to w as it produces it,
// in writes of about 32 KiB at line boundaries; the bytes are
// AppendEncode's. Nothing is written when encoding fails: the response is
// checked, and its document built, before the first write. Only an error
// from w can leave partial output.
//
// The document (the generic Value tree of the layout) is built whole
// first, as AppendEncode builds it; it refers to the response's strings
// rather than copying them.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r == nil {
		return &EncodeError{Msg: "nil response"}
	}
	var g graphEncoder
	doc, err := g.document(r)
	if err != nil {
		return err
	}
	return NewEncoder(w, EncodeOptions{}).Encode(doc)
}

// EncodeTo writes the TOON text of r to w as it produces it; see the
// package-level EncodeTo.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error { return EncodeTo(w, r) }
