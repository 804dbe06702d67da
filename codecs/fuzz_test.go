package codecs_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// The cross-codec fuzz target decodes under Limits scaled to the input:
// the response may materialise to at most fuzzGrowth bytes of canonical
// JSON per input byte, plus fuzzSlack. Under the default Limits a binary
// input may legitimately materialise far larger than itself (a name written
// once and referenced by every node), up to MaxMaterializedBytes; scaling
// the limit to the input is what lets the target state a bound on output
// per input byte, and checks that every decoder enforces it.
const (
	fuzzGrowth = 16
	fuzzSlack  = 4096
)

// maxEncodingGrowth bounds any codec's encoding of a response against the
// response's canonical JSON: len(encoding) ≤ maxEncodingGrowth × size +
// 1 KiB. Binary codecs write a float in up to 9 bytes where JSON may take 3
// (0.1), about 3×; TOON indents a list nested d deep by 2 spaces a level,
// which at the default MaxDepth of 32 costs up to about 35 bytes a level
// where JSON takes 2. So an encoding is at most maxEncodingGrowth ×
// fuzzGrowth = 1,024 times its input, plus a constant: never unbounded.
const maxEncodingGrowth = 64

// FuzzCrossCodec decodes its input with every built-in codec. Whatever one
// decodes, every codec must encode — or refuse with a *wire.EncodeError
// that is not a limit error: a response the format cannot carry, such as
// NaN in JSON — and decode back, keeping what its fidelity promises (GOON
// reaching its fixed point); no encoding may exceed maxEncodingGrowth times
// the response's canonical JSON.
func FuzzCrossCodec(f *testing.F) {
	for i := range 6 {
		for _, info := range wire.List() {
			opts := wiretest.Options{AwkwardNames: info.Name != "goon", MaxNodes: 4, MaxRows: 3}
			if b, err := wire.EncodeWith(info.Name, wiretest.ResponseWith(opts).Example(i)); err == nil {
				f.Add(b)
			}
		}
	}
	for _, r := range []*wire.GraphResponse{
		search(user(1, wire.Prop("l", nested(wire.DefaultLimits().MaxDepth)))),
		aggregation(3, nested(8)),
		search(nodesN(40)...),
	} {
		for _, info := range wire.List() {
			if b, err := wire.EncodeWith(info.Name, r); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("\ufeff" + `{"format_version":"1","query_type":"search","nodes":[],"edges":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := wire.Limits{MaxMaterializedBytes: fuzzGrowth*int64(len(data)) + fuzzSlack}
		reg, err := codecs.NewRegistry(codecs.Options{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range reg.List() {
			r, err := reg.DecodeWith(a.Name, data)
			if err != nil {
				var de *wire.DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("%s: decode error %T is not a *wire.DecodeError: %v", a.Name, err, err)
				}
				if len(err.Error()) > 1024 {
					t.Fatalf("%s: a %d-byte error message", a.Name, len(err.Error()))
				}
				continue
			}
			if err := crossCheck(reg, a.Name, r, lim); err != nil {
				t.Fatalf("decoded by %s: %v\ninput: %s\nresponse:\n%s", a.Name, err, wiretest.Quote(data), wiretest.Describe(r))
			}
		}
	})
}

// crossCheck checks that every codec of reg encodes r, decoded by codec
// from, and decodes it back.
func crossCheck(reg *wire.Registry, from string, r *wire.GraphResponse, lim wire.Limits) error {
	size := wirecodec.MaterializedSize(r)
	if size > lim.MaxMaterializedBytes {
		return fmt.Errorf("%s decoded a response of %d bytes materialised, past its limit of %d", from, size, lim.MaxMaterializedBytes)
	}
	for _, b := range reg.List() {
		enc, err := reg.EncodeWith(b.Name, r)
		if err != nil {
			var ee *wire.EncodeError
			switch {
			case !errors.As(err, &ee):
				return fmt.Errorf("%s encode: error %T is not a *wire.EncodeError: %v", b.Name, err, err)
			case errors.Is(err, wire.ErrLimit):
				return fmt.Errorf("%s refuses by a limit what %s decoded under the same Limits: %v", b.Name, from, err)
			case b.Name == "json" && !hasNonFinite(r):
				return fmt.Errorf("json refuses a response without NaN or infinities: %v", err)
			}
			continue
		}
		if bound := maxEncodingGrowth*size + 1024; int64(len(enc)) > bound {
			return fmt.Errorf("%s wrote %d bytes for a response of %d bytes as JSON, more than %d", b.Name, len(enc), size, bound)
		}
		back, err := reg.DecodeWith(b.Name, enc)
		if err != nil {
			return fmt.Errorf("%s cannot decode its own encoding: %v\nencoding: %s", b.Name, err, wiretest.Quote(enc))
		}
		switch b.Fidelity {
		case wire.Exact, wire.NumbersByValue:
			if d := wiretest.Diff(r, back, b.Fidelity); d != "" {
				return fmt.Errorf("%s round trip differs (-decoded +round trip):\n%s", b.Name, d)
			}
		default: // lossy: the encoding is a fixed point
			again, err := reg.EncodeWith(b.Name, back)
			if err != nil {
				return fmt.Errorf("%s cannot encode its own decoding: %v", b.Name, err)
			}
			if !bytes.Equal(enc, again) {
				return fmt.Errorf("%s encoding is not a fixed point %s", b.Name, wiretest.ByteDiff(enc, again))
			}
		}
	}
	return nil
}

func hasNonFinite(r *wire.GraphResponse) bool {
	var bad func(v wire.Value) bool
	bad = func(v wire.Value) bool {
		if v.Kind() == wire.KindFloat {
			f := v.Float()
			return math.IsNaN(f) || math.IsInf(f, 0)
		}
		for _, x := range v.List() {
			if bad(x) {
				return true
			}
		}
		return false
	}
	for _, n := range r.Nodes {
		for _, p := range n.Properties {
			if bad(p.Value) {
				return true
			}
		}
	}
	for _, row := range r.Rows {
		for _, c := range row {
			if bad(c.Value) {
				return true
			}
			if c.Node != nil {
				for _, p := range c.Node.Properties {
					if bad(p.Value) {
						return true
					}
				}
			}
		}
	}
	return false
}
