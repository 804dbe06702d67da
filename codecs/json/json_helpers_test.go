package json_test

import (
	"bytes"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// encodeJSON is the canonical JSON of r, as wire.AppendJSON writes it.
func encodeJSON(r *wire.GraphResponse) ([]byte, error) { return jsoncodec.AppendEncode(nil, r) }

// decodeJSON reads canonical JSON under the default limits.
func decodeJSON(data []byte) (*wire.GraphResponse, error) {
	return jsoncodec.DecodeWithin(data, wire.Limits{})
}

// decodeCanonical decodes in, canonical JSON, and checks that it encodes
// back to in byte for byte.
func decodeCanonical(t testing.TB, in []byte) *wire.GraphResponse {
	t.Helper()
	r, err := decodeJSON(in)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	out, err := encodeJSON(r)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	if !bytes.Equal(out, in) {
		t.Fatalf("re-encoding differs:\n got %s\nwant %s", out, in)
	}
	return r
}
