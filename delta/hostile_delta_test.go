package delta_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// TestDecodeDeltaMemory: reading a json delta document whose lists of
// operations hold 2^16 and 2^19 positions each (a few bytes of input a
// position) stays within 16 times the input plus 16 MiB at its peak, and
// decodes (the lists are within MaxElements).
func TestDecodeDeltaMemory(t *testing.T) {
	if testing.Short() || testsupport.Race {
		t.Skip("decodes inputs of up to 14 MB and measures the heap (.ci/run runs it without the race detector)")
	}
	for _, c := range []struct {
		name       string
		d          func() *delta.Delta
		mustDecode bool
	}{
		{"every list 2^16", func() *delta.Delta { return deltatest.EveryList(1 << 16) }, true},
		{"every list 2^19", func() *delta.Delta { return deltatest.EveryList(1 << 19) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := delta.AppendDelta(jsonc, nil, c.d())
			if err != nil {
				t.Fatal(err)
			}
			deltatest.CheckDecodeMemory(t, data, c.mustDecode, func(b []byte) (*delta.Delta, error) {
				return delta.DecodeDelta(jsonc, b)
			})
		})
	}
}
