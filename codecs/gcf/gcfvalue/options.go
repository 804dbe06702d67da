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
	// Limits: MaxInputBytes bounds a decoder's input; MaxDepth the nesting
	// of containers (objects and arrays; the root container is at depth
	// 1); MaxElements the members of one object, items of one array and
	// columns of one table (unless MaxFields says more); MaxStringBytes every string and key;
	// MaxMaterializedBytes the memory the decoded value takes, as the
	// decoder estimates it while building the value (heapBudget lowers it
	// further for a short input). A zero field takes its default
	// (wire.DefaultLimits).
	Limits wire.Limits

	// MaxFields, when above Limits.MaxElements, bounds the columns of one
	// table (and so the values of one row line and the members of one
	// row) instead of it: a layout
	// whose rows are objects of at most MaxElements members may still
	// need more columns, the union of its rows' keys and the path
	// columns of flattened nested objects. Zero or less than MaxElements
	// means MaxElements; at most math.MaxInt32.
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
