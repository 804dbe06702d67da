package delta_test

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// FuzzResolve: a reader's session that remembers a corpus response and a
// node of 16 KiB reads any text in any session codec, under a registry
// whose MaxMaterializedBytes (256 KiB) a few references to that node
// pass, without a panic. An error is ErrUnresolved or a *wire.DecodeError
// and leaves the session as it was; a response it returns obeys the
// registry's limits: wire.Limits.Check, and a canonical JSON size within
// MaterializedLimit of the text's length plus the remembered nodes'
// bytes.
func FuzzResolve(f *testing.F) {
	lim := wire.Limits{MaxMaterializedBytes: 256 << 10}
	g, err := codecs.NewRegistry(codecs.Options{Limits: lim})
	if err != nil {
		f.Fatal(err)
	}
	remembered := corpus.Generate()[0].Response
	for _, c := range corpus.Generate() {
		if n := len(c.Response.Nodes); n > 0 && n <= 40 {
			remembered = wiretest.Clone(c.Response)
			break
		}
	}
	big := bigNode(16 << 10)
	remembered.Nodes = append(remembered.Nodes, big)
	bound := wirecodec.MaterializedSize(remembered) + wirecodec.InMemorySize(remembered)
	for k, codec := range sessionCodecs {
		w, _ := delta.NewSession(delta.SessionLimits{})
		for range 2 { // in full, then every node a reference
			text, _, err := w.Encode(g, codec, remembered)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(k), text)
		}
		f.Add(uint8(k), referencingText(f, codec, big, 20))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		codec := sessionCodecs[int(which)%len(sessionCodecs)]
		reader, _ := delta.NewSession(delta.SessionLimits{})
		if _, err := reader.Resolve(remembered, nil, delta.Hash{}); err != nil {
			t.Fatal(err)
		}
		nodes, bytes := reader.Len()
		out, err := reader.Decode(g, codec, data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.Is(err, delta.ErrUnresolved) && !errors.As(err, &de) {
				t.Fatalf("error %T %v, want ErrUnresolved or a *wire.DecodeError", err, err)
			}
			if n, b := reader.Len(); n != nodes || b != bytes {
				t.Fatalf("after %v the reader remembers %d nodes, %d bytes; want %d, %d", err, n, b, nodes, bytes)
			}
			return
		}
		if size, most := wirecodec.MaterializedSize(out), wirecodec.MaterializedLimit(lim, int64(len(data))+bound); size > most {
			t.Fatalf("resolved to %d bytes of canonical JSON from %d bytes, more than %d", size, len(data), most)
		}
		if err := wirecodec.Check(lim, codec, out); err != nil {
			t.Fatalf("the resolved response breaks the limits: %v", err)
		}
	})
}

// FuzzSessionPatch: a reader's session that remembers a corpus response
// reads any document as a delta written in the session, in any session
// codec, against that response, without a panic. An error is one of the
// package's (ErrUnresolved, ErrNotDelta, ErrWrongBase, ErrCorrupt) or a
// *wire.DecodeError, and leaves the session as it was; a result obeys
// the registry's limits.
func FuzzSessionPatch(f *testing.F) {
	g := newRegistry(f)
	var base *wire.GraphResponse
	for _, c := range corpus.Generate() {
		if n := len(c.Response.Nodes); n > 0 && n <= 40 {
			base = wiretest.Clone(c.Response)
			break
		}
	}
	next := wiretest.Clone(base)
	next.Nodes = append(next.Nodes[1:], next.Nodes[0])
	next.Nodes[0].Properties = nil
	for k, codec := range sessionCodecs {
		c, _ := g.Lookup(codec)
		_, _, d := heldDiff(f, c, base, next)
		w, _ := delta.NewSession(delta.SessionLimits{})
		if _, _, err := w.Encode(g, codec, next); err != nil {
			f.Fatal(err)
		}
		text, err := w.EncodeDelta(g, codec, d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(k), text)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		codec := sessionCodecs[int(which)%len(sessionCodecs)]
		reader, _ := delta.NewSession(delta.SessionLimits{})
		c, _ := g.Lookup(codec)
		held, ok := heldBy(c, next)
		if !ok {
			t.Fatal("the codec cannot carry the response")
		}
		if _, err := reader.Resolve(held, nil, delta.Hash{}); err != nil {
			t.Fatal(err)
		}
		start, _ := heldBy(c, base)
		nodes, bytes := reader.Len()
		out, err := reader.Patch(g, codec, start, data)
		if err != nil {
			var de *wire.DecodeError
			var pe *delta.PatchError
			if !errors.As(err, &de) && !errors.As(err, &pe) && !errors.Is(err, delta.ErrUnresolved) && !errors.Is(err, delta.ErrNotDelta) {
				t.Fatalf("error %T %v", err, err)
			}
			if n, b := reader.Len(); n != nodes || b != bytes {
				t.Fatalf("after %v the reader remembers %d nodes, %d bytes; want %d, %d", err, n, b, nodes, bytes)
			}
			return
		}
		if err := wirecodec.Check(g.Limits(), codec, out); err != nil {
			t.Fatalf("the patched response breaks the limits: %v", err)
		}
	})
}
