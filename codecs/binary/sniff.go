package binary

import "github.com/graphwire/graphwire/wire"

// The response array's length: the five items every response has, up to
// the four optional ones (see the layout in the package doc).
const (
	minResponseItems = 5
	maxResponseItems = 9
)

// readsLayout reports whether Decode reads layout version v: 1 and 2.
func readsLayout(v uint64) bool { return v == layoutV1 || v == layoutVersion }

// Sniff implements wirecodec.Sniffer (see the package documentation,
// Detection).
func (c *Codec) Sniff(prefix []byte) float64 {
	h := msgpackHeads
	if c.format == CBOR {
		h = cborHeads
	}
	p := prefix
	if len(p) == 0 || !h.response(p[0]) {
		return 0
	}
	v, size, ok := h.uint(p[1:])
	if !ok || !readsLayout(v) {
		return 0
	}
	i := 1 + size
	n, size, ok := h.str(p[i:])
	if !ok {
		return 0
	}
	i += size
	if n > 64 || len(p) < i+n {
		return 0.3
	}
	for _, b := range p[i : i+n] {
		if b < 0x20 || b > 0x7e {
			return 0
		}
	}
	i += n
	if n, size, ok = h.str(p[i:]); !ok || len(p) < i+size+n {
		return 0.3
	}
	if !wire.QueryType(p[i+size : i+size+n]).Valid() {
		return 0.3
	}
	return 0.95
}

// heads reads the heads of one format's items; ok is false for any other
// item and for one cut off. Integers are read in the shortest form only.
type heads struct {
	// response reports whether b heads an array of a response's length.
	response func(b byte) bool
	// uint reads an unsigned integer: its value and the head's size.
	uint func(p []byte) (v uint64, size int, ok bool)
	// str reads the head of a string of fewer than 256 bytes: the
	// string's length and the head's size.
	str func(p []byte) (n, size int, ok bool)
}

var msgpackHeads = heads{
	response: func(b byte) bool { // fixarray
		return b >= 0x90+minResponseItems && b <= 0x90+maxResponseItems
	},
	uint: func(p []byte) (uint64, int, bool) {
		switch {
		case len(p) == 0:
		case p[0] <= 0x7f: // positive fixint
			return uint64(p[0]), 1, true
		case p[0] >= 0xcc && p[0] <= 0xcf: // uint 8, 16, 32, 64
			size := 1 + 1<<(p[0]-0xcc)
			if len(p) < size {
				break
			}
			v := bigEndian(p[1:size])
			return v, size, size == headSize(v, 0x80)
		}
		return 0, 0, false
	},
	str: func(p []byte) (int, int, bool) {
		switch {
		case len(p) >= 1 && p[0] >= 0xa0 && p[0] <= 0xbf: // fixstr
			return int(p[0] & 0x1f), 1, true
		case len(p) >= 2 && p[0] == 0xd9: // str 8
			return int(p[1]), 2, true
		}
		return 0, 0, false
	},
}

var cborHeads = heads{
	response: func(b byte) bool { // array, length in the head
		return b >= 0x80+minResponseItems && b <= 0x80+maxResponseItems
	},
	uint: func(p []byte) (uint64, int, bool) {
		major, v, size, ok := cborHead(p)
		return v, size, ok && major == 0 && size == headSize(v, 24)
	},
	str: func(p []byte) (int, int, bool) {
		switch {
		case len(p) >= 1 && p[0] >= 0x60 && p[0] <= 0x77: // text, length in the head
			return int(p[0] & 0x1f), 1, true
		case len(p) >= 2 && p[0] == 0x78: // text, 1-byte length
			return int(p[1]), 2, true
		}
		return 0, 0, false
	},
}

// headSize is the size of the shortest head holding v: one byte below
// inHead (0x80 in msgpack, 24 in CBOR), otherwise 2, 3, 5 or 9.
func headSize(v, inHead uint64) int {
	switch {
	case v < inHead:
		return 1
	case v <= 0xff:
		return 2
	case v <= 0xffff:
		return 3
	case v <= 0xffffffff:
		return 5
	}
	return 9
}

// bigEndian reads the unsigned big-endian integer of 1 to 8 bytes in b.
func bigEndian(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}
