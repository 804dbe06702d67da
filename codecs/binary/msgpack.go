package binary

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/graphwire/graphwire/wire"
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

// mpReader is the msgpack decoder's input: the data, read in place, so that
// the offset of every item is known.
type mpReader struct {
	data []byte
	off  int
}

func (r *mpReader) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	n := copy(p, r.data[r.off:])
	r.off += n
	return n, nil
}

func (r *mpReader) ReadByte() (byte, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	r.off++
	return r.data[r.off-1], nil
}

func (r *mpReader) UnreadByte() error {
	if r.off == 0 {
		return errors.New("msgpack: UnreadByte at the start of input")
	}
	r.off--
	return nil
}

// mpSource reads items with the msgpack library's low-level decoder,
// checking each item's kind before decoding it (the library would convert
// between kinds) and each declared length before anything is allocated.
func (s *mpSource) size() int { return len(s.data) }

type mpSource struct {
	mpReader
	dec   *msgpack.Decoder
	b     *bounds
	lim   *wire.Limits
	start int // offset of the item last read
	// pending counts the elements that open arrays have declared and that
	// have not been read yet. Each needs at least one byte, so a new array
	// may declare no more elements than the bytes left less pending: nested
	// arrays cannot claim the same remaining bytes twice over, and what the
	// decoder allocates for declared lengths stays within the input's size.
	pending int
}

func (s *mpSource) failAt(off int, msg string, err error) error {
	return decodeError(MsgpackName, off, msg, err)
}

func (s *mpSource) fail(msg string) error { return s.failAt(s.start, msg, nil) }

func (s *mpSource) failLimit(limit, msg string) error {
	return limitError(MsgpackName, s.start, limit, msg)
}

func (s *mpSource) next(t *token) error {
	s.start = s.off
	if s.pending > 0 {
		s.pending-- // this item is an element of an open array
	}
	c, err := s.dec.PeekCode()
	if err != nil {
		return s.failAt(s.off, "unexpected end of input", nil)
	}
	switch {
	case c == msgpcode.Nil:
		t.kind = kNull
		err = s.dec.DecodeNil()
	case c == msgpcode.False || c == msgpcode.True:
		t.kind = kBool
		t.b, err = s.dec.DecodeBool()
	case msgpcode.IsFixedNum(c), c == msgpcode.Int8, c == msgpcode.Int16, c == msgpcode.Int32, c == msgpcode.Int64,
		c == msgpcode.Uint8, c == msgpcode.Uint16, c == msgpcode.Uint32:
		t.kind = kInt
		t.i, err = s.dec.DecodeInt64()
	case c == msgpcode.Uint64:
		var u uint64
		if u, err = s.dec.DecodeUint64(); err == nil && u > math.MaxInt64 {
			return s.fail(fmt.Sprintf("integer %d out of int64 range", u))
		}
		t.kind, t.i = kInt, int64(u)
	case c == msgpcode.Float:
		var f float32
		f, err = s.dec.DecodeFloat32()
		t.kind, t.f = kFloat, float64(f)
	case c == msgpcode.Double:
		t.kind = kFloat
		t.f, err = s.dec.DecodeFloat64()
	case msgpcode.IsString(c):
		var n int
		if n, err = s.dec.DecodeBytesLen(); err != nil {
			break
		}
		switch left := len(s.data) - s.off; {
		case n > s.b.maxString:
			return s.failLimit("MaxStringBytes", fmt.Sprintf("string of %d bytes exceeds the limit of %d", n, s.lim.MaxStringBytes))
		case n > left:
			return s.fail(fmt.Sprintf("string of %d bytes runs past the end of input (%d bytes left)", n, left))
		}
		b := s.data[s.off : s.off+n]
		if !utf8.Valid(b) {
			return s.fail("string is not valid UTF-8")
		}
		t.kind, t.s = kString, string(b)
		s.off += n
	case msgpcode.IsFixedArray(c), c == msgpcode.Array16, c == msgpcode.Array32:
		var n int
		if n, err = s.dec.DecodeArrayLen(); err != nil {
			break
		}
		switch left := len(s.data) - s.off; {
		case n > s.b.maxArray:
			return s.failLimit("MaxElements", fmt.Sprintf("array of %d items exceeds the limit of %d elements", n, s.lim.MaxElements))
		case n > left:
			return s.fail(fmt.Sprintf("array of %d elements runs past the end of input (%d bytes left)", n, left))
		case n > left-s.pending:
			return s.fail(fmt.Sprintf("array of %d elements does not fit in the %d bytes left after the %d elements already declared", n, left, s.pending))
		}
		s.pending += n
		t.kind, t.i = kArray, int64(n)
	default:
		return s.fail(fmt.Sprintf("unsupported msgpack item (%s, code 0x%02x)", mpCodeName(c), c))
	}
	if err != nil {
		return s.failAt(s.start, "truncated item", err)
	}
	return nil
}

func mpCodeName(c byte) string {
	switch {
	case msgpcode.IsFixedMap(c), c == msgpcode.Map16, c == msgpcode.Map32:
		return "map"
	case msgpcode.IsBin(c):
		return "binary"
	case msgpcode.IsExt(c):
		return "extension"
	}
	return "reserved code"
}

type mpDecState struct {
	src mpSource
	d   decoder
}

var mpDecPool = sync.Pool{New: func() any {
	st := &mpDecState{}
	st.src.dec = msgpack.NewDecoder(&st.src.mpReader)
	return st
}}

func (c *Codec) decodeMsgpack(data []byte) (*wire.GraphResponse, error) {
	st := mpDecPool.Get().(*mpDecState)
	defer func() {
		st.src.data = nil
		st.d.reset(nil, nil)
		mpDecPool.Put(st)
	}()
	st.src.mpReader = mpReader{data: data}
	st.src.pending = 0
	st.src.b, st.src.lim = &c.b, &c.limits
	st.d.reset(&st.src, c)
	r := st.d.response()
	if st.d.err != nil {
		return nil, st.d.err
	}
	if st.src.off != len(data) {
		return nil, st.src.failAt(st.src.off, fmt.Sprintf("%d trailing bytes after the response", len(data)-st.src.off), nil)
	}
	return r, nil
}
