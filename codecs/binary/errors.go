package binary

import "github.com/graphwire/graphwire/wire"

// decodeError builds the error every decoding failure is reported as.
func decodeError(codec string, off int, msg string, err error) *wire.DecodeError {
	return &wire.DecodeError{Codec: codec, Offset: int64(off), Msg: msg, Err: err}
}
