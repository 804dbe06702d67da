package goon

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// EncodeError reports a response GOON cannot carry: an invalid query type
// or group kind, a name that is not a GOON name (entity and relationship
// types, property keys, column names and aliases must be ASCII letters,
// digits and underscores, since the line grammar is built from them), a
// property named "id" or "type", or two properties of one node with the
// same key.
type EncodeError struct {
	Path string // where in the response, e.g. nodes[3].properties[1]
	Msg  string
}

func (e *EncodeError) Error() string {
	if e.Path == "" {
		return "goon: " + e.Msg
	}
	return "goon: " + e.Path + ": " + e.Msg
}

func notName(path, what, s string) error {
	return &EncodeError{Path: path, Msg: what + " " + strconv.Quote(s) + " is not a GOON name (ASCII letters, digits, '_')"}
}

// Decode errors are *wire.DecodeError values with Codec "goon" and the
// 1-based line: "goon: line 7: expected ...".
func lineError(line int, msg string) error {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: msg}
}
