package wire_test

import "github.com/graphwire/graphwire/wire"

// encodeJSON is the canonical JSON of r, as wire.AppendJSON writes it.
func encodeJSON(r *wire.GraphResponse) ([]byte, error) { return wire.AppendJSON(nil, r) }

// decodeJSON reads canonical JSON under the default limits.
func decodeJSON(data []byte) (*wire.GraphResponse, error) {
	return wire.DecodeJSON(data, wire.Limits{})
}
