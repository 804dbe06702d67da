package json

import (
	"io"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// EncodeTo writes the canonical JSON of r to w as it produces it, in
// writes of about 32 KiB at node, edge and row boundaries; the bytes are
// AppendEncode's, and so are the refusals: nothing is written when encoding
// fails (see wire.EncodeJSONTo); only an error from w can leave partial
// output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r != nil {
		if err := c.limits.Check(Name, r); err != nil {
			return err
		}
		// The canonical JSON is exactly the materialised size.
		if n := wire.MaterializedSize(r); n > c.limits.MaxInputBytes {
			return &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
				Msg: "the encoding of " + strconv.FormatInt(n, 10) + " bytes is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
		}
	}
	return wire.EncodeJSONTo(w, r)
}
