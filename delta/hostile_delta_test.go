package delta_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// TestDecodeJSONMeter: DecodeJSON meters the lists it builds. The JSON
// forms of 2^20 removed node keys and of 2^18 elements in every list of
// operations (2^20 would pass MaxInputBytes) decode, or are refused with a
// limit error, within 16 times the input plus 16 MiB at their peak, and
// 2^17 keys of a long type name and distinct ids decode.
func TestDecodeJSONMeter(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes inputs of up to 50 MB")
	}
	for _, c := range []struct {
		name       string
		d          func() *delta.Delta
		mustDecode bool
	}{
		{"removed keys", func() *delta.Delta { return deltatest.RemovedKeys(1 << 20) }, false},
		{"every list", func() *delta.Delta { return deltatest.EveryList(1 << 18) }, false},
		{"long keys", func() *delta.Delta { return deltatest.LongKeys(1 << 17) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := delta.AppendJSON(nil, c.d())
			if err != nil {
				t.Fatal(err)
			}
			deltatest.CheckDecodeMemory(t, data, c.mustDecode, func(b []byte) (*delta.Delta, error) {
				return delta.DecodeJSON(b, wire.Limits{})
			})
		})
	}
}
