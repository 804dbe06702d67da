package json_test

import (
	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// encodeJSON is the canonical JSON of r, as wire.AppendJSON writes it.
func encodeJSON(r *wire.GraphResponse) ([]byte, error) { return jsoncodec.AppendEncode(nil, r) }

// decodeJSON reads canonical JSON under the default limits.
func decodeJSON(data []byte) (*wire.GraphResponse, error) {
	return jsoncodec.DecodeWithin(data, wire.Limits{})
}
