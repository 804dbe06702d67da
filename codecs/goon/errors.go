package goon

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Encode errors are *wire.EncodeError values with Codec "goon". Besides
// the limits (see Security), GOON refuses a response it cannot carry: an
// invalid query type or group kind, a name that is not a GOON name (entity
// and relationship types, property keys, column names and aliases must be
// ASCII letters, digits and underscores, since the line grammar is built
// from them), a property named "id" or "type", or two properties of one
// node with the same key.

func notName(path, what, s string) error {
	return &wire.EncodeError{Codec: Name, Path: path, Msg: what + " " + strconv.Quote(s) + " is not a GOON name (ASCII letters, digits, '_')"}
}

// Decode errors are *wire.DecodeError values with Codec "goon" and the
// 1-based line: "goon: line 7: expected ...".
func lineError(line int, msg string) error {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: msg}
}
