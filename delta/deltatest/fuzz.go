package deltatest

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecode is the body of a fuzz target of a codec's delta documents: it
// seeds f with the codec's deltas of the first corpus cases (as the codec
// reads them back, 20% changed, and unchanged), then holds that
// delta.DecodeDelta never panics and that a delta it reads writes text
// that reads back to a fixed point. A lossy codec's AppendDelta may
// refuse, with a *wire.EncodeError, a delta it would not carry exactly
// (one edited by hand can hold such values); any other failure to write
// fails the target.
func FuzzDecode(f *testing.F, c wire.Codec) {
	s := CodecSuite{Codec: c}
	for _, cs := range corpus.Generate()[:6] {
		base, next, ok := s.normalize(cs.Response, ChangeRate(cs.Response, 20))
		if !ok {
			f.Fatalf("%s: the codec cannot carry the case", cs.ID())
		}
		for _, n := range []*wire.GraphResponse{next, base} {
			_, b := Document(f, c, base, n)
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := delta.DecodeDelta(c, data)
		if err != nil {
			return
		}
		b, err := delta.AppendDelta(c, nil, d)
		var ee *wire.EncodeError
		if errors.As(err, &ee) {
			return
		}
		if err != nil {
			t.Fatalf("a decoded delta does not write, and the error is not an *wire.EncodeError: %v", err)
		}
		d2, err := delta.DecodeDelta(c, b)
		if err != nil {
			t.Fatalf("the written delta does not read: %v\n%s", err, b)
		}
		if b2, _ := delta.AppendDelta(c, nil, d2); !bytes.Equal(b, b2) {
			t.Fatalf("not a fixed point:\n%s\nthen\n%s", b, b2)
		}
	})
}
