package binary

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"
)

// cborSink writes CBOR in RFC 8949's core deterministic forms: shortest
// heads, definite lengths, the shortest exact float, ±Inf as float16, NaN
// as float64 with its payload.
type cborSink struct{ b []byte }

// head appends an item head in its shortest form.
func (s *cborSink) head(major byte, n uint64) {
	switch {
	case n < 24:
		s.b = append(s.b, major|byte(n))
	case n <= math.MaxUint8:
		s.b = append(s.b, major|24, byte(n))
	case n <= math.MaxUint16:
		s.b = binary.BigEndian.AppendUint16(append(s.b, major|25), uint16(n))
	case n <= math.MaxUint32:
		s.b = binary.BigEndian.AppendUint32(append(s.b, major|26), uint32(n))
	default:
		s.b = binary.BigEndian.AppendUint64(append(s.b, major|27), n)
	}
}

func (s *cborSink) array(n int) { s.head(majorArray, uint64(n)) }

// object writes a map head of n entries (a document's, see head.go).
func (s *cborSink) object(n int) { s.head(cborMap<<5, uint64(n)) }

func (s *cborSink) null() { s.b = append(s.b, majorPrim|22) }

func (s *cborSink) boolean(v bool) {
	if v {
		s.b = append(s.b, majorPrim|21)
	} else {
		s.b = append(s.b, majorPrim|20)
	}
}

func (s *cborSink) integer(i int64) {
	if i >= 0 {
		s.head(majorUint, uint64(i))
	} else {
		s.head(majorNeg, uint64(^i)) // -1-i
	}
}

func (s *cborSink) str(v string) {
	s.head(majorText, uint64(len(v)))
	s.b = append(s.b, v...)
}

func (s *cborSink) float(f float64) {
	switch {
	case math.IsNaN(f):
		// float64, payload kept (NaNConvertNone)
	case math.IsInf(f, 0):
		s.b = binary.BigEndian.AppendUint16(append(s.b, majorPrim|25), uint16(float16.Fromfloat32(float32(f))))
		return
	case float64(float32(f)) == f:
		f32 := float32(f)
		p := float16.PrecisionFromfloat32(f32)
		f16 := float16.Fromfloat32(f32)
		if p == float16.PrecisionExact || (p == float16.PrecisionUnknown && f16.Float32() == f32) {
			s.b = binary.BigEndian.AppendUint16(append(s.b, majorPrim|25), uint16(f16))
			return
		}
		s.b = binary.BigEndian.AppendUint32(append(s.b, majorPrim|26), math.Float32bits(f32))
		return
	}
	s.b = binary.BigEndian.AppendUint64(append(s.b, majorPrim|27), math.Float64bits(f))
}
