package binary

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// FuzzDecodeReferenced: DecodeReferenced never panics in either format; an
// error is a *wire.DecodeError inside the input; what it reads writes again
// with the same references, reads back the same, and writes the same
// bytes again (a fixed point).
func FuzzDecodeReferenced(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(uint8(0), s)
	}
	ws, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range corpus.Generate()[:4] {
		for _, r := range []*wire.GraphResponse{c.Response, deltatest.ChangeRate(c.Response, 20)} {
			refs := ws.Mark(r)
			for i, fm := range formats {
				b, err := Default(fm).AppendReferenced(nil, r, refs)
				if err != nil {
					f.Fatal(err)
				}
				if len(b) < 4<<10 {
					f.Add(uint8(i), b)
				}
			}
		}
	}
	// The package documentation's example, a reference before a node
	// and an edge that use its name.
	small := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Traversal, Nodes: []wire.Node{
		{Type: "User", ID: 1}, {Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("name", wire.String("bob"))}},
		{Type: "Group", ID: -7},
	}, Edges: []wire.Edge{{From: "User", FromID: 1, To: "Group", ToID: -7, Type: "IN"}}}
	for i, fm := range formats {
		for _, refs := range [][]int{{0}, {0, 2}, {1}} {
			b, err := Default(fm).AppendReferenced(nil, small, refs)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), b)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fm := formats[int(which)%len(formats)]
		c := Default(fm)
		r, refs, err := c.DecodeReferenced(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Codec != fm.String() || de.Offset < 0 || de.Offset > int64(len(data)) {
				t.Fatalf("%s: bad error %T: %v", fm, err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: error on more than one line: %q", fm, err)
			}
			return
		}
		b, err := c.AppendReferenced(nil, r, refs)
		if err != nil {
			t.Fatalf("%s: a decoded response with references %v does not encode: %v", fm, refs, err)
		}
		r2, refs2, err := c.DecodeReferenced(b)
		if err != nil {
			t.Fatalf("%s: the re-encoding does not decode: %v", fm, err)
		}
		if diff := cmp.Diff(refs, refs2); diff != "" {
			t.Fatalf("%s: references changed (-first +second):\n%s", fm, diff)
		}
		if diff := wiretest.Diff(r, r2, wire.Exact); diff != "" {
			t.Fatalf("%s: the re-encoding changed the response (-first +second):\n%s", fm, diff)
		}
		if b2, _ := c.AppendReferenced(nil, r2, refs2); !bytes.Equal(b, b2) {
			t.Fatalf("%s: not a fixed point", fm)
		}
	})
}
