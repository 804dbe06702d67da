package binary

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/fxamacker/cbor/v2"
	"github.com/x448/float16"

	"github.com/graphwire/graphwire/wire"
)

// cborDecMode builds the CBOR library's decoder for b: its nesting and
// array limits are b's, and it rejects what the layout never contains and
// the library would otherwise turn into something else: tags,
// indefinite-length items, undefined (which would read as null), invalid
// UTF-8.
func cborDecMode(b bounds) (cbor.DecMode, error) {
	simple, err := cbor.NewSimpleValueRegistryFromDefaults(cbor.WithRejectedSimpleValue(23)) // undefined
	if err != nil {
		return nil, err
	}
	return cbor.DecOptions{
		MaxNestedLevels:  b.maxNesting,
		MaxArrayElements: b.maxArray,
		MaxMapPairs:      16, // the smallest the library allows; a map is an error anyway
		IndefLength:      cbor.IndefLengthForbidden,
		TagsMd:           cbor.TagsForbidden,
		IntDec:           cbor.IntDecConvertNone,
		UTF8:             cbor.UTF8RejectInvalid,
		SimpleValues:     simple,
	}.DecMode()
}

// cborSink writes the layout as CBOR bytes, in RFC 8949's core
// deterministic forms: shortest heads, definite lengths, a float as
// float16, float32 or float64, whichever holds it exactly, ±Inf as
// float16, and NaN as float64 with its payload (§4.2.2 leaves NaN to the
// application; the payload survives bit for bit). It writes directly rather
// than through the CBOR library's value tree, which would hold the whole
// response.
type cborSink struct{ b []byte }

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
func (s *cborSink) null()       { s.b = append(s.b, majorPrim|22) }

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

// cborSource walks the tree the CBOR library decoded. Positions are not
// kept while walking; on an error the path of indices down to the item is
// turned into a byte offset (see offset).
type cborSource struct {
	c     *Codec
	data  []byte
	stack []cborFrame
}

type cborFrame struct {
	items []any
	i     int // the next element; items[i-1] is the one last read
}

func (s *cborSource) size() int { return len(s.data) }

func (s *cborSource) fail(msg string) error {
	return decodeError(CBORName, s.offset(), msg, nil)
}

func (s *cborSource) failLimit(limit, msg string) error {
	return limitError(CBORName, s.offset(), limit, msg)
}

func (s *cborSource) next(t *token) error {
	for len(s.stack) > 0 && s.stack[len(s.stack)-1].i == len(s.stack[len(s.stack)-1].items) {
		s.stack = s.stack[:len(s.stack)-1]
	}
	if len(s.stack) == 0 {
		return decodeError(CBORName, len(s.data), "read past the end of the response", nil)
	}
	top := &s.stack[len(s.stack)-1]
	v := top.items[top.i]
	top.i++
	switch x := v.(type) {
	case nil:
		t.kind = kNull
	case bool:
		t.kind, t.b = kBool, x
	case uint64:
		if x > math.MaxInt64 {
			return s.fail(fmt.Sprintf("integer %d out of int64 range", x))
		}
		t.kind, t.i = kInt, int64(x)
	case int64:
		t.kind, t.i = kInt, x
	case float64:
		t.kind, t.f = kFloat, x
	case string:
		if len(x) > s.c.b.maxString {
			return s.failLimit("MaxStringBytes", fmt.Sprintf("string of %d bytes exceeds the limit of %d", len(x), s.c.limits.MaxStringBytes))
		}
		t.kind, t.s = kString, x
	case []any:
		s.stack = append(s.stack, cborFrame{items: x})
		t.kind, t.i = kArray, int64(len(x))
	case []byte:
		return s.fail("unsupported CBOR item (byte string)")
	case map[any]any:
		return s.fail("unsupported CBOR item (map)")
	case cbor.SimpleValue:
		return s.fail(fmt.Sprintf("unsupported CBOR item (simple value %d)", x))
	default:
		return s.fail(fmt.Sprintf("unsupported CBOR item (%T)", x))
	}
	return nil
}

type cborDecState struct {
	src cborSource
	d   decoder
}

var cborDecPool = sync.Pool{New: func() any { return &cborDecState{} }}

func (c *Codec) decodeCBOR(data []byte) (*wire.GraphResponse, error) {
	var root any
	rest, err := c.dm.UnmarshalFirst(data, &root)
	if err != nil {
		return nil, c.cborLibError(data, err)
	}
	if len(rest) > 0 {
		return nil, decodeError(CBORName, len(data)-len(rest), fmt.Sprintf("%d trailing bytes after the response", len(rest)), nil)
	}
	st := cborDecPool.Get().(*cborDecState)
	defer func() {
		clear(st.src.stack[:cap(st.src.stack)])
		st.src = cborSource{stack: st.src.stack[:0]}
		st.d.reset(nil, nil)
		cborDecPool.Put(st)
	}()
	st.src.c, st.src.data = c, data
	st.src.stack = append(st.src.stack, cborFrame{items: []any{root}})
	st.d.reset(&st.src, c)
	r := st.d.response()
	if st.d.err != nil {
		return nil, st.d.err
	}
	return r, nil
}

// libError is an error of the CBOR library, without its "cbor: " prefix
// (the DecodeError carrying it names the codec already).
type libError struct{ err error }

func (e libError) Error() string { return strings.TrimPrefix(e.err.Error(), "cbor: ") }
func (e libError) Unwrap() error { return e.err }

// cborLibError positions an error the CBOR library reported without an
// offset: the end of input for a truncated item, otherwise the innermost
// item found to be at fault.
func (c *Codec) cborLibError(data []byte, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return decodeError(CBORName, len(data), "unexpected end of input", nil)
	}
	var tooLong *cbor.MaxArrayElementsError
	var tooDeep *cbor.MaxNestedLevelError
	switch {
	case errors.As(err, &tooLong):
		return limitError(CBORName, c.cborFault(data), "MaxElements", fmt.Sprintf("an array longer than the layout allows under MaxElements %d", c.limits.MaxElements))
	case errors.As(err, &tooDeep):
		return limitError(CBORName, c.cborFault(data), "MaxDepth", fmt.Sprintf("arrays nested deeper than the layout allows under MaxDepth %d", c.limits.MaxDepth))
	}
	return decodeError(CBORName, c.cborFault(data), "", libError{err})
}

// skipItem accepts any well-formed item without keeping it; decoding into
// it measures an item's length.
type skipItem struct{}

func (*skipItem) UnmarshalCBOR([]byte) error { return nil }

// itemEnd returns the offset just past the item at off, or -1 when the
// library rejects that item.
func (c *Codec) itemEnd(data []byte, off int) int {
	rest, err := c.dm.UnmarshalFirst(data[off:], &skipItem{})
	if err != nil {
		return -1
	}
	return len(data) - len(rest)
}

// cborHead reads the head of a definite-length item (RFC 8949 §3): major
// type, argument, head length. It serves to turn a path of array indices
// into a byte offset when reporting an error, and Sniff; decoding itself is
// the library's.
func cborHead(b []byte) (major byte, arg uint64, n int, ok bool) {
	if len(b) == 0 {
		return 0, 0, 0, false
	}
	major, ai := b[0]>>5, b[0]&0x1f
	if ai < 24 {
		return major, uint64(ai), 1, true
	}
	if ai > 27 {
		return major, 0, 1, false
	}
	size := 1 << (ai - 24)
	if len(b) < 1+size {
		return major, 0, 1, false
	}
	return major, bigEndian(b[1 : 1+size]), 1 + size, true
}

const cborArray = 4

// cborFault descends from the top item into the first element the library
// rejects, as long as that element lies inside an array, and returns the
// offset of the innermost rejected item.
func (c *Codec) cborFault(data []byte) int {
	off := 0
	for level := 1; ; level++ {
		major, count, h, ok := cborHead(data[off:])
		if !ok || major != cborArray || level > c.b.maxNesting || count > uint64(c.b.maxArray) {
			return off
		}
		p, bad := off+h, -1
		for i := uint64(0); i < count && bad < 0; i++ {
			if p >= len(data) {
				return len(data)
			}
			if end := c.itemEnd(data, p); end < 0 {
				bad = p
			} else {
				p = end
			}
		}
		if bad < 0 {
			return off
		}
		off = bad
	}
}

// offset returns the byte offset of the item last read: it follows the
// path of indices on the stack down from the top item, measuring heads and
// skipping earlier siblings whole.
func (s *cborSource) offset() int {
	off := 0
	for k, f := range s.stack {
		if f.i == 0 {
			break // the array itself was the item last read
		}
		if k == 0 {
			continue // the top item starts at 0
		}
		_, _, h, ok := cborHead(s.data[off:])
		if !ok {
			return off
		}
		off += h
		for j := 0; j < f.i-1; j++ {
			end := s.c.itemEnd(s.data, off)
			if end < 0 {
				return off
			}
			off = end
		}
	}
	return off
}
