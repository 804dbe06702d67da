package gcf_test

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf"
)

// BenchmarkDecodeGeneric: the generic path (gcfvalue, then the layout)
// decoding the codec's text of every corpus case: the path of any text
// the reader leaves to it. MB/s is over the case's canonical JSON.
func BenchmarkDecodeGeneric(b *testing.B) {
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
				if _, err := c.DecodeGeneric(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
