package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// failLimit records, like fail, a value past the limit named.
func (d *graphDecoder) failLimit(path []pathStep, limit, msg string) {
	if d.err == nil {
		d.fail(path, msg)
		d.err.Limit = limit
	}
}

// fail records the first shape error, at path.
func (d *graphDecoder) fail(path []pathStep, msg string) {
	if d.err != nil {
		return
	}
	if len(path) > 0 {
		msg = pathString(path) + ": " + msg
	}
	opts, lim := readerOptions(d.lim)
	d.err = &wire.DecodeError{Codec: Name, Line: max(toonread.Locate(d.src, opts, lim, path), 1), Msg: msg}
}

// counted returns n followed by the singular or plural noun, as n wants.
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// thereAre returns "there is 1 one" or "there are n many".
func thereAre(n int, one, many string) string {
	if n == 1 {
		return "there is " + counted(n, one, many)
	}
	return "there are " + counted(n, one, many)
}

// describe names the kind of a decoded value for error messages.
func describe(v jsonvalue.Value) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case jsonvalue.Number:
		return "number " + x.String()
	case string:
		return "string " + textwire.Excerpt(x)
	case []jsonvalue.Value:
		return "an array"
	case *jsonvalue.Object:
		return "an object"
	}
	return "a value"
}
