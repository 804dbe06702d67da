package binary

import (
	"math"

	"github.com/vmihailenco/msgpack/v5"
)

// appendWriter is the msgpack encoder's output: it appends to a slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func (w *appendWriter) WriteByte(c byte) error {
	w.b = append(w.b, c)
	return nil
}

// mpSink writes the layout with the msgpack library's low-level encoder.
// Integers take their shortest form; a float takes 4 bytes when float32
// holds it bit for bit, 8 otherwise (NaN always 8, so its payload stays).
type mpSink struct {
	enc *msgpack.Encoder
	w   appendWriter
}

// The writer never fails, so the encoder's errors are always nil.
func (s *mpSink) array(n int)     { _ = s.enc.EncodeArrayLen(n) }
func (s *mpSink) null()           { _ = s.enc.EncodeNil() }
func (s *mpSink) boolean(b bool)  { _ = s.enc.EncodeBool(b) }
func (s *mpSink) integer(i int64) { _ = s.enc.EncodeInt(i) }
func (s *mpSink) str(v string)    { _ = s.enc.EncodeString(v) }
func (s *mpSink) float(f float64) {
	if f32 := float32(f); f == f && math.Float64bits(float64(f32)) == math.Float64bits(f) {
		_ = s.enc.EncodeFloat32(f32)
		return
	}
	_ = s.enc.EncodeFloat64(f)
}

