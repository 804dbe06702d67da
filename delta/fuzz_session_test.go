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
