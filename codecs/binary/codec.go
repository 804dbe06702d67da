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

// layoutVersionText is layoutVersion in decimal (a test holds the two together).
const layoutVersionText = "2"

// Format chooses between the two encodings of the layout.
type Format uint8

const (
	Msgpack Format = iota + 1 // MessagePack, MsgpackMediaType
	CBOR                      // CBOR (RFC 8949), core deterministic, CBORMediaType
)

// String returns the codec name of f, which prefixes its errors.
func (f Format) String() string {
	if f.known() {
		return infos[f].Name
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

func (f Format) known() bool { return f == Msgpack || f == CBOR }

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and what AppendEncode writes.
	Limits wire.Limits
}

// Codec is a wire.Codec for one Format with fixed Options, immutable and safe for concurrent use.
type Codec struct {
	format Format
	core   codecbase.Core
	b      bounds
}

var infos = [...]wire.Info{
	Msgpack: {Name: MsgpackName, MediaType: MsgpackMediaType, Fidelity: wire.Exact, Binary: true,
		Description: "MessagePack, positional layout; lossless, compact, for services, caches and IPC"},
	CBOR: {Name: CBORName, MediaType: CBORMediaType, Fidelity: wire.Exact, Binary: true,
		Description: "CBOR (RFC 8949), core deterministic, positional layout; lossless, for services, caches and IPC"},
}

// New returns a codec for f configured by o, or the error naming the first option out of range.
func New(f Format, o Options) (*Codec, error) {
	if !f.known() {
		return nil, fmt.Errorf("binary: unknown format %d", uint8(f))
	}
	return codecbase.New(infos[f], o.Limits, func(core codecbase.Core) *Codec {
		return &Codec{format: f, core: core, b: boundsFor(core.Limits)}
	})
}

var defaults = [...]*Codec{Msgpack: codecbase.Register(New(Msgpack, Options{})), CBOR: codecbase.Register(New(CBOR, Options{}))}

// Default returns the registered codec for f, with default Options; it panics on an unknown format.
func Default(f Format) *Codec {
	if !f.known() {
		panic(fmt.Sprintf("binary: unknown format %d", uint8(f)))
	}
	return defaults[f]
}

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for the registry (wire.Codec).
func (c *Codec) Info() wire.Info { return c.core.Info() }

// Encode returns the encoding of r in format f with the default Options.
func Encode(f Format, r *wire.GraphResponse) ([]byte, error) {
	return Default(f).AppendEncode(nil, r)
}

// Decode decodes data in format f with the default Options.
func Decode(f Format, data []byte) (*wire.GraphResponse, error) {
	return Default(f).Decode(data)
}
