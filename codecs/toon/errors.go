package toon

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
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
	// The path is copied: Locate keeps it, and path, built on the stack,
	// would otherwise be moved to the heap wherever it is built.
	opts, lim := readerOptions(d.lim)
	d.err = &wire.DecodeError{Codec: Name, Line: max(toonread.Locate(d.src, opts, lim, slices.Clone(path)), 1), Msg: msg}
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
		return "there is 1 " + one
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

// pathStep is one element of a path into the document: a key, or an
// index when Index >= 0.
type pathStep = toonread.Step

func keyStep(k string) pathStep { return pathStep{Key: k, Index: -1} }

func indexStep(i int) pathStep { return pathStep{Index: i} }

func pathString(path []pathStep) string {
	var b strings.Builder
	for i, s := range path {
		if s.Index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case len(s.Key) > textwire.MaxExcerpt:
			b.WriteString(textwire.Excerpt(s.Key))
		case toonwrite.PlainKey(s.Key) && !strings.Contains(s.Key, "."):
			b.WriteString(s.Key)
		default:
			b.WriteString(strconv.Quote(s.Key))
		}
	}
	return b.String()
}
