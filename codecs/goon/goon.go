package goon

import "github.com/graphwire/graphwire/wire"

// Name is the codec's registry name; it also answers to "llm".
const Name = "goon"

// Version is the GOON wire version this package writes, the header's
// goon_version. Any change to the bytes the encoder writes changes it; the
// package's tests hold it together with a hash of the golden outputs.
const Version = "1.0.0"

// MediaType is the media type of GOON text.
const MediaType = "text/x-goon; version=" + Version

type codec struct{}

func (codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		Aliases:     []string{"llm"},
		MediaType:   MediaType,
		Description: "GOON " + Version + " (GKG ADR 012), line-oriented text for LLM agents; lossy by design",
		Fidelity:    wire.Lossy,
	}
}

func (codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return AppendEncode(dst, r)
}

func (codec) Decode(data []byte) (*wire.GraphResponse, error) { return Decode(data) }

// Codec returns the goon codec, as registered.
func Codec() wire.Codec { return codec{} }

func init() { wire.Register(codec{}) }
