package json

import (
	"slices"
	"sync"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
)

// presizeMin is the length from which a dense sequence (a list value, a
// node's properties, rows: up to twelve times its input in memory) is
// sized from the rest of its text rather than grown by append, whose
// garbage would make the decoder's peak a multiple of it.
const presizeMin = 64

// grown returns s, which holds n elements of the sequence being read,
// with room for the rest of it (jsonvalue.Scanner.Remaining, at most
// MaxElements in all) when it is full and n is at least presizeMin.
func grown[T any](d *decoder, s []T, n int) []T {
	if len(s) < cap(s) || n < presizeMin {
		return s
	}
	return slices.Grow(s, max(min(d.Remaining(), d.l.MaxElements-n), 1))
}

// A scratch holds what a decoder reuses from one decode to the next: the
// properties and cells of the element being read, and the lists of the
// response being read, which are copied out at their length once read.
type scratch struct {
	props   []wire.Property
	cells   []wire.Cell
	nodes   []wire.Node
	edges   []wire.Edge
	columns []wire.Column
	groups  []wire.GroupColumn
	rows    []wire.Row
}

var decoders = sync.Pool{New: func() any { return &decoder{scratch: new(scratch)} }}

// scratchMax is the capacity past which a scratch list is dropped rather
// than kept for the next decode.
const scratchMax = 1 << 12

// release clears the decoder's scratch, so that it keeps nothing of the
// response read, and returns the decoder to the pool. (The properties and
// cells are truncated as each element ends, so they are cleared to their
// capacity.)
func (d *decoder) release() {
	d.props, d.cells = reuse(d.props[:cap(d.props)]), reuse(d.cells[:cap(d.cells)])
	*d = decoder{scratch: d.scratch}
	decoders.Put(d)
}

// reuse returns s cleared and emptied, or nil when it is too large to keep.
func reuse[T any](s []T) []T {
	if cap(s) > scratchMax {
		return nil
	}
	clear(s)
	return s[:0]
}

// A slab hands out copies of slices, and new elements, from backing arrays
// it allocates a chunk at a time (twice the last, from slabMin up to
// slabMax elements, or one slice's length when that is more): a
// response's many small slices cost a few allocations. A slice handed out
// has its length for capacity, so appending to it copies it.
type slab[T any] struct{ buf []T }

const slabMin, slabMax = 16, 1024

// room makes room for n more elements in s.buf.
func (s *slab[T]) room(n int) {
	if cap(s.buf)-len(s.buf) >= n {
		return
	}
	size := min(max(2*cap(s.buf), slabMin), slabMax)
	s.buf = make([]T, 0, max(size, n))
}

// keep returns a copy of xs from the slab.
func (s *slab[T]) keep(xs []T) []T {
	s.room(len(xs))
	i := len(s.buf)
	s.buf = append(s.buf, xs...)
	return s.buf[i:len(s.buf):len(s.buf)]
}

// next returns a new zero element from the slab.
func (s *slab[T]) next() *T {
	s.room(1)
	var zero T
	s.buf = append(s.buf, zero)
	return &s.buf[len(s.buf)-1]
}

// objectKeys finds a repeated key in an object: among its first
// keyset.Eager keys at once, at the key; past them once the object ends,
// at the first repeat's offset, which it keeps for those keys.
type objectKeys struct {
	seq  keyset.Seq
	late []int // offsets of the keys past keyset.Eager
}

// add records key, at offset off, as the object's next key; earlier(i)
// returns the i-th key before it. It reports a repeat it finds at once.
func (k *objectKeys) add(key string, off int, earlier func(i int) string) bool {
	if k.seq.Add(key, earlier) {
		return true
	}
	if k.seq.Len() > keyset.Eager {
		k.late = append(k.late, off)
	}
	return false
}

// repeat returns the offset and text of the first key that repeats an
// earlier one, once the object has ended; key(i) returns its i-th key.
func (k *objectKeys) repeat(key func(i int) string) (off int, text string, found bool) {
	i := k.seq.Repeat(key)
	if i < 0 {
		return 0, "", false
	}
	return k.late[i-keyset.Eager], key(i), true
}
