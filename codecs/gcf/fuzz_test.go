package gcf_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// FuzzDecode: Decode never panics, and what it accepts encodes and reads
// back the same under the codec's fidelity.
func FuzzDecode(f *testing.F) {
	c, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxInputBytes: 1 << 20, MaxElements: 10_000}})
	if err != nil {
		f.Fatal(err)
	}
	for i, cs := range corpus.Generate() {
		if i%3 != 0 {
			continue
		}
		if out, err := c.AppendEncode(nil, cs.Response); err == nil && len(out) < 4096 {
			f.Add(out)
		}
	}
	f.Add([]byte("GCF profile=generic\nformat_version=1.2.0\nquery_type=search\n## nodes [0]\n## edges [0]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := c.Decode(data)
		if err != nil {
			return
		}
		out, err := c.AppendEncode(nil, r)
		if err != nil {
			return // a response the encoder refuses (a '>' name out of order, ...)
		}
		back, err := c.Decode(out)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, out)
		}
		if d := wiretest.Diff(r, back, c.Info().Fidelity); d != "" {
			t.Fatalf("round trip (-first +second):\n%s\n%s", d, out)
		}
	})
}

// FuzzDecodeFast: on any input, Decode (the reader first) and the generic
// path agree: the same response under wire.Exact, or the same error.
func FuzzDecodeFast(f *testing.F) {
	c, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxInputBytes: 1 << 20, MaxElements: 10_000}})
	if err != nil {
		f.Fatal(err)
	}
	for _, r := range append(wiretest.FixedResponses(), sessionResponse()) {
		if out, err := c.AppendEncode(nil, r); err == nil && len(out) < 4096 {
			f.Add(out)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameReadAsGeneric(t, c, data)
	})
}

// FuzzDecodeReferenced: DecodeReferenced never panics; what it accepts
// has its references ascending, in range and without properties, and
// writes and reads back the same.
func FuzzDecodeReferenced(f *testing.F) {
	c, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxInputBytes: 1 << 20, MaxElements: 10_000}})
	if err != nil {
		f.Fatal(err)
	}
	for _, r := range wiretest.FixedResponses() {
		var refs []int
		for k := 0; k < len(r.Nodes); k += 2 {
			refs = append(refs, k)
		}
		if out, err := c.AppendReferenced(nil, r, refs); err == nil && len(out) < 4096 {
			f.Add(out)
		}
	}
	if out, err := c.AppendReferenced(nil, sessionResponse(), []int{1, 2, 3}); err == nil {
		f.Add(out)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, refs, err := c.DecodeReferenced(data)
		if err != nil {
			return
		}
		for k, i := range refs {
			if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] || r.Nodes[i].Properties != nil {
				t.Fatalf("references %v of %d nodes", refs, len(r.Nodes))
			}
		}
		out, err := c.AppendReferenced(nil, r, refs)
		if err != nil {
			return // a response the encoder refuses
		}
		back, backRefs, err := c.DecodeReferenced(out)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, out)
		}
		if d := wiretest.Diff(r, back, c.Info().Fidelity); d != "" {
			t.Fatalf("round trip (-first +second):\n%s\n%s", d, out)
		}
		if len(backRefs) != len(refs) {
			t.Fatalf("references %v, then %v\n%s", refs, backRefs, out)
		}
	})
}
