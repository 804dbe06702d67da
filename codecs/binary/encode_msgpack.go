package binary

import (
	"encoding/binary"
	"math"
)

// mpSink writes MessagePack as the msgpack library's Encoder does (a test
// holds the two together): shortest forms, a float in 4 bytes when
// float32 holds it bit for bit (never NaN), 8 otherwise.
type mpSink struct{ b []byte }

func (s *mpSink) array(n int) { s.head(n, 15, 0x90, mpArray16) }

// object writes a map head of n entries (a document's, see head.go).
func (s *mpSink) object(n int) { s.head(n, 15, mpFixMap, mpMap16) }

// head writes a length head: fix|n up to fixMax, otherwise code16 and 16
// bits, or the code after it and 32 bits.
func (s *mpSink) head(n, fixMax int, fix, code16 byte) {
	switch {
	case n <= fixMax:
		s.b = append(s.b, fix|byte(n))
	case n <= math.MaxUint16:
		s.b = binary.BigEndian.AppendUint16(append(s.b, code16), uint16(n))
	default:
		s.b = binary.BigEndian.AppendUint32(append(s.b, code16+1), uint32(n))
	}
}

func (s *mpSink) null() { s.b = append(s.b, mpNil) }

func (s *mpSink) boolean(v bool) {
	if v {
		s.b = append(s.b, mpTrue)
	} else {
		s.b = append(s.b, mpFalse)
	}
}

func (s *mpSink) integer(i int64) {
	switch {
	case i >= 0 && i <= math.MaxInt8, i < 0 && i >= -32:
		s.b = append(s.b, byte(i)) // positive or negative fixint
	case i > 0 && i <= math.MaxUint8:
		s.b = append(s.b, mpUint8, byte(i))
	case i > 0 && i <= math.MaxUint16:
		s.b = binary.BigEndian.AppendUint16(append(s.b, mpUint8+1), uint16(i))
	case i > 0 && i <= math.MaxUint32:
		s.b = binary.BigEndian.AppendUint32(append(s.b, mpUint8+2), uint32(i))
	case i > 0:
		s.b = binary.BigEndian.AppendUint64(append(s.b, mpUint64), uint64(i))
	case i >= math.MinInt8:
		s.b = append(s.b, mpInt8, byte(i))
	case i >= math.MinInt16:
		s.b = binary.BigEndian.AppendUint16(append(s.b, mpInt8+1), uint16(i))
	case i >= math.MinInt32:
		s.b = binary.BigEndian.AppendUint32(append(s.b, mpInt8+2), uint32(i))
	default:
		s.b = binary.BigEndian.AppendUint64(append(s.b, mpInt64), uint64(i))
	}
}

func (s *mpSink) str(v string) {
	if n := len(v); n >= 32 && n <= math.MaxUint8 {
		s.b = append(s.b, mpStr8, byte(n))
	} else {
		s.head(n, 31, 0xa0, mpStr8+1)
	}
	s.b = append(s.b, v...)
}

func (s *mpSink) float(f float64) {
	if f32 := float32(f); f == f && math.Float64bits(float64(f32)) == math.Float64bits(f) {
		s.b = binary.BigEndian.AppendUint32(append(s.b, mpFloat32), math.Float32bits(f32))
		return
	}
	s.b = binary.BigEndian.AppendUint64(append(s.b, mpFloat64), math.Float64bits(f))
}
