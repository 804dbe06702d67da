package codecs_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// documentCodecs are the built-in codecs, every one of which writes
// documents (delta.DocumentCodec): deltas and responses with references.
var documentCodecs = []string{"json", "goon", "toon", "gcf", "msgpack", "cbor"}

// TestDocuments runs package deltatest's checks on every codec: every
// delta of the generator and of the corpus re-queries (1%, 5% and 20%
// changed) written and read back patches the base into the next response
// exactly, damaged deltas are errors, and conversations in a session
// resolve exactly (deltatest.RunCodec, deltatest.RunSession).
func TestDocuments(t *testing.T) {
	for _, name := range documentCodecs {
		c, err := wire.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var o wiretest.Options
		if c.Info().Binary {
			o = wiretest.Options{AwkwardNames: true, NonFinite: true} // names and floats of any kind
		}
		t.Run(name+"/delta", func(t *testing.T) { deltatest.RunCodec(t, deltatest.CodecSuite{Codec: c, Options: o}) })
		t.Run(name+"/session", func(t *testing.T) { deltatest.RunSession(t, deltatest.SessionSuite{Codec: c, Options: o}) })
	}
}
