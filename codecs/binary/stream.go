package binary

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/x448/float16"

	"github.com/graphwire/graphwire/wire"
)

// streamChunk is how many bytes EncodeTo gathers before it writes them; it
// writes after a node, edge or row, so one write may exceed it by one.
const streamChunk = 32 << 10

// EncodeTo writes the encoding of r to w as it produces it, in writes of
// about 32 KiB after whole nodes, edges and rows, so the output is never
// held whole in memory. The bytes are AppendEncode's. Nothing is written
// when encoding fails: a first pass checks the response, discarding its
// bytes as it goes, and a second writes them (about twice AppendEncode's
// time, for memory that does not grow with the output). Only an error from
// w can leave partial output.
//
// CBOR is written by a small writer of its own rather than through the
// CBOR library's value tree, which would hold the whole response: the
// same core deterministic forms (shortest heads; a float as float16,
// float32 or float64, whichever holds it exactly; ±Inf as float16; NaN as
// float64 with its payload).
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	name := c.format.String()
	if r == nil {
		return &wire.EncodeError{Codec: name, Msg: "nil response"}
	}
	size, err := c.limits.CheckSize(name, r)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, streamChunk+streamChunk/4)
	var n byteCounter
	if err := c.streamPass(&n, r, buf); err != nil {
		return err
	}
	if int64(n) > c.limits.MaxInputBytes {
		return &wire.EncodeError{Codec: name, Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("the encoding of %d bytes is longer than the limit of %d", int64(n), c.limits.MaxInputBytes)}
	}
	if err := c.limits.CheckExpansion(name, size, int64(n)); err != nil {
		return err
	}
	return c.streamPass(w, r, buf)
}

// byteCounter is a writer that only counts: the first pass of EncodeTo
// checks the response and measures its encoding without keeping it.
type byteCounter int64

func (n *byteCounter) Write(p []byte) (int, error) {
	*n += byteCounter(len(p))
	return len(p), nil
}

// streamPass encodes r, handing the bytes to w in chunks gathered in buf.
func (c *Codec) streamPass(w io.Writer, r *wire.GraphResponse, buf []byte) error {
	var werr error
	// flush writes b to w when it holds a chunk (or, at the end, when
	// final is set) and returns it emptied.
	flush := func(b []byte, final bool) []byte {
		if werr != nil || (len(b) < streamChunk && !final) || len(b) == 0 {
			return b
		}
		_, werr = w.Write(b)
		return b[:0]
	}
	e := encoder{codec: c.format.String(), names: make(map[string]int64, 64)}
	var end func()
	if c.format == CBOR {
		s := &cborStream{b: buf[:0]}
		e.sink = s
		e.spill = func() bool { s.b = flush(s.b, false); return werr == nil }
		end = func() { s.b = flush(s.b, true) }
	} else {
		st := mpEncPool.Get().(*mpEncState)
		defer func() {
			st.sink.w.b = nil
			mpEncPool.Put(st)
		}()
		st.sink.w.b = buf[:0]
		e.sink = &st.sink
		e.spill = func() bool { st.sink.w.b = flush(st.sink.w.b, false); return werr == nil }
		end = func() { st.sink.w.b = flush(st.sink.w.b, true) }
	}
	e.response(r)
	if e.err != nil {
		return e.err
	}
	if werr == nil {
		end()
	}
	return werr
}

// cborStream writes the layout as CBOR bytes directly; see EncodeTo.
type cborStream struct{ b []byte }

// The major types of CBOR (RFC 8949 §3.1) the layout uses, in the high
// three bits of an initial byte.
const (
	majorUint  = 0 << 5
	majorNeg   = 1 << 5
	majorText  = 3 << 5
	majorArray = cborArray << 5
	majorPrim  = 7 << 5
)

// head appends an item head in its shortest form.
func (s *cborStream) head(major byte, n uint64) {
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

func (s *cborStream) array(n int) { s.head(majorArray, uint64(n)) }
func (s *cborStream) null()       { s.b = append(s.b, majorPrim|22) }

func (s *cborStream) boolean(v bool) {
	if v {
		s.b = append(s.b, majorPrim|21)
	} else {
		s.b = append(s.b, majorPrim|20)
	}
}

func (s *cborStream) integer(i int64) {
	if i >= 0 {
		s.head(majorUint, uint64(i))
	} else {
		s.head(majorNeg, uint64(^i)) // -1-i
	}
}

func (s *cborStream) str(v string) {
	s.head(majorText, uint64(len(v)))
	s.b = append(s.b, v...)
}

func (s *cborStream) float(f float64) {
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
