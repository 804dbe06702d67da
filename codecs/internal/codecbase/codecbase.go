// Package codecbase is what every graphwire codec repeats around its
// syntax, written once: the codec's description and limits (defaults
// filled in, an out-of-range field refused when the codec is built), the
// registration of the package's default codec, and the two size checks
// every codec makes, the input a decode refuses before reading it and the
// output an encode refuses because the decoder would.
//
// A codec package keeps a Core in an unexported field, built by New;
// answers its Limits and Info methods from it; builds and registers its
// default codec with Register(New(Options{})); and calls
// c.core.CheckInput(len(data)) first in Decode and DecodeDocument,
// c.core.CheckOutput(n, "text") once it knows the length of what it writes.
package codecbase

import (
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Core is a codec's description, whose name its errors carry, and its
// limits, every field set. It is a value, immutable once built.
type Core struct {
	Limits wire.Limits
	info   wire.Info
}

// New returns the codec wrap builds around the Core of the codec info
// describes under l, zero fields of l taking their defaults, or the error
// naming the first field out of range (see wire.Limits.WithDefaults).
func New[C any](info wire.Info, l wire.Limits, wrap func(Core) *C) (*C, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return nil, err
	}
	return wrap(Core{Limits: l, info: info}), nil
}

// Info returns the codec's description, its aliases a copy of its own.
func (c *Core) Info() wire.Info {
	info := c.info
	info.Aliases = slices.Clone(info.Aliases)
	return info
}

// Must returns c, or panics with err.
func Must[C any](c *C, err error) *C {
	if err != nil {
		panic(err)
	}
	return c
}

// Register registers c, a package's default codec built from its own New
// and zero Options, which cannot fail, in the default wire registry and
// returns it; it panics with err.
func Register[C wire.Codec](c C, err error) C {
	if err != nil {
		panic(err)
	}
	wire.Register(c)
	return c
}

// CheckInput refuses, before a decode reads it, an input of n bytes
// longer than MaxInputBytes: a *wire.DecodeError at the limit's offset,
// Limit "MaxInputBytes".
func (c *Core) CheckInput(n int) error {
	if l := c.Limits.MaxInputBytes; int64(n) > l {
		return &wire.DecodeError{Codec: c.info.Name, Offset: l, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(n) + " bytes is longer than the limit of " + strconv.FormatInt(l, 10)}
	}
	return nil
}

// CheckOutput refuses an encoding of n bytes that the codec's decoder
// would refuse as longer than MaxInputBytes: a *wire.EncodeError, Limit
// "MaxInputBytes", that calls it what ("text", "document", "encoding").
func (c *Core) CheckOutput(n int64, what string) error {
	if l := c.Limits.MaxInputBytes; n > l {
		return &wire.EncodeError{Codec: c.info.Name, Limit: "MaxInputBytes",
			Msg: "the " + what + " would take " + strconv.FormatInt(n, 10) + " bytes, more than the limit of " + strconv.FormatInt(l, 10)}
	}
	return nil
}
