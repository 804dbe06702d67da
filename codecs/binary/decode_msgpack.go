package binary

import (
	"fmt"
	"math"
)

// nextMsgpack reads one MessagePack item of the kinds the layout holds
// into t; it refuses what the layout never contains (maps, binary and
// extension data, ...).
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
	case c == mpArray16 || c == mpArray32 || s.maps && (c == mpMap16 || c == mpMap32):
		size := 2 << (c & 1) // 16 or 32 bits
		n, ok := s.uintAt(size)
		if !ok {
			return s.truncated()
		}
		if c >= mpMap16 {
			return s.mapHead(t, n, 1+size)
		}
		return s.array(t, n, 1+size)
	case s.maps && c&0xf0 == mpFixMap:
		return s.mapHead(t, uint64(c&0x0f), 1)
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
