package json

import (
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
)

// The canonical JSON writer's fast paths. Most strings of a response are
// short printable ASCII, and most keys and node types repeat from node to
// node: a string is looked at eight bytes at a time and copied with one
// append when nothing in it needs escaping, and a node's opening up to its
// id, and each property key with its comma and colon, are copied from
// where the encoder wrote them last rather than written again. Everything
// else goes through textwire.JSON, the one escaping rule, so the bytes are
// the same either way.

// span is where the encoder wrote something in its buffer, b[off:end];
// the zero span is none.
type span struct {
	off, end int
	// addr is the address of the string written between the quotes, as
	// a number: a string met again at the same address, of the same
	// length, is the same string (strings are immutable, and every
	// string the encoder writes belongs to the response, alive for the
	// whole encoding), so its bytes need no comparing. It is compared,
	// never used to reach memory, so it is not a pointer the collector
	// must know of.
	addr uintptr
}

// writeCache remembers where the encoder last wrote the pieces that repeat
// from element to element: a node's opening up to its id, a property key
// with its comma and colon, an edge's from, to and type with the keys
// around them. The next node of the same type or the next property of the
// same key copies those bytes. It refers to the output by offset, so
// growing the buffer does not invalidate it, and holds no pointer, so
// filling it costs no write barrier; the string is compared with the bytes
// written, or known by its address (span.addr), so only a string written
// as it is (textwire.JSON.Plain) is remembered.
// reset must be called when the buffer is emptied (a spill).
type writeCache struct {
	keys      [32]span // `,"key":`, for properties and row cells
	firstKey  [8]span  // `"key":`, a node cell's first property
	firstCell [8]span  // `{"name":`, a row's first cell
	types     [8]span
	from      [4]span
	to        [4]span
	etype     [8]span
}

func (c *writeCache) reset() { *c = writeCache{} }

// piece appends head, s and tail, where head ends with the quote that opens
// s and tail starts with the quote that closes it, copying the bytes from
// the slot of s in slots when they were written there before. head and
// tail are at least one byte long.
func (c *writeCache) piece(b []byte, slots []span, head, s, tail string) []byte {
	h := len(s)
	if h > 0 {
		h = h*31 + int(s[0])*7 + int(s[h-1])
	}
	slot := &slots[h&(len(slots)-1)]
	addr := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if at := *slot; at.end-at.off == len(head)+len(s)+len(tail) && (at.addr == addr || string(b[at.off+len(head):at.end-len(tail)]) == s) {
		return append(b, b[at.off:at.end]...)
	}
	if !textwire.JSON.Plain(s) {
		b = append(b, head[:len(head)-1]...)
		b = textwire.JSON.AppendQuoted(b, s)
		return append(b, tail[1:]...)
	}
	off := len(b)
	b = append(b, head...)
	b = append(b, s...)
	b = append(b, tail...)
	*slot = span{off, len(b), addr}
	return b
}
