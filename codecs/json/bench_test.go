package json_test

import (
	"testing"

	gojson "encoding/json"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// Benchmark cases. Each runs our codec (json/<case>) beside encoding/json
// handling the same document as map[string]any (encoding-json/<case>), in
// the same run, so that the ratio is measured on one machine at one time.

type benchCase struct {
	name string
	r    *wire.GraphResponse
}

func benchCases() []benchCase {
	return []benchCase{
		{"traversal-50users-200mrs", testsupport.Traversal(50, 200)},
		{"traversal-10k-nodes", testsupport.LargeTraversal(10_000)},
	}
}

// TestBenchCases checks that the benchmarks measure what they say: the
// documents round-trip, and encoding/json reads the same document.
func TestBenchCases(t *testing.T) {
	for _, bc := range benchCases() {
		b, err := json.Encode(bc.r)
		if err != nil {
			t.Fatal(err)
		}
		r, err := json.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		// A full structural comparison of the large case is slow under the
		// race detector; the fixed point of the encoding is checked there.
		if len(bc.r.Nodes) <= 1000 {
			if diff := wiretest.Diff(bc.r, r, wire.Exact); diff != "" {
				t.Fatalf("%s: decode(encode(r)) differs from r (-want +got):\n%s", bc.name, diff)
			}
		}
		if b2, err := json.Encode(r); err != nil || string(b2) != string(b) {
			t.Fatalf("%s: re-encoding differs (%v)", bc.name, err)
		}
		var m map[string]any
		if err := gojson.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if nodes, _ := m["nodes"].([]any); len(nodes) != len(bc.r.Nodes) {
			t.Errorf("%s: encoding/json reads %d nodes, want %d", bc.name, len(nodes), len(bc.r.Nodes))
		}
		t.Logf("%s: %d nodes, %d edges, %d bytes", bc.name, len(bc.r.Nodes), len(bc.r.Edges), len(b))
	}
	if r := testsupport.LargeTraversal(10_000); len(r.Nodes) < 10_000 {
		t.Errorf("large case has %d nodes", len(r.Nodes))
	}
	if r := testsupport.Traversal(50, 200); len(r.Nodes) != 250 || len(r.Edges) != 200 {
		t.Errorf("traversal case has %d nodes, %d edges", len(r.Nodes), len(r.Edges))
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, bc := range benchCases() {
		data, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		// A fresh buffer each time, as Marshal has; AppendEncode into a
		// reused buffer would allocate nothing.
		bench(b, "json/"+bc.name, len(data), func() error { _, err := json.Encode(bc.r); return err })
		var m map[string]any
		if err := gojson.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
		bench(b, "encoding-json/"+bc.name, len(data), func() error { _, err := gojson.Marshal(m); return err })
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, bc := range benchCases() {
		data, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		bench(b, "json/"+bc.name, len(data), func() error { _, err := json.Decode(data); return err })
		bench(b, "encoding-json/"+bc.name, len(data), func() error {
			var m map[string]any
			return gojson.Unmarshal(data, &m)
		})
	}
}

// bench runs op as the sub-benchmark name, over size bytes each time.
func bench(b *testing.B, name string, size int, op func() error) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(size))
		for b.Loop() {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
