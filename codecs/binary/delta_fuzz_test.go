package binary_test

import (
	"bytes"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecodeDelta: DecodeDelta never panics in either format, and a delta
// it reads writes a record that reads back to the same bytes.
func FuzzDecodeDelta(f *testing.F) {
	for _, c := range corpus.Generate()[:6] {
		next := deltatest.ChangeRate(c.Response, 20)
		for _, n := range []*wire.GraphResponse{next, c.Response} {
			d, err := delta.Diff(c.Response, n)
			if err != nil {
				f.Fatal(err)
			}
			for _, fm := range formats {
				b, err := binary.Default(fm).AppendDelta(nil, d)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(fm), b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		c := binary.Default(formats[int(which)%len(formats)])
		d, err := c.DecodeDelta(data)
		if err != nil {
			return
		}
		b, err := c.AppendDelta(nil, d)
		if err != nil {
			t.Fatalf("a decoded delta does not write: %v", err)
		}
		d2, err := c.DecodeDelta(b)
		if err != nil {
			t.Fatalf("the written delta does not read: %v", err)
		}
		if b2, _ := c.AppendDelta(nil, d2); !bytes.Equal(b, b2) {
			t.Fatalf("not a fixed point:\n%x\nthen\n%x", b, b2)
		}
	})
}
