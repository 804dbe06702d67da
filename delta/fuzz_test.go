package delta

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// FuzzDecodeJSON: any input decodes or gives a *wire.DecodeError, never a
// panic; a decoded delta writes bytes that decode to the same bytes again;
// and, given the fingerprint of a known base, Patch on it gives an error
// or a response with the delta's result fingerprint, never a panic.
func FuzzDecodeJSON(f *testing.F) {
	bases := wiretest.FixedResponses()
	for i, base := range bases {
		next := bases[(i+1)%len(bases)]
		for _, pair := range [][2]*wire.GraphResponse{{base, next}, {base, base}} {
			d, err := Diff(pair[0], pair[1])
			if err != nil {
				f.Fatal(err)
			}
			b, err := AppendJSON(nil, d)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{"graphwire_delta":1,"base":"sha256:0000000000000000000000000000000000000000000000000000000000000000","result":"sha256:0000000000000000000000000000000000000000000000000000000000000000","unchanged":true}`))
	f.Add([]byte(`{"graphwire_delta":1,"nodes":{"removed":[{"type":"A","id":"1","n":2}],"moved":[{"type":"A","id":"2","at":0}],"changed":[0],"added_at":[3]},"rows":{"moved":[{"from":1,"at":0}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := DecodeJSON(data, wire.Limits{MaxElements: 1000, MaxStringBytes: 1 << 16})
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v, want *wire.DecodeError", err, err)
			}
			return
		}
		b, err := AppendJSON(nil, d)
		if err != nil {
			return // a decoded delta canonical JSON cannot write again (rows added to a result without rows)
		}
		d2, err := DecodeJSON(b, wire.Limits{})
		if err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		b2, err := AppendJSON(nil, d2)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("not stable: %v\n%s", err, wiretest.ByteDiff(b, b2))
		}
		for _, base := range bases {
			dd := *d
			dd.Base = Fingerprint(base)
			got, err := Patch(base, &dd)
			if err == nil && Fingerprint(got) != dd.Result {
				t.Fatalf("Patch gave a response without the delta's result fingerprint")
			}
		}
	})
}
