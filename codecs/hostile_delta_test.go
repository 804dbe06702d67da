package codecs_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// hostileDocument is a delta document of codec whose every list of
// operations holds n small positions: a few bytes of input a position,
// written through the codec's header syntax directly (its AppendDelta
// would read a lossy codec's document back first).
func hostileDocument(t testing.TB, codec string, n int) []byte {
	t.Helper()
	c, err := wire.Lookup(codec)
	if err != nil {
		t.Fatal(err)
	}
	d := deltatest.EveryList(n)
	h := []delta.Field{{Name: delta.FieldDelta, Text: d.Check.String()}}
	list := make([]int, n)
	for i := range list {
		list[i] = i % 10
	}
	for _, name := range []string{delta.FieldNodesChanged, delta.FieldNodesRemoved, delta.FieldNodesMoved, delta.FieldNodesMovedTo, delta.FieldNodesAdded,
		delta.FieldEdgesRemoved, delta.FieldEdgesMoved, delta.FieldEdgesMovedTo, delta.FieldEdgesAdded,
		delta.FieldRowsRemoved, delta.FieldRowsMoved, delta.FieldRowsMovedTo, delta.FieldRowsAdded} {
		h = append(h, delta.Field{Name: name, Ints: list})
	}
	b, err := c.(delta.DocumentCodec).AppendDocument(nil, h, d.Content)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeltaDecodeMemory: a delta document of every codec whose thirteen
// lists hold 2^18 positions each decodes within 16 times the input plus
// 16 MiB at its peak (the lists are within MaxElements).
func TestDeltaDecodeMemory(t *testing.T) {
	if testing.Short() || testsupport.Race {
		t.Skip("decodes inputs of up to 10 MB, and measures the heap, which the race detector's shadow memory distorts")
	}
	for _, codec := range documentCodecs {
		t.Run(codec, func(t *testing.T) {
			deltatest.CheckDecodeMemory(t, hostileDocument(t, codec, 1<<18), true, func(data []byte) (*delta.Delta, error) {
				return delta.DecodeWith(nil, codec, data)
			})
		})
	}
}

// TestDeltaDecodeScaling: every codec reads a delta document in time
// linear in its length (wiretest.Scaling: the time per byte at 10 MB
// within twice that at 1 MB, in processor time with the collector off).
func TestDeltaDecodeScaling(t *testing.T) {
	for _, codec := range documentCodecs {
		t.Run(codec, func(t *testing.T) {
			per := max(len(hostileDocument(t, codec, 1024))/1024, 1)
			build := func(n int) []byte { return hostileDocument(t, codec, max(n/per, 8)) }
			wiretest.Scaling(t, codec+" delta document", build, func(data []byte) error {
				_, err := delta.DecodeWith(nil, codec, data)
				return err
			})
		})
	}
}

// documentCodecs are the built-in codecs, every one of which writes
// documents (delta.DocumentCodec): deltas and responses with references.
var documentCodecs = []string{"json", "goon", "toon", "gcf", "msgpack", "cbor"}
