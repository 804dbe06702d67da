package speed

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
)

// benchName is a row's name in benchmark names, where a '/' would add a
// level: encoding/json is encoding_json.
func benchName(name string) string { return strings.ReplaceAll(name, "/", "_") }

// benchCases loads the committed corpus once.
func benchCases(b *testing.B) []corpus.Case {
	b.Helper()
	cases, err := corpus.LoadCommitted()
	if err != nil {
		b.Fatal(err)
	}
	return cases
}

// benchSubjects returns the JSON libraries and every registered codec bound
// to case c, and the size of c's canonical JSON: the bytes of every
// benchmark's MB/s.
func benchSubjects(b *testing.B, c corpus.Case) ([]subject, int64) {
	b.Helper()
	var codecs []wire.Codec
	for _, info := range wire.List() {
		codec, err := wire.Lookup(info.Name)
		if err != nil {
			b.Fatal(err)
		}
		codecs = append(codecs, codec)
	}
	subjects, canonical, err := subjectsFor(c, codecs)
	if err != nil {
		b.Fatal(err)
	}
	return subjects, int64(canonical)
}

// BenchmarkEncode: every registered codec on every corpus case, beside
// encoding/json (typed structs and map[string]any), goccy/go-json and
// bytedance/sonic in the same run. MB/s is over the case's canonical JSON
// for every row.
func BenchmarkEncode(b *testing.B) {
	for _, c := range benchCases(b) {
		subjects, size := benchSubjects(b, c)
		for _, s := range subjects {
			b.Run(benchName(s.name)+"/"+benchName(c.ID()), func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.encode(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDecode: every row decoding its own encoding of every corpus
// case. MB/s is over the case's canonical JSON for every row.
func BenchmarkDecode(b *testing.B) {
	for _, c := range benchCases(b) {
		subjects, size := benchSubjects(b, c)
		for _, s := range subjects {
			data, err := s.encode()
			if err != nil {
				b.Fatal(err)
			}
			b.Run(benchName(s.name)+"/"+benchName(c.ID()), func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					if err := s.decode(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
