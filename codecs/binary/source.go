package binary

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/x448/float16"

	"github.com/graphwire/graphwire/wire"
)

// source reads the items of one encoding in place, in either format, one
// item per call of next: no tree of the whole input is built first, every
// error is positioned at the item at fault, and each declared length is
// checked against the limits and the bytes that remain before the decoder
// allocates anything for it.
type source struct {
	data []byte
	// text is data as a string, made once per decode: every string item
	// is a substring of it, so that a response's strings take one
	// allocation of the input's length rather than one each.
	text   string
	off    int
	start  int // offset of the item last read
	format Format
	b      *bounds
	lim    *wire.Limits
	// pending counts the elements that open arrays have declared and that
	// have not been read yet. Each needs at least one byte, so a new array
	// may declare no more elements than the bytes left less pending: nested
	// arrays cannot claim the same remaining bytes twice over, and what the
	// decoder allocates for declared lengths stays within the input's size.
	pending int
}

func (s *source) reset(data []byte, f Format, c *Codec) {
	*s = source{data: data, format: f}
	if c != nil {
		s.text, s.b, s.lim = string(data), &c.b, &c.core.Limits
	}
}

func (s *source) size() int { return len(s.data) }

// left is the number of bytes not yet read.
func (s *source) left() int { return len(s.data) - s.off }

func (s *source) failAt(off int, msg string, err error) error {
	return decodeError(s.format.String(), off, msg, err)
}

// fail returns a *wire.DecodeError positioned at the item last read.
func (s *source) fail(msg string) error { return s.failAt(s.start, msg, nil) }

// failLimit is fail for a refusal by the Limits field limit.
func (s *source) failLimit(limit, msg string) error {
	return limitError(s.format.String(), s.start, limit, msg)
}

func (s *source) truncated() error {
	return s.failAt(s.start, "truncated item", io.ErrUnexpectedEOF)
}

// next reads the next item into t. Its errors are *wire.DecodeError.
func (s *source) next(t *token) error {
	s.start = s.off
	if s.pending > 0 {
		s.pending-- // this item is an element of an open array
	}
	if s.off >= len(s.data) {
		return s.failAt(s.off, "unexpected end of input", nil)
	}
	if s.format == CBOR {
		return s.nextCBOR(t)
	}
	return s.nextMsgpack(t)
}

// uintAt reads the big-endian unsigned integer of size bytes (1, 2, 4 or
// 8) after the head byte at s.off, or reports false when the input ends
// first.
func (s *source) uintAt(size int) (uint64, bool) {
	p := s.off + 1
	if len(s.data)-p < size {
		return 0, false
	}
	b := s.data[p : p+size]
	switch size {
	case 1:
		return uint64(b[0]), true
	case 2:
		return uint64(binary.BigEndian.Uint16(b)), true
	case 4:
		return uint64(binary.BigEndian.Uint32(b)), true
	}
	return binary.BigEndian.Uint64(b), true
}

// str reads the n bytes of a string item whose head takes h bytes.
func (s *source) str(t *token, n uint64, h int) error {
	left := len(s.data) - s.off - h
	switch {
	case n > uint64(s.b.maxString):
		return s.failLimit("MaxStringBytes", fmt.Sprintf("string of %d bytes exceeds the limit of %d", n, s.lim.MaxStringBytes))
	case n > uint64(left):
		return s.fail(fmt.Sprintf("string of %d bytes runs past the end of input (%d bytes left)", n, left))
	}
	p := s.off + h
	b := s.data[p : p+int(n)]
	if !utf8.Valid(b) {
		return s.fail("string is not valid UTF-8")
	}
	t.kind, t.s = kString, s.text[p:p+int(n)]
	s.off = p + int(n)
	return nil
}

// array reads an array head of h bytes declaring n elements.
func (s *source) array(t *token, n uint64, h int) error {
	left := len(s.data) - s.off - h
	switch {
	case n > uint64(s.b.maxArray):
		return s.failLimit("MaxElements", fmt.Sprintf("array of %d items exceeds the limit of %d elements", n, s.lim.MaxElements))
	case n > uint64(left):
		return s.fail(fmt.Sprintf("array of %d elements runs past the end of input (%d bytes left)", n, left))
	case int(n) > left-s.pending:
		return s.fail(fmt.Sprintf("array of %d elements does not fit in the %d bytes left after the %d elements already declared", n, left, s.pending))
	}
	s.pending += int(n)
	s.off += h
	t.kind, t.i = kArray, int64(n)
	return nil
}

// The MessagePack codes the layout uses (the format's spec, "Formats").
const (
	mpNil     = 0xc0
	mpFalse   = 0xc2
	mpTrue    = 0xc3
	mpFloat32 = 0xca
	mpFloat64 = 0xcb
	mpUint8   = 0xcc
	mpUint64  = 0xcf
	mpInt8    = 0xd0
	mpInt64   = 0xd3
	mpStr8    = 0xd9
	mpStr32   = 0xdb
	mpArray16 = 0xdc
	mpArray32 = 0xdd
	mpFixMap  = 0x80 // a document's map (head.go), never the layout's
	mpMap16   = 0xde
	mpMap32   = 0xdf
)

func (s *source) nextMsgpack(t *token) error {
	c := s.data[s.off]
	switch {
	case c <= 0x7f: // positive fixint
		t.kind, t.i = kInt, int64(c)
		s.off++
		return nil
	case c >= 0xe0: // negative fixint
		t.kind, t.i = kInt, int64(int8(c))
		s.off++
		return nil
	case c >= 0xa0 && c <= 0xbf: // fixstr
		return s.str(t, uint64(c&0x1f), 1)
	case c >= 0x90 && c <= 0x9f: // fixarray
		return s.array(t, uint64(c&0x0f), 1)
	}
	switch {
	case c == mpNil:
		t.kind = kNull
		s.off++
	case c == mpFalse || c == mpTrue:
		t.kind, t.b = kBool, c == mpTrue
		s.off++
	case c >= mpUint8 && c <= mpUint64:
		size := 1 << (c - mpUint8)
		u, ok := s.uintAt(size)
		switch {
		case !ok:
			return s.truncated()
		case u > math.MaxInt64:
			return s.fail(fmt.Sprintf("integer %d out of int64 range", u))
		}
		t.kind, t.i = kInt, int64(u)
		s.off += 1 + size
	case c >= mpInt8 && c <= mpInt64:
		size := 1 << (c - mpInt8)
		u, ok := s.uintAt(size)
		if !ok {
			return s.truncated()
		}
		shift := 64 - 8*size // sign-extend
		t.kind, t.i = kInt, int64(u<<shift)>>shift
		s.off += 1 + size
	case c == mpFloat32:
		u, ok := s.uintAt(4)
		if !ok {
			return s.truncated()
		}
		t.kind, t.f = kFloat, float64(math.Float32frombits(uint32(u)))
		s.off += 5
	case c == mpFloat64:
		u, ok := s.uintAt(8)
		if !ok {
			return s.truncated()
		}
		t.kind, t.f = kFloat, math.Float64frombits(u)
		s.off += 9
	case c >= mpStr8 && c <= mpStr32:
		size := 1 << (c - mpStr8)
		n, ok := s.uintAt(size)
		if !ok {
			return s.truncated()
		}
		return s.str(t, n, 1+size)
	case c == mpArray16 || c == mpArray32:
		size := 2 << (c - mpArray16)
		n, ok := s.uintAt(size)
		if !ok {
			return s.truncated()
		}
		return s.array(t, n, 1+size)
	default:
		return s.fail(fmt.Sprintf("unsupported msgpack item (%s, code 0x%02x)", mpCodeName(c), c))
	}
	return nil
}

func mpCodeName(c byte) string {
	switch {
	case c >= 0x80 && c <= 0x8f, c == 0xde, c == 0xdf:
		return "map"
	case c >= 0xc4 && c <= 0xc6:
		return "binary"
	case c >= 0xc7 && c <= 0xc9, c >= 0xd4 && c <= 0xd8:
		return "extension"
	}
	return "reserved code"
}

// The simple values and float heads of CBOR's major type 7 (RFC 8949
// §3.3).
const (
	cborFalse     = 20
	cborTrue      = 21
	cborNull      = 22
	cborUndefined = 23
	cborSimple8   = 24
	cborFloat16   = 25
	cborFloat32   = 26
	cborFloat64   = 27
	cborIndef     = 31
)

// nextCBOR reads one well-formed definite-length item of the kinds the
// layout holds; it refuses what the layout never contains: byte strings,
// maps, tags, undefined and other simple values, indefinite lengths.
func (s *source) nextCBOR(t *token) error {
	c := s.data[s.off]
	major, ai := c>>5, c&0x1f
	arg, h := uint64(ai), 1
	switch {
	case ai < 24:
	case ai <= 27:
		size := 1 << (ai - 24)
		u, ok := s.uintAt(size)
		if !ok {
			return s.failAt(len(s.data), "unexpected end of input", nil)
		}
		arg, h = u, 1+size
	case ai == cborIndef && major >= 2 && major <= 5:
		return s.fail("indefinite-length item (the layout uses definite lengths only)")
	default:
		return s.fail(fmt.Sprintf("malformed CBOR item (initial byte 0x%02x)", c))
	}
	switch major {
	case 0:
		if arg > math.MaxInt64 {
			return s.fail(fmt.Sprintf("integer %d out of int64 range", arg))
		}
		t.kind, t.i = kInt, int64(arg)
	case 1:
		if arg > math.MaxInt64 {
			return s.fail(fmt.Sprintf("integer -1-%d out of int64 range", arg))
		}
		t.kind, t.i = kInt, int64(^arg) // -1-arg
	case 2:
		return s.fail("unsupported CBOR item (byte string)")
	case 3:
		if left := uint64(len(s.data) - s.off - h); arg > left && arg <= math.MaxInt64 {
			return s.failAt(len(s.data), fmt.Sprintf("unexpected end of input: the string at offset %d declares %d bytes, %d are left", s.start, arg, left), nil)
		}
		return s.str(t, arg, h)
	case cborArray:
		return s.array(t, arg, h)
	case 5:
		return s.fail("unsupported CBOR item (map)")
	case 6:
		return s.fail(fmt.Sprintf("unsupported CBOR item (tag %d)", arg))
	default:
		switch ai {
		case cborFalse, cborTrue:
			t.kind, t.b = kBool, ai == cborTrue
		case cborNull:
			t.kind = kNull
		case cborFloat16:
			t.kind, t.f = kFloat, float64(float16.Frombits(uint16(arg)).Float32())
		case cborFloat32:
			t.kind, t.f = kFloat, float64(math.Float32frombits(uint32(arg)))
		case cborFloat64:
			t.kind, t.f = kFloat, math.Float64frombits(arg)
		case cborUndefined:
			return s.fail("unsupported CBOR item (undefined)")
		case cborSimple8:
			if arg < 32 {
				return s.fail(fmt.Sprintf("malformed CBOR item (simple value %d in two bytes)", arg))
			}
			return s.fail(fmt.Sprintf("unsupported CBOR item (simple value %d)", arg))
		default:
			return s.fail(fmt.Sprintf("unsupported CBOR item (simple value %d)", ai))
		}
	}
	s.off += h
	return nil
}
