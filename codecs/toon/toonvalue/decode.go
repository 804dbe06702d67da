package toonvalue

import (
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
)

// Unmarshal decodes one TOON document (spec v4.0) into a jsonvalue.Value
// (see Decoding in the package documentation). Bad input gives a
// *wire.DecodeError with the line and column, never a panic or a partial
// value.
func Unmarshal(data []byte, opts DecodeOptions) (jsonvalue.Value, error) {
	return toonread.DecodeSinks(data, toonread.Options(opts), toonread.Limits{}, nil)
}
