package binary

import (
	"fmt"
	"math"

	"github.com/x448/float16"
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
		return s.fail(fmt.Sprintf("indefinite-length %s (graphwire writes definite lengths only)", [...]string{"byte string", "string", "array", "map"}[major-2]))
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
	case cborMap:
		if s.maps {
			return s.mapHead(t, arg, h)
		}
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
