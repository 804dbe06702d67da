package goon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecodeReferenced: DecodeReferenced never panics; every error is a
// positioned goon *wire.DecodeError; the positions are ascending, in
// range, and name nodes without properties; and what decodes is written
// back, with as many references, as a text that is a fixed point: it
// reads and writes back to itself. Seeds: the golden cases with every node, and
// every other node, a reference.
func FuzzDecodeReferenced(f *testing.F) {
	c := goon.Default()
	for _, gc := range goldenCases() {
		for _, every := range []int{1, 2} {
			var refs []int
			for i := 0; i < len(gc.in.Nodes); i += every {
				refs = append(refs, i)
			}
			if out, err := c.AppendReferenced(nil, gc.in, refs); err == nil {
				f.Add(out)
			}
		}
	}
	dec, err := goon.New(goon.Options{Limits: wire.Limits{MaxStringBytes: 1 << 16, MaxMaterializedBytes: 1 << 20}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, refs, err := dec.DecodeReferenced(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Codec != "goon" || de.Line < 1 || !strings.HasPrefix(err.Error(), "goon: line ") {
				t.Fatalf("error %q (%T) is not a positioned goon error", err, err)
			}
			if r != nil || refs != nil {
				t.Fatalf("a response came back with error %v", err)
			}
			return
		}
		for k, i := range refs {
			if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] || r.Nodes[i].Properties != nil {
				t.Fatalf("positions %v: not ascending positions of nodes without properties (%d nodes)", refs, len(r.Nodes))
			}
		}
		first, err := c.AppendReferenced(nil, r, refs)
		if err != nil {
			t.Fatalf("a decoded response does not encode: %v\ninput:\n%q", err, data)
		}
		again, refs2, err := dec.DecodeReferenced(first)
		if err != nil {
			t.Fatalf("the encoder's output does not decode: %v\n%s", err, first)
		}
		second, err := c.AppendReferenced(nil, again, refs2)
		if err != nil {
			t.Fatal(err)
		}
		if string(first) != string(second) || len(refs2) != len(refs) {
			t.Fatalf("fixed point broken\ninput:\n%q\nfirst:\n%s\nsecond:\n%s", data, first, second)
		}
	})
}
