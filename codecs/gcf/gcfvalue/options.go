package gcfvalue

import (
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
)

// Value is a JSON value as codecs/toon represents it: nil, bool,
// toon.Number, string, []toon.Value or *toon.Object. The encoder also
// accepts int, int64 and float64 for numbers and a nil *toon.Object for
// null, as toon.Marshal does.
type Value = toon.Value

// Options bound what the encoder writes and the decoder reads. The zero
// value applies wire.DefaultLimits.
type Options struct {
	// Limits: MaxInputBytes bounds a decoder's input; MaxDepth the nesting
	// of containers (objects and arrays; the root container is at depth
	// 1); MaxElements the members of one object, items of one array and
	// columns of one table; MaxStringBytes every string and key. A zero
	// field takes its default (wire.DefaultLimits). MaxMaterializedBytes
	// is not used: a GCF document has no reference that a decoder expands.
	Limits wire.Limits
}

// limits is Options.Limits resolved.
type limits struct {
	maxInput    int64
	maxDepth    int
	maxElements int
	maxString   int
}

func (o Options) resolve() (limits, error) {
	l, err := o.Limits.WithDefaults()
	if err != nil {
		return limits{}, err
	}
	return limits{maxInput: l.MaxInputBytes, maxDepth: l.MaxDepth, maxElements: l.MaxElements, maxString: l.MaxStringBytes}, nil
}
