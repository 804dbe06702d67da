package binary

import (
	"encoding/binary"

	"github.com/graphwire/graphwire/wire"
)

// The response array's length: the five items every response has, up to
// the four optional ones (see the layout in the package doc).
const (
	minResponseItems = 5
	maxResponseItems = 9
)

// readsLayout reports whether the decoder reads layout version v.
func readsLayout(v uint64) bool { return v == layoutV1 || v == layoutVersion }

// Sniff implements wire.Sniffer: the confidence that prefix opens the
// layout in the codec's format. The layout's opening is read as the encoder
// writes it: an array of 5 to 9 items, a layout version the decoder reads
// (1 or 2) as an integer in its shortest form, format_version as a string
// of at most 64 printable ASCII bytes, then the query type as a string
// naming one of wire.QueryTypes. All of it scores 0.95; an opening cut
// off, or whose format_version is longer or whose query type is unknown,
// 0.3; anything else 0. (A msgpack opening is never a CBOR one and the
// other way round: their array heads differ.)
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
// item, and for a head cut off by the end of p. Integers are read only in
// the shortest form, which the encoder always writes.
type heads struct {
	// response reports whether b is the head of an array of
	// minResponseItems to maxResponseItems items, which fits in the one
	// byte in both formats.
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
		if len(p) == 0 {
			return 0, 0, false
		}
		var v uint64
		size := 1
		switch b := p[0]; {
		case b <= 0x7f: // positive fixint
			return uint64(b), 1, true
		case b == 0xcc && len(p) >= 2: // uint 8
			v, size = uint64(p[1]), 2
		case b == 0xcd && len(p) >= 3: // uint 16
			v, size = uint64(binary.BigEndian.Uint16(p[1:])), 3
		case b == 0xce && len(p) >= 5: // uint 32
			v, size = uint64(binary.BigEndian.Uint32(p[1:])), 5
		case b == 0xcf && len(p) >= 9: // uint 64
			v, size = binary.BigEndian.Uint64(p[1:]), 9
		default:
			return 0, 0, false
		}
		return v, size, size == mpUintSize(v)
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

// mpUintSize is the size of the shortest msgpack head holding v.
func mpUintSize(v uint64) int {
	switch {
	case v <= 0x7f:
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

var cborHeads = heads{
	response: func(b byte) bool { // array, length in the head
		return b >= 0x80+minResponseItems && b <= 0x80+maxResponseItems
	},
	uint: func(p []byte) (uint64, int, bool) {
		if len(p) == 0 || p[0]>>5 != 0 { // major type 0
			return 0, 0, false
		}
		return cborArg(p)
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

// cborArg reads the argument of the CBOR head at p[0] and its size, only
// in its shortest form (RFC 8949 §4.2.1, which the encoder follows).
func cborArg(p []byte) (uint64, int, bool) {
	var v uint64
	size := 1
	switch ai := p[0] & 0x1f; {
	case ai < 24:
		return uint64(ai), 1, true
	case ai == 24 && len(p) >= 2:
		v, size = uint64(p[1]), 2
	case ai == 25 && len(p) >= 3:
		v, size = uint64(binary.BigEndian.Uint16(p[1:])), 3
	case ai == 26 && len(p) >= 5:
		v, size = uint64(binary.BigEndian.Uint32(p[1:])), 5
	case ai == 27 && len(p) >= 9:
		v, size = binary.BigEndian.Uint64(p[1:]), 9
	default:
		return 0, 0, false
	}
	return v, size, size == cborArgSize(v)
}

// cborArgSize is the size of the shortest CBOR head holding v.
func cborArgSize(v uint64) int {
	switch {
	case v < 24:
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
