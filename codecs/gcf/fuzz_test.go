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

// FuzzDecodeFast: on any input, Decode (the table sinks) and the generic
// tables agree: the same response, or an error each.
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
