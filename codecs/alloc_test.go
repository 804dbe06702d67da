//go:build !race

package codecs_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
)

// TestEncodeAllocations: every built-in codec encodes every corpus case
// with one allocation, its output, and with none into a caller's buffer
// with room for the output.
func TestEncodeAllocations(t *testing.T) {
	for _, name := range registered() {
		c, err := wire.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, cs := range corpus.Generate() {
			r := cs.Response
			out, err := c.AppendEncode(nil, r)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, cs.ID(), err)
			}
			fresh := testing.AllocsPerRun(3, func() { _, _ = c.AppendEncode(nil, r) })
			buf := make([]byte, 0, len(out))
			into := testing.AllocsPerRun(3, func() { _, _ = c.AppendEncode(buf[:0], r) })
			if fresh != 1 || into != 0 {
				t.Errorf("%s, %s: %v allocations, %v into a buffer of its size; want 1 and 0", name, cs.ID(), fresh, into)
			}
		}
	}
}
