package gcf_test

import (
	"bytes"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecodeDelta: DecodeDelta never panics, and a delta it reads writes
// text that reads back to the same delta.
func FuzzDecodeDelta(f *testing.F) {
	for _, c := range corpus.Generate()[:12] {
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
			if b, err := gcf.Default().AppendDelta(nil, d); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := gcf.Default().DecodeDelta(data)
		if err != nil {
			return
		}
		b, err := gcf.Default().AppendDelta(nil, d)
		if err != nil {
			// A well-formed payload may hold a delta GCF does not carry
			// exactly (a float 2.0 written as 2.0 reads back as 2.0 but
			// is written 2); it must be refused, not written wrong.
			return
		}
		d2, err := gcf.Default().DecodeDelta(b)
		if err != nil {
			t.Fatalf("the written delta does not read: %v\n%s", err, b)
		}
		if what := delta.Differs(d, d2); what != "" {
			t.Fatalf("the written delta reads back different at %s", what)
		}
		if b2, _ := gcf.Default().AppendDelta(nil, d2); !bytes.Equal(b, b2) {
			t.Fatalf("not a fixed point:\n%s\nthen\n%s", b, b2)
		}
	})
}
