package toon_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
)

// BenchmarkDocumentPlain reads and writes the benchmark responses through
// the document entry points with no header (document/<case>), beside
// Decode and AppendEncode (plain/<case>), in the same run: the header's
// check costs nothing measurable on a plain response.
func BenchmarkDocumentPlain(b *testing.B) {
	c := toon.Default()
	for _, bc := range graphBenchCases() {
		data, err := c.AppendEncode(nil, bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("decode/plain/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := c.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("decode/document/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, _, err := c.DecodeDocument(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("encode/plain/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			buf := make([]byte, 0, 2*len(data))
			for b.Loop() {
				if buf, err = c.AppendEncode(buf[:0], bc.r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("encode/document/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			buf := make([]byte, 0, 2*len(data))
			for b.Loop() {
				if buf, err = c.AppendDocument(buf[:0], nil, bc.r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
