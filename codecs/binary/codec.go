package binary

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/wire"
)

// The names the codecs are registered under; the registry looks them up,
// and Info reports them.
const (
	MsgpackName = "msgpack"
	CBORName    = "cbor"
)

// The media types of the two codecs: each format's registered type
// (MessagePack's application/vnd.msgpack, CBOR's application/cbor, RFC
// 8949) with two parameters that tell a client what the items mean:
// layout=graphwire, graphwire's positional layout (see the package
// documentation), and version, the layout version that leads every
// encoding. A generic MessagePack or CBOR decoder reads the bytes as
// arrays of arrays; the parameters say how to read those.
const (
	MsgpackMediaType = "application/vnd.msgpack; layout=graphwire; version=" + layoutVersionText
	CBORMediaType    = "application/cbor; layout=graphwire; version=" + layoutVersionText
)

// layoutVersionText is layoutVersion in decimal, for the media types (a
// test holds the two together).
const layoutVersionText = "2"

// Format chooses between the two encodings of the layout: callers of New,
// Default, Encode and Decode name one.
type Format uint8

// The two formats, as New, Default, Encode and Decode take them.
const (
	Msgpack Format = iota + 1 // MessagePack, MsgpackMediaType
	CBOR                      // CBOR (RFC 8949), core deterministic, CBORMediaType
)

// String returns the codec name of f (MsgpackName, CBORName); the codec's
// errors are prefixed with it.
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
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits and the package's Security
	// section).
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
// their defaults; an out-of-range field is an error. A service decoding
// under limits of its own calls it (codecs.NewRegistry does).
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

// Default returns the codec for f with default Options: the one registered
// in the wire registry, for callers that want it without a registry lookup.
// It panics on an unknown format.
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

// Limits reports the codec's limits, defaults filled in; the registry and
// the shared limit suites (wiretest) read them.
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

// Encode returns the encoding of r in format f with the default Options:
// the one-call form for callers without a *Codec, like goon.Encode and
// json.Encode.
func Encode(f Format, r *wire.GraphResponse) ([]byte, error) {
	return Default(f).AppendEncode(nil, r)
}

// Decode decodes data in format f with the default Options: the one-call
// form for callers without a *Codec, like goon.Decode and json.Decode.
func Decode(f Format, data []byte) (*wire.GraphResponse, error) {
	return Default(f).Decode(data)
}
