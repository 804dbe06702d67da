// Package codecbase is what every graphwire codec repeats around its
// syntax, written once: the codec's name and limits (defaults filled in,
// an out-of-range field refused when the codec is built), the package's
// default codec, and the two size checks every codec makes, the input a
// decode refuses before reading it and the output an encode refuses
// because the decoder would.
//
// A codec package keeps a Core in an unexported field, answers its Limits
// method from it, builds its default codec with Must(New(Options{})), and
// calls c.core.CheckInput(data) first in Decode and DecodeDocument,
// c.core.CheckOutput(n, "text") once it knows the length of what it writes.
package codecbase

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Core is a codec's name, which its errors carry, and its limits, every
// field set. It is a value, immutable once built.
type Core struct {
	Name   string
	Limits wire.Limits
}

// New returns the Core of the codec name under l, zero fields taking
// their defaults, or the error naming the first field out of range (see
// wire.Limits.WithDefaults).
func New(name string, l wire.Limits) (Core, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return Core{}, err
	}
	return Core{Name: name, Limits: l}, nil
}

// Must returns c, or panics with err: a package builds its default codec
// with it from its own New and zero Options, which cannot fail.
func Must[C any](c *C, err error) *C {
	if err != nil {
		panic(err)
	}
	return c
}

// CheckInput refuses, before a decode reads it, an input of n bytes
// longer than MaxInputBytes: a *wire.DecodeError at the limit's offset,
// Limit "MaxInputBytes".
func (c *Core) CheckInput(n int) error {
	if l := c.Limits.MaxInputBytes; int64(n) > l {
		return &wire.DecodeError{Codec: c.Name, Offset: l, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(n) + " bytes is longer than the limit of " + strconv.FormatInt(l, 10)}
	}
	return nil
}

// CheckOutput refuses an encoding of n bytes that the codec's decoder
// would refuse as longer than MaxInputBytes: a *wire.EncodeError, Limit
// "MaxInputBytes", that calls it what ("text", "document", "encoding").
func (c *Core) CheckOutput(n int64, what string) error {
	if l := c.Limits.MaxInputBytes; n > l {
		return &wire.EncodeError{Codec: c.Name, Limit: "MaxInputBytes",
			Msg: "the " + what + " would take " + strconv.FormatInt(n, 10) + " bytes, more than the limit of " + strconv.FormatInt(l, 10)}
	}
	return nil
}
