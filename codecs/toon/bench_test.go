package toon_test

import (
	gojson "encoding/json"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// Benchmark cases for the GraphResponse codec. Each runs toon/<case> beside
// encoding/json handling the same response's canonical JSON as
// map[string]any (encoding-json/<case>), in the same run.

type graphBenchCase struct {
	name string
	r    *wire.GraphResponse
}

func graphBenchCases() []graphBenchCase {
	return []graphBenchCase{
		{"traversal-50users-200mrs", testsupport.Traversal(50, 200)},
		{"traversal-adr-50users-200mrs", testsupport.ADRTraversal(50, 200)},
		{"traversal-10k-nodes", testsupport.LargeTraversal(10_000)},
	}
}

// runBench runs op as the benchmark name, which reads or writes n bytes.
func runBench(b *testing.B, name string, n int, op func() error) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// graphBench runs, for each case, toon's op on its text and encoding/json's
// stdlib op on its canonical JSON read as map[string]any (m).
func graphBench(b *testing.B, op func(r *wire.GraphResponse, text []byte) error, stdlib func(canonical []byte, m map[string]any) error) {
	for _, bc := range graphBenchCases() {
		data, err := toon.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		runBench(b, "toon/"+bc.name, len(data), func() error { return op(bc.r, data) })
		canonical, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		var m map[string]any
		if err := gojson.Unmarshal(canonical, &m); err != nil {
			b.Fatal(err)
		}
		runBench(b, "encoding-json/"+bc.name, len(canonical), func() error { return stdlib(canonical, m) })
	}
}

func BenchmarkGraphEncode(b *testing.B) {
	var buf []byte
	graphBench(b, func(r *wire.GraphResponse, _ []byte) (err error) {
		buf, err = toon.AppendEncode(buf[:0], r)
		return err
	}, func(_ []byte, m map[string]any) error {
		_, err := gojson.Marshal(m)
		return err
	})
}

func BenchmarkGraphDecode(b *testing.B) {
	graphBench(b, func(_ *wire.GraphResponse, data []byte) error {
		_, err := toon.Decode(data)
		return err
	}, func(canonical []byte, _ map[string]any) error {
		var m map[string]any
		return gojson.Unmarshal(canonical, &m)
	})
}
