package goon

import (
	"io"

	"github.com/graphwire/graphwire/wire"
)

// EncodeTo writes the GOON text of r to w as it produces it; see the
// package-level EncodeTo.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error { return EncodeTo(w, r) }
