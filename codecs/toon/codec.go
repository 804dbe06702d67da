package toon

import (
	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/wire"
)

// Name is the registry name of the GraphResponse codec (see Encode for its layout).
const Name = "toon"

// MediaType is the media type of TOON text.
const MediaType = "text/toon"

// Options configure a Codec, the GraphResponse codec. The zero value gives
// the default Limits. (toonvalue.EncodeOptions and DecodeOptions
// configure the generic TOON library.)
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what AppendEncode writes.
	Limits wire.Limits
}

// Codec is the toon GraphResponse codec with fixed Options, immutable and
// safe for concurrent use.
type Codec struct{ core codecbase.Core }

// New returns a codec configured by o, or the error naming the first option out of range.
func New(o Options) (*Codec, error) {
	return codecbase.New(wire.Info{Name: Name, MediaType: MediaType, Fidelity: wire.NumbersByValue,
		Description: "TOON spec v4.0 text, graph-aware: nodes as per-type tables, edges as one table; numbers compare by value"},
		o.Limits, func(core codecbase.Core) *Codec { return &Codec{core} })
}

var std = codecbase.Register(New(Options{}))

// Default returns the codec with default Options, the default wire registry's.
func Default() *Codec { return std }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info { return c.core.Info() }
