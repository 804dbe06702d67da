package toonvalue

import (
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
)

// Unmarshal decodes one TOON document (spec v4.0) into a jsonvalue.Value:
// nil, bool, jsonvalue.Number, string, []jsonvalue.Value or
// *jsonvalue.Object.
//
// Bad input gives a *wire.DecodeError with the line and column of the
// problem ("toon: line 3, column 5: ..."); it never panics and never
// returns a partial value. In strict mode (the default) every error of spec
// §14 is reported; DecodeOptions.Lenient relaxes them as the spec allows.
// A leading UTF-8 byte-order mark is ignored, CRLF line endings are
// accepted, and full-line comments (# after optional spaces) are skipped.
func Unmarshal(data []byte, opts DecodeOptions) (jsonvalue.Value, error) {
	return toonread.Decode(data, toonread.Options(opts), toonread.Limits{})
}
