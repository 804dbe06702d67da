package delta_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// validDeltas are the json documents of deltas between the harness's fixed
// responses and of a large generated one.
func validDeltas(t *testing.T) [][]byte {
	rs := wiretest.FixedResponses()
	var out [][]byte
	for i := range rs {
		for j := range rs {
			_, b := deltatest.Document(t, jsonc, rs[i], rs[j])
			out = append(out, b)
		}
	}
	p := pairGen().Example(7)
	d, _ := delta.Diff(p[0], p[1])
	b, err := delta.AppendDelta(jsonc, nil, d)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, b)
}

// TestDecodeHostile feeds the json codec's delta reader the harness's hostile inputs (every
// prefix, byte flips, huge declared numbers, deep nesting, invalid UTF-8,
// NULs, a valid prefix repeated to 8 MiB): each must give a one-line
// *wire.DecodeError naming "json", or a delta that writes the same bytes
// again, within 2 s + 200 ns/byte and 8 MiB + 64 bytes/byte allocated.
func TestDecodeHostile(t *testing.T) {
	if testing.Short() || testsupport.Race {
		t.Skip("hostile inputs take a while and time bounds hold without the race detector (.ci/run runs it so)")
	}
	valid := validDeltas(t)
	var n, refused int
	for in := range wiretest.Hostile(valid, 8<<20) {
		n++
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		d, err := delta.DecodeDelta(jsonc, in.Data)
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m1)
		alloc := m1.TotalAlloc - m0.TotalAlloc
		if lim := 2*time.Second + time.Duration(len(in.Data))*200*time.Nanosecond; elapsed > lim {
			t.Errorf("%s %s: %v, over %v", in.Class, in.Name, elapsed, lim)
		}
		if lim := uint64(8<<20 + 64*len(in.Data)); alloc > lim {
			t.Errorf("%s %s: allocated %d bytes, over %d", in.Class, in.Name, alloc, lim)
		}
		if err != nil {
			refused++
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Codec != "json" || strings.ContainsAny(err.Error(), "\r\n") {
				t.Errorf("%s %s: error %T %q, want a one-line *wire.DecodeError of codec json", in.Class, in.Name, err, err)
			}
			if d != nil {
				t.Errorf("%s %s: both a delta and an error", in.Class, in.Name)
			}
			continue
		}
		b, err := delta.AppendDelta(jsonc, nil, d)
		if err != nil {
			continue // accepted, yet not writable again: rows added to a result without rows is refused by Patch too
		}
		d2, err := delta.DecodeDelta(jsonc, b)
		if err != nil {
			t.Errorf("%s %s: the accepted delta re-encodes to bytes that do not decode: %v", in.Class, in.Name, err)
			continue
		}
		if b2, _ := delta.AppendDelta(jsonc, nil, d2); !bytes.Equal(b, b2) {
			t.Errorf("%s %s: not stable", in.Class, in.Name)
		}
	}
	t.Logf("%d hostile inputs, %d refused with a *wire.DecodeError", n, refused)
}

// TestDecodeMemory: decoding a large delta holds at most 16 times its size
// plus 16 MiB at its peak.
func TestDecodeMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector's shadow memory distorts heap figures (.ci/run runs it without)")
	}
	n := 40_000
	if testing.Short() {
		n = 5_000
	}
	base := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	next := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := range n {
		base.Nodes = append(base.Nodes, wire.Node{Type: "A", ID: int64(i), Properties: []wire.Property{wire.Prop("k", wire.Int(int64(i)))}})
		base.Edges = append(base.Edges, wire.Edge{From: "A", FromID: int64(i), To: "A", ToID: int64(i + 1), Type: "R"})
		next.Nodes = append(next.Nodes, wire.Node{Type: "B", ID: int64(i), Properties: []wire.Property{wire.Prop("k", wire.String("v"))}})
		next.Edges = append(next.Edges, wire.Edge{From: "B", FromID: int64(i), To: "B", ToID: int64(i + 1), Type: "R"})
	}
	_, b := deltatest.Document(t, jsonc, base, next)
	var got *delta.Delta
	var err error
	f := wiretest.Measure(func() { got, err = delta.DecodeDelta(jsonc, b) })
	if err != nil {
		t.Fatal(err)
	}
	if bound := wiretest.DecodeMemoryBound(len(b)); f.PeakHeap > bound {
		t.Errorf("decoding %d bytes: %v, over the bound of %d bytes", len(b), f, bound)
	}
	t.Logf("decoding a delta of %d bytes (%d nodes and %d edges removed, as many added): %v (%.1fx the input)",
		len(b), len(got.Nodes.Removed), len(got.Edges.Removed), f, float64(f.PeakHeap)/float64(len(b)))
	if _, err := delta.Patch(base, got); err != nil {
		t.Fatal(err)
	}
}
