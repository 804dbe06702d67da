package speed

import (
	"encoding/json"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// refBench names the encoding/json reference in benchmark names, where a
// '/' would add a level.
const refBench = "encoding_json"

// benchCases loads the committed corpus once.
func benchCases(b *testing.B) []corpus.Case {
	b.Helper()
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		b.Fatal(err)
	}
	cases, err := corpus.Load(root + "/" + corpus.Dir)
	if err != nil {
		b.Fatal(err)
	}
	return cases
}

// BenchmarkEncode: every registered codec on every corpus case, beside
// encoding/json (generic map[string]any) in the same run. MB/s is over the
// codec's own output.
func BenchmarkEncode(b *testing.B) {
	for _, c := range benchCases(b) {
		canonical, err := cjson.Encode(c.Response)
		if err != nil {
			b.Fatal(err)
		}
		var generic any
		if err := json.Unmarshal(canonical, &generic); err != nil {
			b.Fatal(err)
		}
		b.Run(refBench+"/"+c.Name, func(b *testing.B) {
			out, _ := json.Marshal(generic)
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(generic); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, info := range wire.List() {
			codec, _ := wire.Lookup(info.Name)
			b.Run(info.Name+"/"+c.Name, func(b *testing.B) {
				out, err := codec.AppendEncode(nil, c.Response)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(out)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := codec.AppendEncode(nil, c.Response); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDecode: every registered codec decoding its own encoding of
// every corpus case, beside encoding/json decoding the canonical JSON into
// a generic value. MB/s is over the codec's input.
func BenchmarkDecode(b *testing.B) {
	for _, c := range benchCases(b) {
		canonical, err := cjson.Encode(c.Response)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(refBench+"/"+c.Name, func(b *testing.B) {
			b.SetBytes(int64(len(canonical)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(canonical, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, info := range wire.List() {
			codec, _ := wire.Lookup(info.Name)
			data, err := codec.AppendEncode(nil, c.Response)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(info.Name+"/"+c.Name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := codec.Decode(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
