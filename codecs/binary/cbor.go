package binary

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"unsafe"

	"github.com/fxamacker/cbor/v2"

	"github.com/graphwire/graphwire/wire"
)

// cborEnc is RFC 8949 core deterministic encoding (shortest integer, length
// and float forms, definite lengths), except that a NaN keeps its float64
// form so that its payload survives bit for bit (§4.2.2 leaves NaN to the
// application).
var cborEnc = func() cbor.UserBufferEncMode {
	o := cbor.CoreDetEncOptions()
	o.NaNConvert = cbor.NaNConvertNone
	em, err := o.UserBufferEncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

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

// treeSink gathers the layout into nested []any for the CBOR library to
// encode. Arrays and scalars are cut from arenas that a pooled sink keeps
// from one response to the next, so that encoding allocates nothing once
// the arenas have grown to the size of the responses written.
type treeSink struct {
	stack []treeFrame
	root  any
	anys  arena[any]
	// Arrays, and scalars that boxing would copy to the heap, are handed to
	// the library as pointers into these arenas, so that boxing allocates
	// nothing.
	lists arena[[]any]
	ints  arena[int64]
	strs  arena[string]
	flts  arena[float64]
}

// emptyArray is the one empty array every response shares.
var emptyArray any = []any{}

type treeFrame struct {
	items []any
	want  int
}

// arenaChunk is the size, in elements, of an arena's chunks; a larger
// request gets a chunk of its own size.
const arenaChunk = 4096

// arenaKeep bounds, in bytes, what an arena keeps for the next response:
// past it the chunks are dropped, so that one huge response does not pin
// its memory in the pool. The 10,000-node benchmark response needs about
// 5 MiB in its largest arena.
const arenaKeep = 16 << 20

// arena hands out slices cut from chunks it keeps from one use to the next.
type arena[T any] struct {
	chunks [][]T
	cur    int // the chunk being cut; chunks before it are used up
}

// take returns a slice of length 0 and capacity n.
func (a *arena[T]) take(n int) []T {
	for a.cur < len(a.chunks) {
		c := a.chunks[a.cur]
		if cap(c)-len(c) >= n {
			a.chunks[a.cur] = c[:len(c)+n]
			return c[len(c) : len(c) : len(c)+n]
		}
		a.cur++
	}
	a.chunks = append(a.chunks, make([]T, n, max(n, arenaChunk)))
	return a.chunks[a.cur][:0:n]
}

// one returns a pointer to a new element holding v.
func (a *arena[T]) one(v T) *T {
	s := a.take(1)[:1]
	s[0] = v
	return &s[0]
}

// reset zeroes what was handed out (it may point into a response) and
// makes it available again, or drops everything once the chunks hold more
// than arenaKeep bytes.
func (a *arena[T]) reset() {
	var zero T
	size := 0
	for i, c := range a.chunks {
		if i <= a.cur {
			clear(c)
			a.chunks[i] = c[:0]
		}
		size += cap(c) * int(unsafe.Sizeof(zero))
	}
	if size > arenaKeep {
		*a = arena[T]{}
		return
	}
	a.cur = 0
}

func (t *treeSink) add(v any) {
	for {
		if len(t.stack) == 0 {
			t.root = v
			return
		}
		top := &t.stack[len(t.stack)-1]
		top.items = append(top.items, v)
		if len(top.items) < top.want {
			return
		}
		v = t.lists.one(top.items)
		top.items = nil
		t.stack = t.stack[:len(t.stack)-1]
	}
}

func (t *treeSink) array(n int) {
	if n == 0 {
		t.add(emptyArray)
		return
	}
	t.stack = append(t.stack, treeFrame{items: t.anys.take(n), want: n})
}

func (t *treeSink) null()          { t.add(nil) }
func (t *treeSink) boolean(b bool) { t.add(b) }
func (t *treeSink) integer(i int64) {
	if i >= 0 && i < 256 {
		t.add(i) // boxing a small integer allocates nothing
		return
	}
	t.add(t.ints.one(i))
}

func (t *treeSink) float(f float64) { t.add(t.flts.one(f)) }
func (t *treeSink) str(s string)    { t.add(t.strs.one(s)) }

// reset empties the sink for the next response, keeping its arenas.
func (t *treeSink) reset() {
	clear(t.stack[:cap(t.stack)])
	t.stack = t.stack[:0]
	t.root = nil
	t.anys.reset()
	t.lists.reset()
	t.ints.reset()
	t.strs.reset()
	t.flts.reset()
}

type cborEncState struct {
	sink  treeSink
	names map[string]int64
}

var cborEncPool = sync.Pool{New: func() any {
	return &cborEncState{names: make(map[string]int64, 64)}
}}

// maxOut, when positive, stops the walk once the encoding is surely longer
// (see encoder.maxOut).
func appendCBOR(dst []byte, r *wire.GraphResponse, table bool, maxOut int64) ([]byte, error) {
	st := cborEncPool.Get().(*cborEncState)
	defer func() {
		st.sink.reset()
		clear(st.names)
		cborEncPool.Put(st)
	}()
	e := encoder{sink: &st.sink, codec: CBORName, maxOut: maxOut}
	if table {
		e.names = st.names
	}
	e.response(r)
	e.within("the end", -1)
	if e.err != nil {
		return dst, e.err
	}
	buf := bytes.NewBuffer(dst)
	if err := cborEnc.MarshalToBuffer(st.sink.root, buf); err != nil {
		return dst, &wire.EncodeError{Codec: CBORName, Msg: "the CBOR library", Err: err}
	}
	return buf.Bytes(), nil
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
	e := decodeError(CBORName, s.offset(), msg, nil)
	e.Limit = limit
	return e
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
		e := decodeError(CBORName, c.cborFault(data), fmt.Sprintf("an array longer than the layout allows under MaxElements %d", c.limits.MaxElements), nil)
		e.Limit = "MaxElements"
		return e
	case errors.As(err, &tooDeep):
		e := decodeError(CBORName, c.cborFault(data), fmt.Sprintf("arrays nested deeper than the layout allows under MaxDepth %d", c.limits.MaxDepth), nil)
		e.Limit = "MaxDepth"
		return e
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
// type, argument, head length. It serves only to turn a path of array
// indices into a byte offset when reporting an error; decoding itself is the
// library's.
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
	for _, x := range b[1 : 1+size] {
		arg = arg<<8 | uint64(x)
	}
	return major, arg, 1 + size, true
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
