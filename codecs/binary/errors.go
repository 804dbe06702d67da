package binary

import "github.com/graphwire/graphwire/wire"

// decodeError builds the error every decoding failure is reported as: the
// codec's name, the byte offset of the item at fault, what is wrong, and
// the library error behind it if any.
func decodeError(codec string, off int, msg string, err error) *wire.DecodeError {
	return &wire.DecodeError{Codec: codec, Offset: int64(off), Msg: msg, Err: err}
}

// limitError builds the error of a refusal by the Limits field limit
// (errors.Is(err, wire.ErrLimit) holds for it).
func limitError(codec string, off int, limit, msg string) *wire.DecodeError {
	e := decodeError(codec, off, msg, nil)
	e.Limit = limit
	return e
}
