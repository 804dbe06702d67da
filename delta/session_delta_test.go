package delta_test

import (
	"bytes"
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// newRegistry is a registry of every built-in codec under the default
// Limits, of its own.
func newRegistry(t testing.TB) *wire.Registry {
	t.Helper()
	g, err := codecs.NewRegistry(codecs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// largestCase is the corpus case of the most nodes, at most max.
func largestCase(max int) corpus.Case {
	cases := corpus.Generate()
	c := cases[0]
	for _, cc := range cases {
		if n := len(cc.Response.Nodes); n > len(c.Response.Nodes) && n <= max {
			c = cc
		}
	}
	return c
}

// heldBy is r as a reader of codec holds it: Decode(Encode(r)); false when
// the codec cannot carry r.
func heldBy(c wire.Codec, r *wire.GraphResponse) (*wire.GraphResponse, bool) {
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		return nil, false
	}
	h, err := c.Decode(b)
	return h, err == nil
}

// heldDiff returns base and next as a reader of c holds them, and the
// Diff between the two.
func heldDiff(t testing.TB, c wire.Codec, base, next *wire.GraphResponse) (*wire.GraphResponse, *wire.GraphResponse, *delta.Delta) {
	t.Helper()
	b, _ := heldBy(c, base)
	n, _ := heldBy(c, next)
	d, err := delta.Diff(b, n)
	if err != nil {
		t.Fatal(err)
	}
	return b, n, d
}

// TestSessionDeltaReferences is the property of a delta written in a
// session, in every codec: a writer that sent a response (the result of
// another query) and then the base, and sends the delta from the base to
// the result, writes the nodes of the delta's content it sent before as
// references in the same document; the reader's Session.Patch gives the
// result exactly as the codec carries it, and the two sessions remember
// the same. A reader without the session (DecodeDelta) refuses the
// document, and a reader whose session lacks the nodes gets
// ErrUnresolved and stays as it was.
func TestSessionDeltaReferences(t *testing.T) {
	g := newRegistry(t)
	refDeltas := map[string]int{}
	per := wiretest.PerCase(300)
	rapid.Check(t, func(rt *rapid.T) {
		for range per {
			name := rapid.SampledFrom(sessionCodecs).Draw(rt, "codec")
			c, _ := g.Lookup(name)
			pair := deltatest.PairGen().Draw(rt, "pair")
			base, okB := heldBy(c, pair[0])
			next, okN := heldBy(c, pair[1])
			if !okB || !okN {
				continue
			}
			writer, _ := delta.NewSession(delta.SessionLimits{})
			reader, _ := delta.NewSession(delta.SessionLimits{})
			for _, r := range []*wire.GraphResponse{pair[1], pair[0]} {
				text, held, err := writer.Encode(g, name, r)
				if err != nil {
					rt.Fatalf("%s: Encode: %v", name, err)
				}
				got, err := reader.Decode(g, name, text)
				if err != nil {
					rt.Fatalf("%s: Decode: %v", name, err)
				}
				if diff := wiretest.Diff(held, got, wire.Exact); diff != "" {
					rt.Fatalf("%s: Encode's held response is not what Decode read (-held +read):\n%s", name, diff)
				}
			}
			d, err := delta.Diff(base, next)
			if err != nil {
				rt.Fatal(err)
			}
			text, err := writer.EncodeDelta(g, name, d)
			if err != nil {
				var ee *wire.EncodeError
				if c.Info().Fidelity == wire.Lossy && errors.As(err, &ee) {
					continue // a delta the lossy codec would not carry exactly
				}
				rt.Fatalf("%s: EncodeDelta: %v", name, err)
			}
			if bytes.Contains(text, []byte(delta.FieldSentEarlier)) {
				refDeltas[name]++
				if _, err := delta.DecodeDelta(c, text); err == nil {
					rt.Fatalf("%s: DecodeDelta read a delta with references without a session", name)
				}
				stranger, _ := delta.NewSession(delta.SessionLimits{})
				if _, err := stranger.Patch(g, name, base, text); !errors.Is(err, delta.ErrUnresolved) {
					rt.Fatalf("%s: Patch in a session without the nodes: %v, want ErrUnresolved", name, err)
				}
				if n, _ := stranger.Len(); n != 0 {
					rt.Fatalf("%s: a failed Patch remembered %d nodes", name, n)
				}
			}
			got, err := reader.Patch(g, name, base, text)
			if err != nil {
				rt.Fatalf("%s: Patch: %v\n%s", name, err, text)
			}
			if diff := wiretest.Diff(next, got, wire.Exact); diff != "" {
				rt.Fatalf("%s: patched (-want +got):\n%s", name, diff)
			}
			wn, wb := writer.Len()
			rn, rb := reader.Len()
			if wn != rn || wb != rb {
				rt.Fatalf("%s: writer remembers %d nodes (%d bytes), reader %d (%d bytes)", name, wn, wb, rn, rb)
			}
		}
	})
	t.Logf("deltas with references, by codec: %v", refDeltas)
	for _, name := range sessionCodecs {
		if refDeltas[name] == 0 {
			t.Errorf("no delta in %s carried references", name)
		}
	}
}

// TestSessionPatchPlainDelta: Session.Patch reads a delta written without
// a session, and refuses a response (ErrNotDelta).
func TestSessionPatchPlainDelta(t *testing.T) {
	first := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{{Key: "name", Value: wire.String("a")}}}}}
	second := wiretest.Clone(first)
	second.Nodes[0].Properties[0].Value = wire.String("b")
	for _, name := range sessionCodecs {
		c, _ := wire.DefaultRegistry().Lookup(name)
		base, next, d := heldDiff(t, c, first, second)
		s, _ := delta.NewSession(delta.SessionLimits{})
		text, err := delta.EncodeWith(nil, name, d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Patch(nil, name, base, text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := wiretest.Diff(next, got, wire.Exact); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
		plain, _, _ := s.Encode(nil, name, next)
		if _, err := s.Patch(nil, name, base, plain); !errors.Is(err, delta.ErrNotDelta) {
			t.Errorf("%s: Patch of a response: %v, want ErrNotDelta", name, err)
		}
	}
}

// TestSessionPatchWriterOnly: a session restored from its state writes
// and resolves nothing, deltas included.
func TestSessionPatchWriterOnly(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{{Key: "name", Value: wire.String("a")}}}}}
	next := wiretest.Clone(r)
	next.Nodes[0].Properties[0].Value = wire.String("b")
	d, err := delta.Diff(r, next)
	if err != nil {
		t.Fatal(err)
	}
	text, err := delta.EncodeWith(nil, "json", d)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := delta.NewSession(delta.SessionLimits{})
	restored, err := delta.RestoreSession(delta.SessionLimits{}, s.AppendState(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := restored.Patch(nil, "json", r, text); !errors.Is(err, delta.ErrWriterOnly) {
		t.Errorf("Patch in a restored session: %v, want ErrWriterOnly", err)
	}
}

// TestSessionEncodeHeld: for every session codec and generated
// responses, Session.Encode's held response is what the codec's reader
// holds, Decode(Encode(r)), exactly; and a codec that keeps numbers by
// value (toon, gcf) carries a response without floats exactly, which
// Encode relies on to write such a response as it is.
func TestSessionEncodeHeld(t *testing.T) {
	g := newRegistry(t)
	var floatFree, withFloats int
	rapid.Check(t, func(rt *rapid.T) {
		for range 10 {
			checkHeld(rt, g, &floatFree, &withFloats)
		}
	})
	t.Logf("numbers by value: %d responses carried exactly, %d changed (each holding a float)", floatFree, withFloats)
}

// checkHeld is one case of TestSessionEncodeHeld.
func checkHeld(rt *rapid.T, g *wire.Registry, floatFree, withFloats *int) {
	name := rapid.SampledFrom(sessionCodecs).Draw(rt, "codec")
	c, _ := g.Lookup(name)
	r := wiretest.Response().Draw(rt, "r")
	want, ok := heldBy(c, r)
	if !ok {
		return
	}
	w, _ := delta.NewSession(delta.SessionLimits{})
	_, held, err := w.Encode(g, name, r)
	if err != nil {
		rt.Fatalf("%s: %v", name, err)
	}
	if diff := wiretest.Diff(want, held, wire.Exact); diff != "" {
		rt.Fatalf("%s: held (-Decode(Encode(r)) +held):\n%s", name, diff)
	}
	if c.Info().Fidelity != wire.NumbersByValue {
		return
	}
	if !wire.Equal(r, want, wire.Exact) {
		*withFloats++
		if !responseHoldsFloat(r) {
			rt.Fatalf("%s changed a response without floats:\n%s", name, wiretest.Diff(r, want, wire.Exact))
		}
	} else {
		*floatFree++
	}
}

// responseHoldsFloat reports whether a property or cell value of r is a
// float, at any depth.
func responseHoldsFloat(r *wire.GraphResponse) bool {
	var in func(v wire.Value) bool
	in = func(v wire.Value) bool {
		if v.Kind() == wire.KindFloat {
			return true
		}
		for _, x := range v.List() {
			if in(x) {
				return true
			}
		}
		return false
	}
	props := func(ps []wire.Property) bool {
		for _, p := range ps {
			if in(p.Value) {
				return true
			}
		}
		return false
	}
	for _, n := range r.Nodes {
		if props(n.Properties) {
			return true
		}
	}
	for _, row := range r.Rows {
		for _, c := range row {
			if in(c.Value) || c.Node != nil && props(c.Node.Properties) {
				return true
			}
		}
	}
	return false
}
