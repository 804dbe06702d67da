package delta_test

import (
	"fmt"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// requery returns a response of n nodes (with edges between neighbours)
// and the same response after pct% of its nodes changed a property and
// as many were replaced by new ones.
func requery(n, pct int) (base, next *wire.GraphResponse) {
	mk := func(i int, rev int) wire.Node {
		return wire.Node{Type: "MergeRequest", ID: int64(1000 + i), Properties: []wire.Property{
			wire.Prop("iid", wire.Int(int64(i))),
			wire.Prop("title", wire.String(fmt.Sprintf("Fix the pipeline of project %d", i))),
			wire.Prop("state", wire.String([]string{"opened", "merged"}[rev%2])),
			wire.Prop("updated_at", wire.String(fmt.Sprintf("2026-05-%02d 10:00:00", 1+rev))),
		}}
	}
	base = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	next = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	step := 0
	if pct > 0 {
		step = 100 / pct
	}
	for i := range n {
		base.Nodes = append(base.Nodes, mk(i, 0))
		switch {
		case step > 0 && i%step == 0:
			next.Nodes = append(next.Nodes, mk(i, 1))
		case step > 0 && i%step == 1:
			next.Nodes = append(next.Nodes, mk(n+i, 0))
		default:
			next.Nodes = append(next.Nodes, mk(i, 0))
		}
	}
	for _, r := range []*wire.GraphResponse{base, next} {
		for i := 1; i < len(r.Nodes); i++ {
			a, b := r.Nodes[i-1], r.Nodes[i]
			r.Edges = append(r.Edges, wire.Edge{From: a.Type, FromID: a.ID, To: b.Type, ToID: b.ID, Type: "RELATED"})
		}
	}
	return base, next
}

// TestDeltaSize reports the json delta document's size against the full canonical
// JSON at 1%, 5% and 20% of the nodes changed (and as many replaced), and
// holds the 1% and 5% ones under the 60% threshold.
func TestDeltaSize(t *testing.T) {
	for _, pct := range []int{1, 5, 20} {
		base, next := requery(1000, pct)
		d, db := deltatest.Document(t, jsonc, base, next)
		full, err := jsoncodec.AppendEncode(nil, next)
		if err != nil {
			t.Fatal(err)
		}
		ratio := float64(len(db)) / float64(len(full))
		t.Logf("%2d%% changed: delta %7d bytes, full %7d bytes: %.1f%% (%d nodes changed, %d removed, %d added; %d edges removed, %d added)",
			pct, len(db), len(full), 100*ratio, len(d.Changed), len(d.Nodes.Removed), len(d.Nodes.Added), len(d.Edges.Removed), len(d.Edges.Added))
		if pct <= 5 && !delta.Worth(len(db), len(full), 0) {
			t.Errorf("%d%% changed: a delta of %.1f%% of the full response is not worth sending", pct, 100*ratio)
		}
	}
}

func BenchmarkDelta(b *testing.B) {
	base, next := requery(2000, 5)
	d, _ := delta.Diff(base, next)
	dj, _ := delta.AppendDelta(jsonc, nil, d)
	b.Run("Fingerprint", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			delta.Fingerprint(next)
		}
	})
	b.Run("Diff", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := delta.Diff(base, next); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Patch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := delta.Patch(base, d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendDelta", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(dj)))
		for b.Loop() {
			if _, err := delta.AppendDelta(jsonc, nil, d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DecodeDelta", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(dj)))
		for b.Loop() {
			if _, err := delta.DecodeDelta(jsonc, dj); err != nil {
				b.Fatal(err)
			}
		}
	})
}
