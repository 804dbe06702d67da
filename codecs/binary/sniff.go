package binary

import "github.com/graphwire/graphwire/wire"

// Sniff implements wirecodec.Sniffer (see the package documentation,
// Detection).
func (c *Codec) Sniff(prefix []byte) float64 {
	h := &msgpackHeads
	if c.format == CBOR {
		h = &cborHeads
	}
	p := prefix
	// The response's array of 5 to 9 items, then layout version 1 or 2,
	// each one byte in its shortest form.
	if len(p) < 2 || p[0] < h.array+5 || p[0] > h.array+9 || p[1] != layoutV1 && p[1] != layoutVersion {
		return 0
	}
	i := 2
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

// heads are the initial bytes of one format's items that Sniff reads.
type heads struct {
	array  byte // an array whose length is in the byte
	str0   byte // a string whose length, up to fixStr, is in the byte
	fixStr byte
	str8   byte // a string with a one-byte length
}

var (
	msgpackHeads = heads{array: 0x90, str0: 0xa0, fixStr: 31, str8: mpStr8}
	cborHeads    = heads{array: 0x80, str0: 0x60, fixStr: 23, str8: 0x78}
)

// str reads the head of a string of fewer than 256 bytes: the string's
// length and the head's size.
func (h *heads) str(p []byte) (n, size int, ok bool) {
	switch {
	case len(p) >= 1 && p[0] >= h.str0 && p[0] <= h.str0+h.fixStr:
		return int(p[0] - h.str0), 1, true
	case len(p) >= 2 && p[0] == h.str8:
		return int(p[1]), 2, true
	}
	return 0, 0, false
}
