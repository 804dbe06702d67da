package json

import "github.com/graphwire/graphwire/wire"

// Name is the codec's registry name; it also answers to "raw".
const Name = "json"

// MediaType is the media type of canonical JSON.
const MediaType = "application/json"

type codec struct{}

func (codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		Aliases:     []string{"raw"},
		MediaType:   MediaType,
		Description: "canonical JSON, GKG's RAW response shape (schema v2); the baseline",
	}
}

func (codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return AppendEncode(dst, r)
}

func (codec) Decode(data []byte) (*wire.GraphResponse, error) { return Decode(data) }

// Codec returns the json codec, as registered.
func Codec() wire.Codec { return codec{} }

func init() { wire.Register(codec{}) }
