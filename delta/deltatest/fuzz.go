package deltatest

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecode is the body of a codec's FuzzDecodeDelta: it seeds f with the
// codec's deltas of the first corpus cases (as normalize reads them back,
// 20% changed, and unchanged), then holds that DecodeDelta never panics and
// that a delta it reads writes text that reads back to a fixed point. A
// lossy codec's AppendDelta may refuse, with a *wire.EncodeError, a delta
// it would not carry exactly (one edited by hand can hold such values);
// any other failure to write fails the target.
func FuzzDecode(f *testing.F, c delta.Codec, normalize func(*wire.GraphResponse) (*wire.GraphResponse, error)) {
	for _, cs := range corpus.Generate()[:6] {
		base, err := normalize(cs.Response)
		if err != nil {
			f.Fatal(err)
		}
		next, err := normalize(ChangeRate(cs.Response, 20))
		if err != nil {
			f.Fatal(err)
		}
		for _, n := range []*wire.GraphResponse{next, base} {
			d, err := delta.Diff(base, n)
			if err != nil {
				f.Fatal(err)
			}
			b, err := c.AppendDelta(nil, d)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := c.DecodeDelta(data)
		if err != nil {
			return
		}
		b, err := c.AppendDelta(nil, d)
		var ee *wire.EncodeError
		if errors.As(err, &ee) {
			return
		}
		if err != nil {
			t.Fatalf("a decoded delta does not write, and the error is not an *wire.EncodeError: %v", err)
		}
		d2, err := c.DecodeDelta(b)
		if err != nil {
			t.Fatalf("the written delta does not read: %v\n%s", err, b)
		}
		if b2, _ := c.AppendDelta(nil, d2); !bytes.Equal(b, b2) {
			t.Fatalf("not a fixed point:\n%s\nthen\n%s", b, b2)
		}
	})
}
