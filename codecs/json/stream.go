package json

import (
	"io"

	"github.com/graphwire/graphwire/wire"
)

// EncodeTo writes the canonical JSON of r to w as it produces it, in
// writes of about 32 KiB at node, edge and row boundaries; the bytes are
// AppendEncode's. Nothing is written when encoding fails (see
// wire.EncodeJSONTo); only an error from w can leave partial output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	return wire.EncodeJSONTo(w, r)
}
