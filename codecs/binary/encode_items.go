package binary

import (
	"fmt"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// The items of the layout on the writing side: what the encoder hands a
// sink (one format's implementation in encode_msgpack.go and
// encode_cbor.go), and the
// encoder's writes of single items, names through the string table.
// sink receives the layout as a stream of items, in the order a source
// yields them: an array announces how many items follow as its elements.
// Each format writes them straight to bytes (mpSink, cborSink).
type sink interface {
	array(n int)
	null()
	boolean(b bool)
	integer(i int64)
	float(f float64)
	str(s string)
}

// encoder walks a response and feeds the layout to a sink. It is the one
// description of the layout on the writing side, shared by both formats:
// its single items here, its records in encode.go.
type encoder struct {
	sink  sink
	codec string
	// names maps each name already written to its index in the string
	// table; nil disables the table (every name written in full), which is
	// kept for measuring the table's effect.
	names map[string]int64
	err   *wire.EncodeError
	// spill, when set (EncodeTo), is called after each node, edge and
	// row to hand the bytes so far to the writer; false stops the walk.
	spill func() bool
	// maxOut, when positive, stops the walk after the node, edge or row
	// whose strings take the encoding past maxOut bytes (strBytes counts
	// the bytes of every string written, a lower bound of the encoding's
	// length), so that an encoding far past MaxInputBytes is refused
	// before it is all built.
	maxOut, strBytes int64
	// recent, when not nil, caches the names of the table (see name);
	// its entries of generation gen are those of this encoding.
	recent *[recentNames]recentName
	gen    uint64
	// checked says the response has passed wire.Limits.Measure, whose
	// model check refuses reserved and repeated property keys: node then
	// leaves them to it.
	checked bool
	// content is set for a document's content, whose query type may be
	// "".
	content bool
}

// next is called after each node, edge and row: it reports false, with
// the error set, once the strings are past maxOut (from then on they are
// no longer written), and otherwise spills when spilling.
func (e *encoder) next(at string, i int) bool {
	if !e.within(at, i) {
		return false
	}
	return e.spill == nil || e.spill()
}

// within reports whether the strings are within maxOut, setting the error
// (which names at[i], or at alone when i < 0) when they are not.
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

// name writes a name (entity type, edge type, property key, column or cell
// name...): in full the first time, as its table index afterwards. It
// reports false when s is not UTF-8.
func (e *encoder) name(s string) bool {
	if e.names != nil {
		// Most names are met again and again in the same few places (a
		// node's type, its keys): a small cache of short names finds them
		// before the map does.
		if len(s) > maxRecentName || e.recent == nil {
			if i, ok := e.names[s]; ok {
				e.sink.integer(i)
				return true
			}
		} else {
			slot := &e.recent[nameSlot(s)]
			if slot.gen == e.gen && slot.s == s {
				e.sink.integer(slot.i)
				return true
			}
			if i, ok := e.names[s]; ok {
				*slot = recentName{s: s, i: i, gen: e.gen}
				e.sink.integer(i)
				return true
			}
		}
	}
	if !utf8.ValidString(s) {
		return false
	}
	if e.names != nil {
		i := int64(len(e.names))
		e.names[s] = i
		if len(s) <= maxRecentName && e.recent != nil {
			e.recent[nameSlot(s)] = recentName{s: s, i: i, gen: e.gen}
		}
	}
	if e.strBytes += int64(len(s)); e.maxOut > 0 && e.strBytes > e.maxOut {
		return true // not written: next refuses the encoding
	}
	e.sink.str(s)
	return true
}

// recentName is an entry of the encoder's cache of names: a name, its
// index in the string table, and the encoding it belongs to (an entry of
// another gen is empty).
type recentName struct {
	s   string
	i   int64
	gen uint64
}

// recentNames is the size of the cache, a power of two; it holds names
// of maxRecentName bytes at most, so that the names it keeps from one
// encoding to the next (until their entries are taken) hold little
// memory.
const (
	recentNames   = 256
	maxRecentName = 64
)

// nameSlot is the cache entry of s: its length and its first, middle and
// last bytes, mixed.
func nameSlot(s string) int {
	h := uint(len(s)) * 0x9e3779b1
	if n := len(s); n > 0 {
		h ^= uint(s[0]) ^ uint(s[n/2])<<3 ^ uint(s[n-1])<<6
	}
	return int((h ^ h>>8) & (recentNames - 1))
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
