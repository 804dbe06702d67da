package json

import (
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
)

// The decoder's errors are the scanner's (jsonvalue.Scanner's Err,
// LimitErr and Expected: a *wire.DecodeError at a byte offset) and these.

// tooMany is the error for the element at off, one past MaxElements.
func (d *decoder) tooMany(off int, what string) error {
	return d.LimitErr(off, "MaxElements", what+": more than "+strconv.Itoa(d.l.MaxElements)+" elements (MaxElements)")
}

// tooBig is the error for the element at off, past MaxMaterializedBytes or
// MaxExpansion times the input.
func (d *decoder) tooBig(off int) error {
	return d.LimitErr(off, d.m.LimitName(), d.m.Msg())
}

// tooLong is the error for the string at off, past MaxStringBytes.
func (d *decoder) tooLong(off int) error {
	return d.LimitErr(off, "MaxStringBytes", "a string longer than "+strconv.Itoa(d.l.MaxStringBytes)+" bytes (MaxStringBytes)")
}

// unknown is the error for the key at off of the object what, which
// holds no such field.
func (d *decoder) unknown(off int, what, key string) error {
	if what == "response" {
		return d.Err(off, "unknown top-level field "+textwire.Excerpt(key))
	}
	return d.Err(off, what+": unknown field "+textwire.Excerpt(key))
}
