package gcfvalue

import (
	"fmt"
	"math"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// Value is a JSON value as codecs/toon represents it: nil, bool,
// jsonvalue.Number, string, []jsonvalue.Value or *jsonvalue.Object. The encoder also
// accepts int, int64 and float64 for numbers and a nil *jsonvalue.Object for
// null, as toonvalue.Marshal does.
type Value = jsonvalue.Value

// Options bound what the encoder writes and the decoder reads. The zero
// value applies wire.DefaultLimits.
type Options struct {
	// Limits bound both directions, as the package documentation's
	// Limits section says; a zero field takes wire.DefaultLimits'.
	Limits wire.Limits

	// MaxFields, when above Limits.MaxElements, bounds the columns of one
	// table (and so the values of a row line and the members of a row)
	// instead of it: rows of at most MaxElements members may need more
	// columns, their union and the path columns of flattened objects.
	// Zero or less than MaxElements means MaxElements; at most
	// math.MaxInt32.
	MaxFields int
}

// limits is Options.Limits resolved.
type limits struct {
	maxInput    int64
	maxDepth    int
	maxElements int
	maxFields   int // >= maxElements
	maxString   int
	maxMem      int64
}

// heapBudget is the most memory, as the decoder estimates it, that the
// value decoded from n input bytes may take: 10 times the input plus 10
// MiB, which keeps the peak heap of a decode, its transient allocations
// and the garbage the collector has not yet reclaimed included, within 16
// times the input plus 16 MiB.
func heapBudget(n int) int64 { return 10*int64(n) + 10<<20 }

func (o Options) resolve() (limits, error) {
	l, err := o.Limits.WithDefaults()
	if err != nil {
		return limits{}, err
	}
	if o.MaxFields < 0 || o.MaxFields > math.MaxInt32 {
		return limits{}, fmt.Errorf("gcf: Options.MaxFields %d is out of range [0, %d]", o.MaxFields, math.MaxInt32)
	}
	return limits{maxInput: l.MaxInputBytes, maxDepth: l.MaxDepth, maxElements: l.MaxElements, maxFields: max(o.MaxFields, l.MaxElements), maxString: l.MaxStringBytes, maxMem: l.MaxMaterializedBytes}, nil
}
