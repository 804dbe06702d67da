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

func BenchmarkGraphEncode(b *testing.B) {
	for _, bc := range graphBenchCases() {
		data, err := toon.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("toon/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var buf []byte
			for b.Loop() {
				buf, err = toon.AppendEncode(buf[:0], bc.r)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		canonical, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		var m map[string]any
		if err := gojson.Unmarshal(canonical, &m); err != nil {
			b.Fatal(err)
		}
		b.Run("encoding-json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(canonical)))
			for b.Loop() {
				if _, err := gojson.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGraphDecode(b *testing.B) {
	for _, bc := range graphBenchCases() {
		data, err := toon.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("toon/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := toon.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		canonical, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("encoding-json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(canonical)))
			for b.Loop() {
				var m map[string]any
				if err := gojson.Unmarshal(canonical, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
