package binary

import "github.com/graphwire/graphwire/wire"

// EncodeError reports a response the layout cannot carry faithfully: an
// invalid query type or group kind, a string that is not UTF-8, a property
// named "type" or "id" or given twice, or a row cell holding both a node and
// a value. Nothing is written when encoding fails.
type EncodeError struct {
	Codec string // "msgpack" or "cbor"
	Field string // where, e.g. "nodes[3].properties[1].key"
	Msg   string // what is wrong
}

func (e *EncodeError) Error() string {
	return e.Codec + ": cannot encode " + e.Field + ": " + e.Msg
}

// decodeError builds the error every decoding failure is reported as.
func decodeError(codec string, off int, msg string, err error) *wire.DecodeError {
	return &wire.DecodeError{Codec: codec, Offset: int64(off), Msg: msg, Err: err}
}
