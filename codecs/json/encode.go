package json

import (
	"io"
	"strconv"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Encode returns the canonical JSON of r, under the default Limits.
func Encode(r *wire.GraphResponse) ([]byte, error) { return std.AppendEncode(nil, r) }

// AppendEncode appends the canonical JSON of r to dst, under the default
// Limits; see Codec.AppendEncode.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(dst, r)
}

// AppendWithin is AppendEncode under the Limits l (zero fields select
// their defaults), for a caller with no Codec at hand.
func AppendWithin(dst []byte, r *wire.GraphResponse, l wire.Limits) ([]byte, error) {
	return appendWithin(dst, r, l, false)
}

// AppendEncode appends the canonical JSON of r to dst. On error it returns
// dst unchanged and a *wire.EncodeError naming the place (see the package
// documentation, "Encoding" and "Security").
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return appendWithin(dst, r, c.core.Limits, false)
}

// appendWithin is AppendEncode under l; with fragment, r is a document's
// content (see AppendDocument). dst grows once, to the measured length
// with a few escapes more, and again only when the strings of r escape
// more than one byte in 32.
func appendWithin(dst []byte, r *wire.GraphResponse, l wire.Limits, fragment bool) ([]byte, error) {
	n, hi, err := check(r, l, fragment)
	if err != nil {
		return dst, err
	}
	return appendResponse(dst, r, int(n), int(min(hi, n+n/32+64)), fragment)
}

// check refuses, with a *wire.EncodeError, what AppendEncode refuses under
// l, from one walk of r (wirecodec.Measure), which bounds the length of
// its encoding: n with no byte escaped, at most hi. An encoding past
// MaxInputBytes is refused unwritten; a NaN or infinite float is reported
// before it, as when the output was measured after writing it.
func check(r *wire.GraphResponse, l wire.Limits, fragment bool) (n, hi int64, err error) {
	if r == nil {
		return 0, 0, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	m, err := wirecodec.Measure(l, Name, delta.Checkable(r, fragment))
	if err != nil {
		return 0, 0, err
	}
	n, hi = m.JSONBounds()
	max := l.MaxInputBytes
	if max == 0 {
		max = wire.DefaultLimits().MaxInputBytes
	}
	if hi > max && n != hi {
		// Near the limit: the exact length decides.
		n = wirecodec.MaterializedSize(r)
		hi = n
	}
	if n > max {
		// What the encoder refuses (NaN, ±Inf, ...) it refuses first;
		// found by encoding to nowhere, which holds no output.
		if err := encodeTo(io.Discard, r); err != nil {
			return 0, 0, err
		}
		return 0, 0, &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the encoding of " + strconv.FormatInt(n, 10) + " bytes is longer than the limit of " + strconv.FormatInt(max, 10)}
	}
	return n, hi, nil
}

// EncodeTo writes the canonical JSON of r to w under the default Limits;
// see Codec.EncodeTo.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// EncodeTo writes the canonical JSON of r to w as it produces it, in
// writes of about 32 KiB at node, edge and row boundaries. The bytes and
// the refusals are AppendEncode's: only an error from w can leave partial
// output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if _, _, err := check(r, c.core.Limits, false); err != nil {
		return err
	}
	return encodeTo(w, r)
}

// streamChunk is how many bytes a streaming encoder gathers before it
// hands them to the writer; it writes at element boundaries, so one write
// may exceed it by one node, edge or row.
const streamChunk = 32 << 10

// encodeTo writes r to w as Codec.EncodeTo says, after a first pass whose
// output is discarded chunk by chunk checks it: streaming costs about
// twice AppendEncode's time for memory that stays bounded.
func encodeTo(w io.Writer, r *wire.GraphResponse) error {
	if r == nil {
		return &wire.EncodeError{Codec: "json", Msg: "nil response"}
	}
	buf := make([]byte, 0, streamChunk+streamChunk/4)
	check := encoder{b: buf, out: io.Discard}
	if err := check.response(r); err != nil {
		return err
	}
	e := encoder{b: check.b[:0], out: w}
	if err := e.response(r); err != nil {
		return err
	}
	if len(e.b) > 0 {
		if _, err := w.Write(e.b); err != nil {
			return err
		}
	}
	return nil
}

// spill hands the bytes gathered so far to the encoder's writer once they
// reach streamChunk; it does nothing when the encoder appends to a slice.
func (e *encoder) spill() error {
	if e.out == nil || len(e.b) < streamChunk {
		return nil
	}
	if _, err := e.out.Write(e.b); err != nil {
		return err
	}
	e.b = e.b[:0]
	return nil
}

// AppendString appends s as a canonical JSON string (see the package
// documentation), for code that writes canonical JSON around a response
// by hand (a wrapper object, a log line).
func AppendString(dst []byte, s string) []byte { return textwire.JSON.AppendQuoted(dst, s) }

// AppendFloat appends f (finite) as canonical JSON writes a float (see the
// package documentation), for the same callers as AppendString.
func AppendFloat(dst []byte, f float64) []byte { return textwire.AppendFloat(dst, f) }
