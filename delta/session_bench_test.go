package delta_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta"
)

// BenchmarkSession is a conversation of two sends of the largest corpus
// case of at most 2,000 nodes, the second all references, written and read in each session
// codec: the cost of Session.Encode and Session.Decode.
func BenchmarkSession(b *testing.B) {
	c := largestCase(2000)
	for _, codec := range sessionCodecs {
		b.Run(codec, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w, _ := delta.NewSession(delta.SessionLimits{})
				r, _ := delta.NewSession(delta.SessionLimits{})
				for range 2 {
					text, _, err := w.Encode(nil, codec, c.Response)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := r.Decode(nil, codec, text); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
