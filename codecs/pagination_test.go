package codecs_test

import (
	"bytes"
	"testing"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestPaginationEveryCodec: schema v2 and v5 paginations, cursors of any
// content included, round-trip through every registered codec as its
// fidelity promises: exactly (json, msgpack, cbor), by value (toon, gcf), or to
// a fixed point of its encoding (goon).
func TestPaginationEveryCodec(t *testing.T) {
	want := map[string]wire.Fidelity{"json": wire.Exact, "msgpack": wire.Exact, "cbor": wire.Exact, "toon": wire.NumbersByValue, "gcf": wire.NumbersByValue, "goon": wire.Lossy}
	for _, info := range wire.List() {
		f, ok := want[info.Name]
		if !ok || info.Fidelity != f {
			t.Errorf("%s: fidelity %v, this test expects %v", info.Name, info.Fidelity, f)
			continue
		}
		for _, pc := range testsupport.Paginations() {
			p := pc.Pagination
			for _, qt := range []wire.QueryType{wire.Traversal, wire.Aggregation} {
				r := &wire.GraphResponse{FormatVersion: "5.0.1", QueryType: qt, Nodes: []wire.Node{}, Edges: []wire.Edge{}, Pagination: &p}
				first, err := wire.EncodeWith(info.Name, r)
				if err != nil {
					t.Fatalf("%s %s: %v", info.Name, pc.Name, err)
				}
				back, err := wire.DecodeWith(info.Name, first)
				if err != nil {
					t.Fatalf("%s %s: %v", info.Name, pc.Name, err)
				}
				if f == wire.Lossy {
					second, err := wire.EncodeWith(info.Name, back)
					if err != nil || !bytes.Equal(first, second) {
						t.Errorf("%s %s: not a fixed point (err %v):\n%s\n---\n%s", info.Name, pc.Name, err, first, second)
					}
					continue
				}
				if diff := wiretest.Diff(r, back, f); diff != "" {
					t.Errorf("%s %s (-want +got):\n%s", info.Name, pc.Name, diff)
				}
			}
		}
	}
}
