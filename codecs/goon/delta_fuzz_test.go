package goon_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecodeDelta: DecodeDelta never panics, and a delta it reads writes
// text that reads back to the same delta.
func FuzzDecodeDelta(f *testing.F) {
	for _, c := range corpus.Generate()[:6] {
		base, err := asRead(c.Response)
		if err != nil {
			f.Fatal(err)
		}
		next, err := asRead(deltatest.ChangeRate(c.Response, 20))
		if err != nil {
			f.Fatal(err)
		}
		for _, n := range []*wire.GraphResponse{next, base} {
			d, err := delta.Diff(base, n)
			if err != nil {
				f.Fatal(err)
			}
			b, err := goon.Default().AppendDelta(nil, d)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := goon.Default().DecodeDelta(data)
		if err != nil {
			return
		}
		b, err := goon.Default().AppendDelta(nil, d)
		var ee *wire.EncodeError
		if errors.As(err, &ee) {
			// GOON is lossy: AppendDelta refuses a delta it would not carry
			// exactly (a value it retypes, properties out of GOON's order),
			// which a delta edited by hand can hold; it must say so, not
			// write something else.
			return
		}
		if err != nil {
			t.Fatalf("a decoded delta does not write, and the error is not an *wire.EncodeError: %v", err)
		}
		d2, err := goon.Default().DecodeDelta(b)
		if err != nil {
			t.Fatalf("the written delta does not read: %v\n%s", err, b)
		}
		if b2, _ := goon.Default().AppendDelta(nil, d2); !bytes.Equal(b, b2) {
			t.Fatalf("not a fixed point:\n%s\nthen\n%s", b, b2)
		}
	})
}
