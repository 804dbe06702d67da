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
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits).
	Limits wire.Limits
}

// Codec is the json codec with fixed Options. It is immutable and safe for
// concurrent use.
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
		Aliases:     []string{"raw"},
		MediaType:   MediaType,
		Description: "canonical JSON, GKG's RAW response shape (schema v2); the baseline",
		Fidelity:    wire.Exact,
	}
}
