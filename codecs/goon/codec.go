package goon

import (
	"errors"

	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Name is the codec's registry name; it also answers to "llm". Callers
// pass it to wire.Lookup, wire.EncodeWith and wire.DecodeWith, and
// wirehttp matches it in an Accept header.
const Name = "goon"

// Version is the GOON wire version this package writes by default, the
// header's goon_version. Any change to the bytes the encoder writes changes
// it; the package's tests hold it together with a hash of the golden
// outputs. Callers compare it with a document's goon_version, or set
// Options.Version to stamp another.
const Version = "1.0.0"

// MediaType is the media type of GOON text as the default codec writes it:
// the Content-Type an HTTP service (wirehttp) answers with.
const MediaType = "text/x-goon; version=" + Version

// Options configure a Codec; a service passes them to New (codecs.New does
// for its registry). The zero value is the default: the registered codec.
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits).
	Limits wire.Limits

	// Version is the goon_version the encoder stamps in the header and
	// its media type names. "" means Version (1.0.0). It must be a version
	// Decode reads: MAJOR.MINOR.PATCH, decimal without leading zeros,
	// major 1 to 4 ("4.0.1" is GKG's current encoder). The stamp changes
	// nothing else: the encoder writes the same text under every version
	// (see the package documentation, Versions).
	Version string
}

// Codec is the goon codec with fixed Options. It is immutable and safe for
// concurrent use. A wire.Registry calls it as a wire.Codec, a
// wirecodec.StreamEncoder and a wirecodec.Sniffer; a service may call it directly.
type Codec struct {
	core    codecbase.Core
	version string
}

// New returns a codec configured by o, or an error naming the first option
// out of range. A service calls it for limits or a goon_version other than
// the defaults, and registers the result in its wire.Registry.
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

// Default returns the codec with default Options: the one registered in
// the default wire registry, stamping goon_version 1.0.0. Callers that want
// its methods (EncodeTo, Sniff) without a registry use it.
func Default() *Codec { return std }

func init() { wire.Register(std) }

// Limits reports the codec's limits, defaults filled in; registries and
// HTTP servers read it to bound what they read before decoding.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Version reports the goon_version the codec stamps, for a caller that
// built the codec with New and logs or checks what it speaks.
func (c *Codec) Version() string { return c.version }

// Info describes the codec for a registry: wire.Registry.Register and
// wire.List call it.
func (c *Codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		Aliases:     []string{"llm"},
		MediaType:   "text/x-goon; version=" + c.version,
		Description: "GOON " + c.version + " (GKG ADR 012), line-oriented text for LLM agents; lossy by design",
		Fidelity:    wire.Lossy,
	}
}
