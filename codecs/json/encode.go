package json

import (
	"errors"
	"io"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Encode returns the canonical JSON of r, under the default Limits.
func Encode(r *wire.GraphResponse) ([]byte, error) { return std.AppendEncode(nil, r) }

// AppendEncode appends the canonical JSON of r to dst, under the default
// Limits; see Codec.AppendEncode.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(dst, r)
}

// AppendEncode appends the canonical JSON of r to dst. On error it returns
// dst unchanged and a *wire.EncodeError naming the place: a NaN or
// infinite float, a query type or group kind outside the enumerations, a
// property named "type" or "id", or a response its own Decode would refuse
// under the codec's Limits (wire.Limits.Check, and an encoding longer than
// MaxInputBytes).
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	// The length of the encoding is known before it is written (it is the
	// response's materialised size, counted by the walk that checks the
	// limits): an encoding past MaxInputBytes is refused unwritten, and
	// one within it is written into a buffer grown once.
	return wire.AppendJSONWithin(dst, r, c.core.Limits)
}

// EncodeTo writes the canonical JSON of r to w as it produces it, in
// writes of about 32 KiB at node, edge and row boundaries; the bytes are
// AppendEncode's, and so are the refusals: nothing is written when encoding
// fails (see wire.EncodeJSONTo); only an error from w can leave partial
// output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r != nil {
		// The canonical JSON of r is exactly its materialised size, so one
		// check with the smaller of the two limits also bounds the output.
		l := c.core.Limits
		asInput := l.MaxInputBytes < l.MaxMaterializedBytes
		if asInput {
			l.MaxMaterializedBytes = l.MaxInputBytes
		}
		if _, err := l.Measure(Name, r); err != nil {
			var ee *wire.EncodeError
			if asInput && errors.As(err, &ee) && ee.Limit == "MaxMaterializedBytes" {
				// What the codec's own limits refuse, or the encoder
				// refuses (NaN, ±Inf), AppendEncode refuses for that
				// before measuring its output.
				if _, err := c.core.Limits.Measure(Name, r); err != nil {
					return err
				}
				if err := wire.EncodeJSONTo(io.Discard, r); err != nil {
					return err
				}
				return &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
					Msg: "the encoding is longer than the limit of " + strconv.FormatInt(c.core.Limits.MaxInputBytes, 10) + " bytes"}
			}
			return err
		}
	}
	return wire.EncodeJSONTo(w, r)
}

// AppendString appends s as a canonical JSON string: only '"', '\\' and
// control characters escaped, invalid UTF-8 written as U+FFFD. It is for
// code that writes canonical JSON around a response by hand (a wrapper
// object, a log line); the rule is internal/textwire's JSON table, the one
// AppendEncode uses.
func AppendString(dst []byte, s string) []byte { return textwire.JSON.AppendQuoted(dst, s) }

// AppendFloat appends f (finite) as canonical JSON writes a float: the
// shortest decimal that reads back to f, in exponent form outside
// 1e-6 ≤ |f| < 1e21, with ".0" added where it would otherwise read as an
// integer. For the same callers as AppendString; the rule is
// internal/textwire's AppendFloat, the one AppendEncode uses.
func AppendFloat(dst []byte, f float64) []byte { return textwire.AppendFloat(dst, f) }
