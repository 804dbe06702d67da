package goon

import (
	"cmp"
	"errors"

	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Name is the codec's registry name; it also answers to "llm".
const Name = "goon"

// Version is the goon_version this package writes by default; any change
// to the bytes the encoder writes changes it.
const Version = "1.0.0"

// MediaType is the media type of the default codec's text.
const MediaType = "text/x-goon; version=" + Version

// Options configure a Codec; the zero value is the registered codec's.
type Options struct {
	// Limits bound what Decode accepts and what AppendEncode writes.
	Limits wire.Limits

	// Version is the goon_version stamped in the header and named by the
	// media type, and changes nothing else; "" means Version. It must be one
	// Decode reads: MAJOR.MINOR.PATCH, major 1 to 4 ("4.0.1" is GKG's current one).
	Version string
}

// Codec is the goon codec with fixed Options, immutable and safe for concurrent use.
type Codec struct {
	core    codecbase.Core
	version string
}

// New returns a codec configured by o, or the error naming the first option out of range.
func New(o Options) (*Codec, error) {
	v := cmp.Or(o.Version, Version)
	c, err := codecbase.New(wire.Info{Name: Name, Aliases: []string{"llm"}, MediaType: "text/x-goon; version=" + v, Fidelity: wire.Lossy,
		Description: "GOON " + v + " (GKG ADR 012), line-oriented text for LLM agents; lossy by design"},
		o.Limits, func(core codecbase.Core) *Codec { return &Codec{core, v} })
	if err == nil && !supportedVersion(v) {
		return nil, errors.New("goon: Options.Version " + textwire.Excerpt(v) + " is not a version Decode reads (MAJOR.MINOR.PATCH, major " + minMajor + " to " + maxMajor + ")")
	}
	return c, err
}

var std = codecbase.Register(New(Options{}))

// Default returns the codec with default Options, the default wire registry's.
func Default() *Codec { return std }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Version reports the goon_version the codec stamps.
func (c *Codec) Version() string { return c.version }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info { return c.core.Info() }
