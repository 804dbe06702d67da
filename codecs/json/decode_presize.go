package json

import (
	"slices"

	"github.com/graphwire/graphwire/internal/keyset"
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
