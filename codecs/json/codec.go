package json

import (
	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/wire"
)

// Name is the codec's registry name; it also answers to "raw".
const Name = "json"

// MediaType is the media type of canonical JSON.
const MediaType = "application/json"

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what AppendEncode writes.
	Limits wire.Limits
}

// Codec is the json codec with fixed Options, immutable and safe for concurrent use.
type Codec struct{ core codecbase.Core }

// New returns a codec configured by o, or the error naming the first option out of range.
func New(o Options) (*Codec, error) {
	return codecbase.New(wire.Info{Name: Name, Aliases: []string{"raw"}, MediaType: MediaType, Fidelity: wire.Exact,
		Description: "canonical JSON, GKG's RAW response shape (schema v2); the baseline"},
		o.Limits, func(core codecbase.Core) *Codec { return &Codec{core} })
}

var std = codecbase.Register(New(Options{}))

// Default returns the codec with default Options, the default wire registry's.
func Default() *Codec { return std }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info { return c.core.Info() }
