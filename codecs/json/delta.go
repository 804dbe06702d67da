package json

import (
	"github.com/graphwire/graphwire/delta"
)

// AppendDelta implements delta.Codec: it appends the JSON form of d
// documented by package delta (delta.AppendJSON), an object whose first
// key is "graphwire_delta", which Sniff rates 0 and delta.SniffJSON 0.99.
func (c *Codec) AppendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	return delta.AppendJSON(dst, d)
}

// DecodeDelta implements delta.Codec: it reads the JSON form of a delta
// under the codec's Limits (delta.DecodeJSON), what it builds held to
// MaxExpansion times the input plus wire.ExpansionAllowance bytes in
// memory. Errors are *wire.DecodeError with a byte offset.
func (c *Codec) DecodeDelta(data []byte) (*delta.Delta, error) {
	return delta.DecodeJSON(data, c.limits)
}

// SniffDelta is the confidence that prefix opens the JSON form of a delta:
// delta.SniffJSON.
func (c *Codec) SniffDelta(prefix []byte) float64 { return delta.SniffJSON(prefix) }

var _ delta.Codec = (*Codec)(nil)
