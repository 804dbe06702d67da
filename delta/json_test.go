package delta_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestJSONRoundTrip: the JSON form of Diff(base, next) decodes to a Delta
// that writes the same bytes and patches base into next exactly; every
// truncation of it is a *wire.DecodeError; every one-byte alteration is an
// error (decoding or patching) or, where the byte did not change the
// meaning, still gives next exactly, never another response.
func TestJSONRoundTrip(t *testing.T) {
	n := 6000
	if testing.Short() {
		n = 3000
	}
	per := wiretest.PerCase(n)
	var pairs, altered, alteredErr int
	rapid.Check(t, func(rt *rapid.T) {
		for range per {
			awkward := rapid.Bool().Draw(rt, "awkward")
			p := pairGenWith(wiretest.Options{AwkwardNames: awkward}).Draw(rt, "pair")
			base, next := p[0], p[1]
			d, err := delta.Diff(base, next)
			if err != nil {
				rt.Fatal(err)
			}
			b, err := delta.AppendJSON(nil, d)
			if err != nil {
				rt.Fatalf("AppendJSON: %v", err)
			}
			d2, err := delta.DecodeJSON(b, wire.Limits{})
			if err != nil {
				rt.Fatalf("DecodeJSON: %v\n%s", err, b)
			}
			b2, err := delta.AppendJSON(nil, d2)
			if err != nil || !bytes.Equal(b, b2) {
				rt.Fatalf("re-encoding the decoded delta: %v\n%s", err, wiretest.ByteDiff(b, b2))
			}
			got, err := delta.Patch(base, d2)
			if err != nil {
				rt.Fatalf("Patch with the decoded delta: %v\n%s", err, b)
			}
			if diff := wiretest.Diff(next, got, wire.Exact); diff != "" {
				rt.Fatalf("patched response differs from next (-want +got):\n%s", diff)
			}

			cut := rapid.IntRange(0, len(b)-1).Draw(rt, "cut")
			var de *wire.DecodeError
			if _, err := delta.DecodeJSON(b[:cut], wire.Limits{}); !errors.As(err, &de) {
				rt.Fatalf("DecodeJSON of the first %d of %d bytes: got %v, want a *wire.DecodeError", cut, len(b), err)
			}

			bad := bytes.Clone(b)
			at := rapid.IntRange(0, len(b)-1).Draw(rt, "alter_at")
			bad[at] ^= byte(rapid.IntRange(1, 255).Draw(rt, "alter_xor"))
			altered++
			if d3, err := delta.DecodeJSON(bad, wire.Limits{}); err != nil {
				alteredErr++
			} else if got, err := delta.Patch(base, d3); err != nil {
				alteredErr++
			} else if diff := wiretest.Diff(next, got, wire.Exact); diff != "" {
				rt.Fatalf("an altered delta gave a wrong response (byte %d):\n%s\n(-want +got):\n%s", at, bad, diff)
			}
			pairs++
		}
	})
	t.Logf("%d pairs round-tripped; %d of %d one-byte alterations refused, the rest gave next exactly", pairs, alteredErr, altered)
	if !testing.Short() && pairs < n {
		t.Errorf("only %d pairs", pairs)
	}
}

// TestEncodingJSON: a Delta inside a value marshalled by encoding/json is
// written in its JSON form and read back.
func TestEncodingJSON(t *testing.T) {
	p := pairGen().Example(3)
	d, err := delta.Diff(p[0], p[1])
	if err != nil {
		t.Fatal(err)
	}
	type envelope struct {
		Delta *delta.Delta `json:"delta"`
	}
	b, err := json.Marshal(envelope{d})
	if err != nil {
		t.Fatal(err)
	}
	var got envelope
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	r, err := delta.Patch(p[0], got.Delta)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(p[1], r, wire.Exact); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var keep delta.Delta
	keep.Base[0] = 1
	if err := json.Unmarshal([]byte(" null "), &keep); err != nil || keep.Base[0] != 1 {
		t.Errorf("null: %v, delta changed", err)
	}
}
