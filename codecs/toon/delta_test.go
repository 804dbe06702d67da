package toon_test

import (
	"testing"


	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// asRead is r as a toon client holds it: Decode(Encode(r)).
func asRead(r *wire.GraphResponse) (*wire.GraphResponse, error) {
	b, err := toon.Encode(r)
	if err != nil {
		return nil, err
	}
	return toon.Decode(b)
}

func TestDelta(t *testing.T) {
	c := toon.Default()
	deltatest.RunCodec(t, deltatest.CodecSuite{
		Codec:         c,
		Normalize:     asRead,
		SniffResponse: c.Sniff,
		SniffDelta:    c.SniffDelta,
		Encode:        func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
	})
}
