package binary

import (
	"fmt"

	"github.com/fxamacker/cbor/v2"

	"github.com/graphwire/graphwire/wire"
)

// The names the codecs are registered under.
const (
	MsgpackName = "msgpack"
	CBORName    = "cbor"
)

// Format chooses between the two encodings of the layout.
type Format uint8

// The two formats.
const (
	Msgpack Format = iota + 1 // MessagePack, application/msgpack
	CBOR                      // CBOR (RFC 8949), core deterministic, application/cbor
)

// String returns the codec name of f.
func (f Format) String() string {
	switch f {
	case Msgpack:
		return MsgpackName
	case CBOR:
		return CBORName
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Codec is a wire.Codec for one Format with fixed Options. It is immutable
// and safe for concurrent use.
type Codec struct {
	format Format
	limits wire.Limits
	b      bounds
	dm     cbor.DecMode // CBOR only
}

// New returns a codec for f configured by o. Zero fields of o.Limits take
// their defaults; an out-of-range field is an error.
func New(f Format, o Options) (*Codec, error) {
	if f != Msgpack && f != CBOR {
		return nil, fmt.Errorf("binary: unknown format %d", uint8(f))
	}
	l, err := o.Limits.WithDefaults()
	if err != nil {
		return nil, err
	}
	c := &Codec{format: f, limits: l, b: boundsFor(l)}
	if f == CBOR {
		if c.dm, err = cborDecMode(c.b); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func mustNew(f Format, o Options) *Codec {
	c, err := New(f, o)
	if err != nil {
		panic(err)
	}
	return c
}

var defaults = [...]*Codec{Msgpack: mustNew(Msgpack, Options{}), CBOR: mustNew(CBOR, Options{})}

// Default returns the codec for f with default Options: the one registered
// in the wire registry. It panics on an unknown format.
func Default(f Format) *Codec {
	if f != Msgpack && f != CBOR {
		panic(fmt.Sprintf("binary: unknown format %d", uint8(f)))
	}
	return defaults[f]
}

func init() {
	wire.Register(defaults[Msgpack])
	wire.Register(defaults[CBOR])
}

// Format reports the codec's format.
func (c *Codec) Format() Format { return c.format }

// Options reports the codec's options, defaults filled in.
func (c *Codec) Options() Options { return Options{Limits: c.limits} }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.limits }

// Info describes the codec for the registry.
func (c *Codec) Info() wire.Info {
	if c.format == CBOR {
		return wire.Info{
			Name:        CBORName,
			MediaType:   "application/cbor",
			Description: "CBOR (RFC 8949), core deterministic, positional layout; lossless, for services, caches and IPC",
			Fidelity:    wire.Exact,
			Binary:      true,
		}
	}
	return wire.Info{
		Name:        MsgpackName,
		MediaType:   "application/msgpack",
		Description: "MessagePack, positional layout; lossless, compact, for services, caches and IPC",
		Fidelity:    wire.Exact,
		Binary:      true,
	}
}

// Encode returns the encoding of r in format f.
func Encode(f Format, r *wire.GraphResponse) ([]byte, error) {
	return Default(f).AppendEncode(nil, r)
}

// Decode decodes data in format f with the default limits.
func Decode(f Format, data []byte) (*wire.GraphResponse, error) {
	return Default(f).Decode(data)
}
