package codecs_test

import (
	"io"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// BenchmarkStream compares, codec by codec, AppendEncode into a reused
// buffer with EncodeTo to a writer (which checks the response in a first
// pass, then writes in a second) on traversal_xl.
func BenchmarkStream(b *testing.B) {
	r := loadXL(b)
	ss := streamers(b)
	for _, info := range wire.List() {
		name, s := info.Name, ss[info.Name]
		c, _ := wire.Lookup(name)
		out, err := c.AppendEncode(nil, r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/append", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			buf := make([]byte, 0, len(out))
			for b.Loop() {
				if _, err := c.AppendEncode(buf[:0], r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/stream", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if err := s.EncodeTo(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
