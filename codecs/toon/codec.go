package toon

import (
	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/wire"
)

// Name is the registry name of the GraphResponse codec (see Encode for its
// layout).
const Name = "toon"

// MediaType is the media type of TOON text.
const MediaType = "text/toon"

// Options configure a Codec, the GraphResponse codec. The zero value gives
// the default Limits. (toonvalue.EncodeOptions and DecodeOptions
// configure the generic TOON library.)
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits).
	Limits wire.Limits
}

// Codec is the toon GraphResponse codec with fixed Options. It is
// immutable and safe for concurrent use.
type Codec struct {
	core codecbase.Core
}

// New returns a codec configured by o, or an error naming the first option
// out of range.
func New(o Options) (*Codec, error) {
	core, err := codecbase.New(Name, o.Limits)
	if err != nil {
		return nil, err
	}
	return &Codec{core: core}, nil
}

var std = codecbase.Must(New(Options{}))

// Default returns the codec with default Options: the one registered in
// the default wire registry.
func Default() *Codec { return std }

func init() { wire.Register(std) }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		MediaType:   MediaType,
		Description: "TOON spec v4.0 text, graph-aware: nodes as per-type tables, edges as one table; numbers compare by value",
		Fidelity:    wire.NumbersByValue,
	}
}
