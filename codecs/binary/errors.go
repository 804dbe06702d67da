package binary

import (
	"io"

	"github.com/graphwire/graphwire/wire"
)

// failAt returns the error every decoding failure is reported as: the
// codec's name, the byte offset of the item at fault, what is wrong, and
// the error behind it if any.
func (s *source) failAt(off int, msg string, err error) error {
	return &wire.DecodeError{Codec: s.format.String(), Offset: int64(off), Msg: msg, Err: err}
}

// fail returns a *wire.DecodeError positioned at the item last read.
func (s *source) fail(msg string) error { return s.failAt(s.start, msg, nil) }

// failLimit is fail for a refusal by the Limits field limit.
func (s *source) failLimit(limit, msg string) error {
	return &wire.DecodeError{Codec: s.format.String(), Offset: int64(s.start), Msg: msg, Limit: limit}
}

func (s *source) truncated() error {
	return s.failAt(s.start, "truncated item", io.ErrUnexpectedEOF)
}
