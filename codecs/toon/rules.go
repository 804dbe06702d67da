package toon

import (
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/wire"
)

// The codec's rules beside TOON's own (internal/toonread and
// internal/toonwrite hold those): how deep and how wide the layout makes
// a document around a response's values, and how a TOON value token
// becomes a wire.Value (numbers by value: an integer literal that fits
// int64 is an Int, any other number a Float).

// layoutDepth is the TOON nesting the layout adds around a value, and
// depthPerList the nesting each level of a list inside a list takes (a
// "- [N]:" item opens an item and an array): the generic decoder's
// MaxDepth is the codec's MaxDepth translated by them, and the list depth
// itself is checked exactly on the decoded values.
const (
	layoutDepth  = 8
	depthPerList = 2
)

// layoutFields is the most names the layout adds to a header's field
// group or an object beside a response's own (an edge has eight and no
// others; a node adds id; a node in a row adds type and id; the document
// has nine, MaxElements being at least one): the generic decoder refuses
// a group or an object of more than MaxElements+layoutFields names as it
// reads them.
const layoutFields = 8

// scalarValue converts a value token.
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
