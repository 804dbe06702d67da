package json

import (
	"errors"
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
		// The canonical JSON of r is exactly its materialised size, so one
		// check with the smaller of the two limits also bounds the output.
		l := c.limits
		asInput := l.MaxInputBytes < l.MaxMaterializedBytes
		if asInput {
			l.MaxMaterializedBytes = l.MaxInputBytes
		}
		if err := l.Check(Name, r); err != nil {
			var ee *wire.EncodeError
			if asInput && errors.As(err, &ee) && ee.Limit == "MaxMaterializedBytes" {
				// What the codec's own limits refuse, or the encoder
				// refuses (NaN, ±Inf), AppendEncode refuses for that
				// before measuring its output.
				if err := c.limits.Check(Name, r); err != nil {
					return err
				}
				if err := wire.EncodeJSONTo(io.Discard, r); err != nil {
					return err
				}
				return &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
					Msg: "the encoding is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10) + " bytes"}
			}
			return err
		}
	}
	return wire.EncodeJSONTo(w, r)
}
