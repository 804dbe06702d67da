package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

func TestDelta(t *testing.T) {
	c := json.Default()
	deltatest.RunCodec(t, deltatest.CodecSuite{
		Codec:         c,
		SniffResponse: c.Sniff,
		SniffDelta:    c.SniffDelta,
		Encode:        func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
	})
}

func TestDeltaThroughTheRegistry(t *testing.T) {
	base := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{{Type: "User", ID: 1}}}
	next := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{{Type: "User", ID: 2}}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	b, err := delta.EncodeWith(nil, "raw", d)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range wire.Sniff(b) {
		if g.Name == json.Name {
			t.Errorf("wire.Sniff takes a delta for a json response (%.2f)", g.Confidence)
		}
	}
	d2, err := delta.DecodeWith(nil, json.Name, b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := delta.Patch(base, d2)
	if err != nil || !wire.Equal(next, got, wire.Exact) {
		t.Fatalf("patched %+v, %v", got, err)
	}
}
