package toon

import "github.com/graphwire/graphwire/wire"

// Name is the registry name of the GraphResponse codec (see Encode for its
// layout).
const Name = "toon"

// MediaType is the media type of TOON text.
const MediaType = "text/toon"

type codec struct{}

func (codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		MediaType:   MediaType,
		Description: "TOON spec v4.0 text, graph-aware: nodes as per-type tables, edges as one table; numbers compare by value",
		Fidelity:    wire.NumbersByValue,
	}
}

func (codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return AppendEncode(dst, r)
}

func (codec) Decode(data []byte) (*wire.GraphResponse, error) { return Decode(data) }

// Codec returns the toon codec, as registered.
func Codec() wire.Codec { return codec{} }

func init() { wire.Register(codec{}) }
