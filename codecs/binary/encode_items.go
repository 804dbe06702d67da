package binary

import (
	"fmt"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// sink receives the layout as a stream of items; an array announces how
// many follow as its elements. Each format writes them straight to bytes
// (mpSink, cborSink).
type sink interface {
	array(n int)
	object(n int) // a document's map head (head.go)
	null()
	boolean(b bool)
	integer(i int64)
	float(f float64)
	str(s string)
}

// encoder walks a response and feeds the layout to a sink, for both
// formats: its single items here, its records in encode.go.
type encoder struct {
	sink  sink
	codec string
	// names maps each name written to its table index; nil writes every
	// name in full.
	names map[string]int64
	err   *wire.EncodeError
	// spill, when set (EncodeTo), hands the bytes to the writer after
	// each node, edge and row; false stops the walk.
	spill func() bool
	// maxOut, when positive, stops the walk once the strings written
	// (strBytes, a lower bound of the length) pass it.
	maxOut, strBytes int64
}

// next is called after each node, edge and row: false once the strings
// are past maxOut, otherwise it spills when spilling.
func (e *encoder) next(at string, i int) bool {
	if !e.within(at, i) {
		return false
	}
	return e.spill == nil || e.spill()
}

// within reports whether the strings are within maxOut, or sets the error
// at at[i] (at alone when i < 0).
func (e *encoder) within(at string, i int) bool {
	if e.maxOut <= 0 || e.strBytes <= e.maxOut {
		return true
	}
	if e.err == nil {
		if i >= 0 {
			at = fmt.Sprintf("%s[%d]", at, i)
		}
		e.err = &wire.EncodeError{Codec: e.codec, Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("the encoding is longer than the limit of %d (its strings alone pass it by %s)", e.maxOut, at)}
	}
	return false
}

// fail records the first error of the walk, at the place p.
func (e *encoder) fail(p wirecodec.Path, format string, args ...any) {
	if e.err == nil {
		e.err = &wire.EncodeError{Codec: e.codec, Path: p.String(), Msg: fmt.Sprintf(format, args...)}
	}
}

// name writes a name in full the first time, as its table index
// afterwards; false when s is not UTF-8.
func (e *encoder) name(s string) bool {
	if e.names != nil {
		if i, ok := e.names[s]; ok {
			e.sink.integer(i)
			return true
		}
	}
	if !utf8.ValidString(s) {
		return false
	}
	if e.names != nil {
		e.names[s] = int64(len(e.names))
	}
	if e.strBytes += int64(len(s)); e.maxOut > 0 && e.strBytes > e.maxOut {
		return true // not written: next refuses the encoding
	}
	e.sink.str(s)
	return true
}

// text writes a string value, reporting false when s is not UTF-8.
func (e *encoder) text(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	if e.strBytes += int64(len(s)); e.maxOut > 0 && e.strBytes > e.maxOut {
		return true // not written: next refuses the encoding
	}
	e.sink.str(s)
	return true
}

// optName writes a present optional name, or null for an absent one.
func (e *encoder) optName(o wire.Opt[string]) bool {
	if !o.Valid {
		e.sink.null()
		return true
	}
	return e.name(o.V)
}

func (e *encoder) optInt(o wire.Opt[int64]) {
	if o.Valid {
		e.sink.integer(o.V)
	} else {
		e.sink.null()
	}
}

// value writes v; it reports false when a string in it is not UTF-8.
func (e *encoder) value(v wire.Value) bool {
	switch v.Kind() {
	case wire.KindNull:
		e.sink.null()
	case wire.KindBool:
		e.sink.boolean(v.Bool())
	case wire.KindInt:
		e.sink.integer(v.Int())
	case wire.KindFloat:
		e.sink.float(v.Float())
	case wire.KindString:
		return e.text(v.Text())
	case wire.KindList:
		l := v.List()
		e.sink.array(len(l))
		for _, x := range l {
			if !e.value(x) {
				return false
			}
		}
	default:
		return false
	}
	return true
}
