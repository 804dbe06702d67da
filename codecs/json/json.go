package json

import "github.com/graphwire/graphwire/wire"

// Name is the codec's registry name; it also answers to "raw".
const Name = "json"

// MediaType is the media type of canonical JSON.
const MediaType = "application/json"

// Encode returns the canonical JSON of r.
func Encode(r *wire.GraphResponse) ([]byte, error) { return wire.AppendJSON(nil, r) }

// AppendEncode appends the canonical JSON of r to dst. On error it returns
// dst unchanged and an *wire.EncodeError naming the place: a NaN or
// infinite float, a query type or group kind outside the enumerations, or a
// property named "type" or "id".
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return wire.AppendJSON(dst, r)
}

// Decode parses canonical-shaped JSON into a response; see the package
// documentation for what it accepts. Errors are *wire.DecodeError with a
// byte offset.
func Decode(data []byte) (*wire.GraphResponse, error) { return wire.DecodeJSON(data) }

// AppendString appends s as a JSON string by the canonical rules.
func AppendString(dst []byte, s string) []byte { return wire.AppendJSONString(dst, s) }

// AppendFloat appends f (finite) by the canonical rules: the shortest
// decimal that reads back to f, with ".0" added where it would otherwise
// read as an integer.
func AppendFloat(dst []byte, f float64) []byte { return wire.AppendJSONFloat(dst, f) }

type codec struct{}

func (codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		Aliases:     []string{"raw"},
		MediaType:   MediaType,
		Description: "canonical JSON, GKG's RAW response shape (schema v2); the baseline",
		Fidelity:    wire.Exact,
	}
}

func (codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return wire.AppendJSON(dst, r)
}

func (codec) Decode(data []byte) (*wire.GraphResponse, error) { return wire.DecodeJSON(data) }

// Codec returns the json codec, as registered.
func Codec() wire.Codec { return codec{} }

func init() { wire.Register(codec{}) }
