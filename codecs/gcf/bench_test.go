package gcf_test

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	gjson "github.com/graphwire/graphwire/codecs/json"
)

// corpusCases loads the committed corpus.
func corpusCases(tb testing.TB) []corpus.Case {
	tb.Helper()
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		tb.Fatal(err)
	}
	cases, err := corpus.Load(root + "/" + corpus.Dir)
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// canonicalSize is the size of c's canonical JSON, the bytes of every
// benchmark's MB/s (as in wirebench bench).
func canonicalSize(tb testing.TB, c corpus.Case) int64 {
	raw, err := gjson.Encode(c.Response)
	if err != nil {
		tb.Fatal(err)
	}
	return int64(len(raw))
}

// BenchmarkEncode: gcf over every corpus case, into a fresh buffer
// (gcf/<case>) and into a caller's reused buffer (gcf_reuse/<case>).
// MB/s is over the case's canonical JSON.
func BenchmarkEncode(b *testing.B) {
	c := gcf.Default()
	for _, cs := range corpusCases(b) {
		size := canonicalSize(b, cs)
		name := strings.ReplaceAll(cs.ID(), "/", "_")
		b.Run("gcf/"+name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.AppendEncode(nil, cs.Response); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("gcf_reuse/"+name, func(b *testing.B) {
			buf, err := c.AppendEncode(nil, cs.Response)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if buf, err = c.AppendEncode(buf[:0], cs.Response); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecode: gcf decoding its own text of every corpus case. MB/s
// is over the case's canonical JSON.
func BenchmarkDecode(b *testing.B) {
	c := gcf.Default()
	for _, cs := range corpusCases(b) {
		size := canonicalSize(b, cs)
		text, err := c.AppendEncode(nil, cs.Response)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("gcf/"+strings.ReplaceAll(cs.ID(), "/", "_"), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Decode(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
