package json

import (
	"io"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Name is the codec's registry name; it also answers to "raw".
const Name = "json"

// MediaType is the media type of canonical JSON.
const MediaType = "application/json"

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits).
	Limits wire.Limits
}

// Codec is the json codec with fixed Options. It is immutable and safe for
// concurrent use.
type Codec struct {
	limits wire.Limits
}

// New returns a codec configured by o, or an error naming the first option
// out of range.
func New(o Options) (*Codec, error) {
	l, err := o.Limits.WithDefaults()
	if err != nil {
		return nil, err
	}
	return &Codec{limits: l}, nil
}

var std = &Codec{limits: wire.DefaultLimits()}

// Default returns the codec with default Options: the one registered in
// the default wire registry.
func Default() *Codec { return std }

func init() { wire.Register(std) }

// Encode returns the canonical JSON of r, under the default Limits.
func Encode(r *wire.GraphResponse) ([]byte, error) { return std.AppendEncode(nil, r) }

// AppendEncode appends the canonical JSON of r to dst, under the default
// Limits; see Codec.AppendEncode.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return std.AppendEncode(dst, r)
}

// Decode parses canonical-shaped JSON into a response under the default
// Limits; see Codec.Decode.
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// AppendString appends s as a JSON string by the canonical rules.
func AppendString(dst []byte, s string) []byte { return wire.AppendJSONString(dst, s) }

// AppendFloat appends f (finite) by the canonical rules: the shortest
// decimal that reads back to f, with ".0" added where it would otherwise
// read as an integer.
func AppendFloat(dst []byte, f float64) []byte { return wire.AppendJSONFloat(dst, f) }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		Aliases:     []string{"raw"},
		MediaType:   MediaType,
		Description: "canonical JSON, GKG's RAW response shape (schema v2); the baseline",
		Fidelity:    wire.Exact,
	}
}

// AppendEncode appends the canonical JSON of r to dst. On error it returns
// dst unchanged and a *wire.EncodeError naming the place: a NaN or
// infinite float, a query type or group kind outside the enumerations, a
// property named "type" or "id", or a response its own Decode would refuse
// under the codec's Limits (wire.Limits.Check, and an encoding longer than
// MaxInputBytes).
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	if err := c.limits.Check(Name, r); err != nil {
		return dst, err
	}
	// The length of the encoding is known before it is written (it is the
	// response's materialised size): an encoding past MaxInputBytes is
	// refused unwritten, and one within it is written into a buffer grown
	// once.
	var n int64
	if r != nil {
		n = wire.MaterializedSize(r)
	}
	if n > c.limits.MaxInputBytes {
		// What the encoder refuses (NaN, ±Inf, ...) it refuses first, as
		// when the output was measured after writing it; found by
		// encoding to nowhere, which holds no output.
		if err := wire.EncodeJSONTo(io.Discard, r); err != nil {
			return dst, err
		}
		return dst, &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the encoding of " + strconv.FormatInt(n, 10) + " bytes is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	out, err := wire.AppendJSON(slices.Grow(dst, int(n)), r)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// Decode parses canonical-shaped JSON into a response; see the package
// documentation for what it accepts. Errors are *wire.DecodeError with a
// byte offset.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	return wire.DecodeJSON(data, c.limits)
}
