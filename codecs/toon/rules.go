package toon

import (
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/wire"
)

// layoutDepth is the nesting the layout adds around a value, and
// depthPerList that of each list in a list ("- [N]:"): the reader's
// MaxDepth is the codec's translated by them.
const (
	layoutDepth  = 8
	depthPerList = 2
)

// layoutFields is the most names the layout adds to a field group or an
// object beside a response's own (an edge's eight).
const layoutFields = 8

// scalarValue converts a value token (an integer that fits int64 is an
// Int, any other number a Float).
func scalarValue(s *toonread.Scalar) wire.Value {
	switch s.Kind {
	case toonread.Null:
		return wire.Null()
	case toonread.Bool:
		return wire.Bool(s.Bool)
	case toonread.Number:
		return s.Num.Value()
	}
	return wire.String(s.Str)
}
