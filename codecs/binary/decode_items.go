package binary

import (
	"fmt"
	"math"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// kind is the kind of one item of the layout as a source reports it.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kString
	kArray
	kMap // a document's map only
)

var itemNames = [...]string{"null", "bool", "integer", "float", "string", "array", "map"}

func (k kind) String() string { return itemNames[k] }

// token is one item: a scalar, or the head of an array (its length in i).
type token struct {
	kind kind
	b    bool
	i    int64
	f    float64
	s    string
}

// decoder walks the layout over a source, for both formats: its single
// items here, its records in decode.go. The first error sticks.
type decoder struct {
	src   *source
	c     *Codec          // its limits and bounds
	names nameTable       // the string table: names written in full so far
	props []wire.Property // the chunk node properties are taken from
	depth int             // arrays entered
	lists int             // list values entered
	m     *wirecodec.Meter
	err   error
	tok   token
	// reserved is the room allocated ahead for elements not yet read
	// (reserve).
	reserved int64
	// Chunks for small rows, node references and lists (take).
	cells []wire.Cell
	nodes []wire.Node
	vals  []wire.Value
	// content: a document's content, whose query type may be "".
	content bool
}

func (d *decoder) reset(src *source, c *Codec) {
	d.names.reset()
	*d = decoder{src: src, c: c, names: d.names}
	if c != nil {
		d.m = wirecodec.NewMeter(c.core.Limits, len(src.data))
	}
}

// reserve returns the capacity for a sequence of n elements of at least
// size bytes in memory: refused (MaxExpansion) when they cannot fit under
// the in-memory bound, the whole when they fit beside what is counted and
// reserved (reserved until release), otherwise maxPrealloc at most.
func (d *decoder) reserve(what string, n int, size int64) (capacity int, reserved int64) {
	need := int64(n) * size
	switch room := d.m.MemoryRoom(); {
	case d.err != nil:
		return 0, 0
	case need > room:
		d.failLimit("MaxExpansion", "%s: %d elements of at least %d bytes each would take the decoded response past %d bytes in memory",
			what, n, size, d.m.InMemory()+room)
		return 0, 0
	case need <= room-d.reserved:
		d.reserved += need
		return n, need
	}
	return prealloc(n), 0
}

// release returns what reserve reserved once its sequence is read.
func (d *decoder) release(reserved int64) { d.reserved -= reserved }

// A sequence of at most smallSeq elements takes its room from a chunk
// shared by its kind; chunks grow four-fold from 16 elements to chunkLen,
// never past the bytes left, so a chunk's unused room is at most 384 KiB.
const (
	chunkLen = 8192
	smallSeq = 64
)

// take returns an empty slice with room for n elements from *chunk, n
// being at most smallSeq; left is the bytes left in the input.
func take[T any](chunk *[]T, n, left int) []T {
	c := *chunk
	if c == nil || cap(c)-len(c) < n {
		c = make([]T, 0, max(min(4*cap(c), chunkLen, left), 16, n))
	}
	s := c[len(c) : len(c) : len(c)+n]
	*chunk = c[:len(c)+n]
	return s
}

// alloc returns an empty slice with room for n elements of size bytes:
// from chunk for a small sequence, otherwise as reserve decides.
func alloc[T any](d *decoder, chunk *[]T, what string, n int, size int64) ([]T, int64) {
	if n <= smallSeq {
		return take(chunk, n, d.src.left()), 0
	}
	c, r := d.reserve(what, n, size)
	if d.err != nil {
		return nil, 0
	}
	return make([]T, 0, c), r
}

func (d *decoder) read() *token {
	if d.err != nil {
		return nil
	}
	if err := d.src.next(&d.tok); err != nil {
		d.err = err
		return nil
	}
	return &d.tok
}

func (d *decoder) failf(format string, args ...any) {
	if d.err == nil {
		d.err = d.src.fail(fmt.Sprintf(format, args...))
	}
}

// failLimit records a refusal by the Limits field limit.
func (d *decoder) failLimit(limit, format string, args ...any) {
	if d.err == nil {
		d.err = d.src.failLimit(limit, fmt.Sprintf(format, args...))
	}
}

// count checks a sequence's length against MaxElements.
func (d *decoder) count(what string, n int) {
	if n > d.c.core.Limits.MaxElements {
		d.failLimit("MaxElements", "%s: %d elements, more than the limit of %d", what, n, d.c.core.Limits.MaxElements)
	}
}

// checkLen checks a string, name or key against MaxStringBytes.
func (d *decoder) checkLen(what, s string) {
	if len(s) > d.c.core.Limits.MaxStringBytes {
		d.failLimit("MaxStringBytes", "%s: a string of %d bytes, longer than the limit of %d", what, len(s), d.c.core.Limits.MaxStringBytes)
	}
}

// metered records a refusal by MaxMaterializedBytes when ok is false.
func (d *decoder) metered(ok bool) {
	if !ok {
		d.failLimit(d.m.LimitName(), "%s", d.m.Msg())
	}
}

func (d *decoder) wrongKind(what string, want string, t *token) {
	d.failf("%s: expected %s, found %s", what, want, t.kind)
}

// item reads an item of kind k, or with opt null; it returns nil for
// null and after an error.
func (d *decoder) item(what string, k kind, opt bool) *token {
	t := d.read()
	switch {
	case t == nil || t.kind == k:
		return t
	case opt && t.kind == kNull:
	case opt:
		d.wrongKind(what, itemNames[k]+" or null", t)
	default:
		d.wrongKind(what, itemNames[k], t)
	}
	return nil
}

// array reads an array head of min to max elements and enters it.
func (d *decoder) array(what string, min, max int) int {
	if t := d.item(what, kArray, false); t != nil {
		return d.enter(what, int(t.i), min, max)
	}
	return 0
}

func (d *decoder) enter(what string, n, min, max int) int {
	switch {
	case n < min || n > max:
		if min == max {
			d.failf("%s: %d elements, expected %d", what, n, min)
		} else if max == math.MaxInt {
			d.failf("%s: %d elements, expected at least %d", what, n, min)
		} else {
			d.failf("%s: %d elements, expected %d to %d", what, n, min, max)
		}
		return 0
	case d.depth >= d.c.b.maxNesting:
		d.failLimit("MaxDepth", "%s: arrays nested deeper than %d levels", what, d.c.b.maxNesting)
		return 0
	}
	d.depth++
	return n
}

func (d *decoder) leave() { d.depth-- }

// optArray reads null (absent: -1) or an array head.
func (d *decoder) optArray(what string) int {
	if t := d.item(what, kArray, true); t != nil {
		return d.enter(what, int(t.i), 0, math.MaxInt)
	}
	return -1
}

func (d *decoder) int(what string) int64 {
	if t := d.item(what, kInt, false); t != nil {
		return t.i
	}
	return 0
}

func (d *decoder) optInt(what string) wire.Opt[int64] {
	if t := d.item(what, kInt, true); t != nil {
		return wire.Some(t.i)
	}
	return wire.Opt[int64]{}
}

func (d *decoder) str(what string) string {
	if t := d.item(what, kString, false); t != nil {
		d.checkLen(what, t.s)
		return t.s
	}
	return ""
}

func (d *decoder) name(what string) string {
	s := d.enum(what)
	d.checkLen(what, s)
	return s
}

// enum reads a name of an enumeration, which the caller compares.
func (d *decoder) enum(what string) string {
	t := d.read()
	if t == nil {
		return ""
	}
	return d.resolve(what, t)
}

// resolve turns a name item into its text: a string is a new table entry,
// an integer an index into the table.
func (d *decoder) resolve(what string, t *token) string {
	switch t.kind {
	case kString:
		d.names.add(t.s)
		return t.s
	case kInt:
		if t.i < 0 || t.i >= int64(d.names.n) {
			d.failf("%s: name index %d out of range (table holds %d)", what, t.i, d.names.n)
			return ""
		}
		return d.names.get(int(t.i))
	}
	d.wrongKind(what, "name (string or table index)", t)
	return ""
}

func (d *decoder) optName(what string) wire.Opt[string] {
	t := d.read()
	if t == nil || t.kind == kNull {
		return wire.Opt[string]{}
	}
	s := d.resolve(what, t)
	d.checkLen(what, s)
	if d.err != nil {
		return wire.Opt[string]{}
	}
	return wire.Some(s)
}

func (d *decoder) value(what string) wire.Value {
	t := d.read()
	if t == nil {
		return wire.Value{}
	}
	switch t.kind {
	case kNull:
		return wire.Null()
	case kBool:
		return wire.Bool(t.b)
	case kInt:
		return wire.Int(t.i)
	case kFloat:
		return wire.Float(t.f)
	case kString:
		d.checkLen(what, t.s)
		return wire.String(t.s)
	}
	if d.lists >= d.c.core.Limits.MaxDepth {
		d.failLimit("MaxDepth", "%s: lists nested more than %d deep", what, d.c.core.Limits.MaxDepth)
		return wire.Value{}
	}
	d.count(what, int(t.i))
	n := d.enter(what, int(t.i), 0, math.MaxInt)
	if d.err != nil {
		return wire.Value{}
	}
	vs, r := alloc(d, &d.vals, what, n, sizeValue)
	if d.err != nil {
		return wire.Value{}
	}
	d.lists++
	for i := 0; i < n && d.err == nil; i++ {
		vs = append(vs, d.value(what))
	}
	d.lists--
	d.release(r)
	d.leave()
	return wire.ListOf(vs...)
}

// maxPrealloc bounds the room a declared length reserves unmetered.
const maxPrealloc = 1024

func prealloc(n int) int { return min(n, maxPrealloc) }

func (d *decoder) boolean(what string) bool {
	t := d.item(what, kBool, false)
	return t != nil && t.b
}

// structuralLevels is how deep the layout's arrays nest above a list
// value: response, rows, row, cell.
const structuralLevels = 4

// bounds are what a source checks of each item before it allocates: coarse
// limits from wire.Limits no valid response reaches before the exact ones.
type bounds struct {
	maxNesting int // arrays, the response counting as level 1
	maxArray   int // items of one array
	maxString  int // bytes of one string item
}

// minEnumBytes is the least string bound, so enumerations always read.
const minEnumBytes = 64

func boundsFor(l wire.Limits) bounds {
	return bounds{
		maxNesting: l.MaxDepth + structuralLevels,
		maxArray:   int(min(max(2*int64(l.MaxElements)+3, 16), math.MaxInt32)),
		maxString:  max(l.MaxStringBytes, minEnumBytes),
	}
}

// nameTable holds the names read in full, in chunks that grow without copying.
type nameTable struct {
	chunks [][]string
	n      int
}

const nameChunk = 4096

func (t *nameTable) add(s string) {
	c, i := t.n/nameChunk, t.n%nameChunk
	if c == len(t.chunks) {
		t.chunks = append(t.chunks, make([]string, nameChunk))
	}
	t.chunks[c][i] = s
	t.n++
}

func (t *nameTable) get(i int) string { return t.chunks[i/nameChunk][i%nameChunk] }

// reset empties the table, keeping its first chunk.
func (t *nameTable) reset() {
	if len(t.chunks) > 0 {
		clear(t.chunks[0][:min(t.n, nameChunk)])
		clear(t.chunks[1:])
		t.chunks = t.chunks[:1]
	}
	t.n = 0
}
