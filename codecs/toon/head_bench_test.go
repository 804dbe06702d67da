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
		buf := make([]byte, 0, 2*len(data))
		runBench(b, "decode/plain/"+bc.name, len(data), func() error { _, err := c.Decode(data); return err })
		runBench(b, "decode/document/"+bc.name, len(data), func() error { _, _, err := c.DecodeDocument(data); return err })
		runBench(b, "encode/plain/"+bc.name, len(data), func() (err error) { buf, err = c.AppendEncode(buf[:0], bc.r); return err })
		runBench(b, "encode/document/"+bc.name, len(data), func() (err error) { buf, err = c.AppendDocument(buf[:0], nil, bc.r); return err })
	}
}
