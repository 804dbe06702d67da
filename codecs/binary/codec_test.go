package binary

import (
	"strconv"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// The media types name the layout version the encoder writes.
func TestMediaTypeVersion(t *testing.T) {
	if layoutVersionText != strconv.Itoa(layoutVersion) {
		t.Fatalf("media types say version %s, the layout is version %d", layoutVersionText, layoutVersion)
	}
	for _, f := range []Format{Msgpack, CBOR} {
		out, err := Encode(f, &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{}, Edges: []wire.Edge{}})
		if err != nil {
			t.Fatal(err)
		}
		// The first element of the top-level array is the version, a
		// one-byte positive integer in both formats.
		if len(out) < 2 || int(out[1]) != layoutVersion {
			t.Fatalf("%s: encoding starts % x, want the layout version %d second", f, out[:min(len(out), 4)], layoutVersion)
		}
	}
}
