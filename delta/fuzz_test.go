package delta_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// FuzzDecodeDelta: any input read as a json delta document decodes or
// gives a *wire.DecodeError, never a panic; a decoded delta writes bytes
// that decode to the same bytes again; and Patch of a known base gives an
// error or a response whose check with the base is the delta's, never a
// panic.
func FuzzDecodeDelta(f *testing.F) {
	bases := wiretest.FixedResponses()
	for i, base := range bases {
		next := bases[(i+1)%len(bases)]
		for _, pair := range [][2]*wire.GraphResponse{{base, next}, {base, base}} {
			_, b := deltatest.Document(f, jsonc, pair[0], pair[1])
			f.Add(b)
		}
	}
	f.Add([]byte(`{"graphwire_delta":"000000000000000000000000000000000000000"}`))
	f.Add([]byte(`{"graphwire_delta":"000000000000000000000000000000000000000","nodes_removed":[0,0],"nodes_moved":[1],"nodes_moved_to":[0],"nodes_changed":[0],"nodes_added":[3],"rows_moved":[1],"rows_moved_to":[0],"content":{"format_version":"1","query_type":"search","nodes":[],"edges":[]}}`))
	f.Add([]byte(`{"graphwire_delta":1,"base":"sha256:00"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := delta.DecodeDelta(jsonc, data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v, want *wire.DecodeError", err, err)
			}
			return
		}
		b, err := delta.AppendDelta(jsonc, nil, d)
		if err != nil {
			return // content the encoder refuses (a limit)
		}
		d2, err := delta.DecodeDelta(jsonc, b)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		b2, err := delta.AppendDelta(jsonc, nil, d2)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("not stable: %v\n%s", err, wiretest.ByteDiff(b, b2))
		}
		for _, base := range bases {
			got, err := delta.Patch(base, d)
			if err == nil && delta.MakeCheck(delta.Fingerprint(base), delta.Fingerprint(got)) != d.Check {
				t.Fatalf("Patch gave a response that does not match the delta's check")
			}
		}
	})
}
