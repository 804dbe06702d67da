package goon

import (
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
	// media type; "" means Version. It must be one Decode reads:
	// MAJOR.MINOR.PATCH, major 1 to 4 ("4.0.1" is GKG's current encoder).
	// It changes nothing else.
	Version string
}

// Codec is the goon codec with fixed Options. It is immutable and safe for
// concurrent use.
type Codec struct {
	core    codecbase.Core
	version string
}

// New returns a codec configured by o, or an error naming the first option
// out of range.
func New(o Options) (*Codec, error) {
	core, err := codecbase.New(Name, o.Limits)
	if err != nil {
		return nil, err
	}
	v := o.Version
	if v == "" {
		v = Version
	}
	if !supportedVersion(v) {
		return nil, errors.New("goon: Options.Version " + textwire.Excerpt(v) + " is not a version Decode reads (MAJOR.MINOR.PATCH, major " + minMajor + " to " + maxMajor + ")")
	}
	return &Codec{core: core, version: v}, nil
}

var std = codecbase.Must(New(Options{}))

// Default returns the registered codec, with default Options.
func Default() *Codec { return std }

func init() { wire.Register(std) }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Version reports the goon_version the codec stamps.
func (c *Codec) Version() string { return c.version }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		Aliases:     []string{"llm"},
		MediaType:   "text/x-goon; version=" + c.version,
		Description: "GOON " + c.version + " (GKG ADR 012), line-oriented text for LLM agents; lossy by design",
		Fidelity:    wire.Lossy,
	}
}
