package binary

import (
	"math"

	"github.com/graphwire/graphwire/wire"
)

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits and the package's Security
	// section).
	Limits wire.Limits
}

// structuralLevels is how deep the layout's own arrays nest above a list
// value at its deepest place: response, rows, row, cell. A list value in a
// node property sits one level higher (response, nodes, node).
const structuralLevels = 4

// bounds are what a source checks as it reads each item, before it
// allocates for it: coarse limits derived from wire.Limits that no valid
// response reaches before the decoder's exact checks do. An array may hold
// two items per property plus a node reference's three leading items; a
// string item may be a name of an enumeration, which MaxStringBytes does not
// bound.
type bounds struct {
	maxInput   int
	maxNesting int // arrays, the response counting as level 1
	maxArray   int // items of one array
	maxString  int // bytes of one string item
}

// minEnumBytes is the least string-item bound a source applies, so that
// the enumerations (query types, group kinds) always read.
const minEnumBytes = 64

func boundsFor(l wire.Limits) bounds {
	return bounds{
		maxInput:   int(min(l.MaxInputBytes, math.MaxInt32*2)),
		maxNesting: l.MaxDepth + structuralLevels,
		maxArray:   int(min(max(2*int64(l.MaxElements)+3, 16), math.MaxInt32)),
		maxString:  max(l.MaxStringBytes, minEnumBytes),
	}
}
