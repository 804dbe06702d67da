package binary

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/wire"
)

// The names the codecs are registered under.
const (
	MsgpackName = "msgpack"
	CBORName    = "cbor"
)

// The media types of the two codecs (see the package documentation).
const (
	MsgpackMediaType = "application/vnd.msgpack; layout=graphwire; version=" + layoutVersionText
	CBORMediaType    = "application/cbor; layout=graphwire; version=" + layoutVersionText
)

// layoutVersionText is layoutVersion in decimal (a test holds the two
// together).
const layoutVersionText = "2"

// Format chooses between the two encodings of the layout.
type Format uint8

const (
	Msgpack Format = iota + 1 // MessagePack, MsgpackMediaType
	CBOR                      // CBOR (RFC 8949), core deterministic, CBORMediaType
)

// String returns the codec name of f, which prefixes its errors.
func (f Format) String() string {
	switch f {
	case Msgpack:
		return MsgpackName
	case CBOR:
		return CBORName
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and what AppendEncode writes.
	Limits wire.Limits
}

// Codec is a wire.Codec for one Format with fixed Options. It is immutable
// and safe for concurrent use.
type Codec struct {
	format Format
	core   codecbase.Core
	b      bounds
}

// New returns a codec for f configured by o. Zero fields of o.Limits take
// their defaults; an out-of-range field is an error.
func New(f Format, o Options) (*Codec, error) {
	if f != Msgpack && f != CBOR {
		return nil, fmt.Errorf("binary: unknown format %d", uint8(f))
	}
	core, err := codecbase.New(f.String(), o.Limits)
	if err != nil {
		return nil, err
	}
	return &Codec{format: f, core: core, b: boundsFor(core.Limits)}, nil
}

var defaults = [...]*Codec{Msgpack: codecbase.Must(New(Msgpack, Options{})), CBOR: codecbase.Must(New(CBOR, Options{}))}

// Default returns the registered codec for f, with default Options. It
// panics on an unknown format.
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

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for the registry (wire.Codec).
func (c *Codec) Info() wire.Info {
	if c.format == CBOR {
		return wire.Info{
			Name:        CBORName,
			MediaType:   CBORMediaType,
			Description: "CBOR (RFC 8949), core deterministic, positional layout; lossless, for services, caches and IPC",
			Fidelity:    wire.Exact,
			Binary:      true,
		}
	}
	return wire.Info{
		Name:        MsgpackName,
		MediaType:   MsgpackMediaType,
		Description: "MessagePack, positional layout; lossless, compact, for services, caches and IPC",
		Fidelity:    wire.Exact,
		Binary:      true,
	}
}

// Encode returns the encoding of r in format f with the default Options.
func Encode(f Format, r *wire.GraphResponse) ([]byte, error) {
	return Default(f).AppendEncode(nil, r)
}

// Decode decodes data in format f with the default Options.
func Decode(f Format, data []byte) (*wire.GraphResponse, error) {
	return Default(f).Decode(data)
}
