package wirecodec_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// errText is err's text, "" for nil, for comparing two errors.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// escapingResponse draws a response with awkward names and, half the
// time, a string that escapes many bytes.
func escapingResponse(t *rapid.T) *wire.GraphResponse {
	r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}).Draw(t, "r")
	if len(r.Nodes) > 0 && rapid.Bool().Draw(t, "escapes") {
		r.Nodes[0].Properties = append(r.Nodes[0].Properties, wire.Prop("esc", wire.String(rawString.Draw(t, "s"))))
	}
	return r
}

// TestMeasureAgreesWithCheckSize: on responses with strings that escape
// many bytes, few or none, under limits drawn around the response's own
// sizes, Measure refuses exactly what CheckSize refuses with the same
// error, and its Measurement's CheckExpansion and Exceeds say for every
// encoding length what CheckExpansion says with CheckSize's size.
func TestMeasureAgreesWithCheckSize(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := escapingResponse(t)
		full := wirecodec.MaterializedSize(r)
		codec := rapid.SampledFrom([]string{"json", "toon", "msgpack"}).Draw(t, "codec")
		l := wire.Limits{
			// Near the size, where the bounds do not settle it, or the
			// default, far above it, where they do.
			MaxMaterializedBytes: rapid.OneOf(rapid.Int64Range(max(full-64, 1), full+64), rapid.Just(int64(0))).Draw(t, "max_materialized"),
			MaxExpansion:         rapid.IntRange(1, 4).Draw(t, "max_expansion"),
		}
		m, err := wirecodec.Measure(l, codec, r)
		size, cerr := wirecodec.CheckSize(l, codec, r)
		if d := cmp.Diff(errText(cerr), errText(err)); d != "" {
			t.Fatalf("Measure and CheckSize disagree (-CheckSize +Measure):\n%s", d)
		}
		if err != nil {
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Fatalf("Measure: %T, want *wire.EncodeError", err)
			}
			return
		}
		lo, hi := m.JSONBounds()
		if full < lo || full > hi {
			t.Fatalf("canonical JSON of %d bytes outside the bounds [%d, %d]", full, lo, hi)
		}
		if hint := int64(m.SizeHint()); hint < lo || hint > lo+lo/16+64 {
			t.Fatalf("SizeHint %d, want the unescaped length %d and a sixteenth more", hint, lo)
		}
		limit := rapid.Int64Range(0, 2*size+64).Draw(t, "limit")
		if got, want := m.Exceeds(limit), size > limit; got != want {
			t.Fatalf("Exceeds(%d) = %v, want %v (size %d)", limit, got, want, size)
		}
		n := rapid.Int64Range(0, size+64).Draw(t, "n")
		if d := cmp.Diff(errText(wirecodec.CheckExpansion(l, codec, size, n)), errText(m.CheckExpansion(n))); d != "" {
			t.Fatalf("CheckExpansion(%d) disagrees (-Limits +Measurement):\n%s", n, d)
		}
	})
}

// TestMeasureNil: a nil response measures as nothing and expands to
// nothing.
func TestMeasureNil(t *testing.T) {
	m, err := wirecodec.Measure(wire.Limits{}, "json", nil)
	if err != nil || m.SizeHint() != 0 || m.CheckExpansion(0) != nil || m.Exceeds(0) {
		t.Fatalf("Measure(nil) = %+v, %v", m, err)
	}
}

// TestMeasureExpansionOfEscapes: a response whose strings are escaped
// six bytes a byte is refused for the encoding lengths CheckSize's size
// refuses, measured exactly, and accepted for the others; one whose
// strings escape nothing likewise, without the exact measure changing
// the bounds.
func TestMeasureExpansionOfEscapes(t *testing.T) {
	for _, fill := range []byte{0x01, 'a'} {
		big := string(bytesOf(fill, 1<<20))
		r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search,
			Nodes: []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop("a", wire.String(big)), wire.Prop("b", wire.String(big))}}}}
		l := wire.Limits{MaxExpansion: 1}
		size, err := wirecodec.CheckSize(l, "toon", r)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{0, 1 << 20, 4 << 20, size - wirecodec.ExpansionAllowance - 1, size - wirecodec.ExpansionAllowance, 16 << 20} {
			m, err := wirecodec.Measure(l, "toon", r)
			if err != nil {
				t.Fatal(err)
			}
			want, got := wirecodec.CheckExpansion(l, "toon", size, n), m.CheckExpansion(n)
			if d := cmp.Diff(errText(want), errText(got)); d != "" {
				t.Errorf("fill %q, n %d: CheckExpansion disagrees (-Limits +Measurement):\n%s", fill, n, d)
			}
		}
	}
}

func bytesOf(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}

// TestWithinSettlesOnlyWhatTheMeterAccepts: Within never accepts a
// response a Meter refuses, under limits drawn around the response's own
// sizes and an input length drawn around them too, with strings that
// escape many bytes or none; under the default limits and an input as
// long as its canonical JSON, it accepts a response that escapes nothing.
func TestWithinSettlesOnlyWhatTheMeterAccepts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := escapingResponse(t)
		full := wirecodec.MaterializedSize(r)
		l := wire.Limits{
			MaxMaterializedBytes: rapid.OneOf(rapid.Int64Range(max(full-64, 1), 7*full+64), rapid.Just(int64(0))).Draw(t, "max_materialized"),
			MaxExpansion:         rapid.IntRange(1, 4).Draw(t, "max_expansion"),
		}
		n := rapid.IntRange(0, int(full)+64).Draw(t, "input")
		m := wirecodec.NewMeter(l, n)
		_, exact := m.Response(r)
		if wirecodec.Within(l, n, r) && !exact {
			t.Fatalf("Within accepts a response the Meter refuses (%s)", m.Msg())
		}
	})
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop("a", wire.String("plain"))}}}}
	if !wirecodec.Within(wire.Limits{}, int(wirecodec.MaterializedSize(r)), r) {
		t.Fatal("Within refuses a small response under the default limits")
	}
}
