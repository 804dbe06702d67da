package toonread

import (
	"hash/maphash"
	"math"
)

// nameIndex finds a repeated name in a sequence as each is added: an
// open-addressing table of positions, a third to two thirds full (12 to
// 24 bytes a name), each entry the high half of its name's hash beside
// its position; the seed is drawn per table, so no input can collide.
type nameIndex struct {
	slots []uint64
	shift uint // 64 - log2(len(slots)): a name's home slot is h >> shift
	seed  maphash.Seed
	n     int
}

// hash is the hash of name in group (0 when a sequence has one group).
func (x *nameIndex) hash(name string, group uint64) uint64 {
	return maphash.String(x.seed, name) ^ group*0x9E3779B97F4A7C15
}

// start begins the index over the first n names, hashOf(0..n-1), known
// to be distinct, with room for size names.
func (x *nameIndex) start(size, n int, hashOf func(int) uint64) {
	x.seed = maphash.MakeSeed()
	x.slots = nil
	x.resize(max(n, size))
	for i := range n {
		x.place(hashOf(i), i)
	}
}

// resize moves the table to one with room for size names, without
// hashing again, in the order of the entries' home slots.
func (x *nameIndex) resize(size int) {
	s, shift := 1, uint(64)
	for 2*s < 3*size {
		s *= 2
		shift--
	}
	old := x.slots
	x.slots, x.shift, x.n = make([]uint64, s), max(shift, 32), 0
	first := 0
	for first < len(old) && old[first] != 0 {
		first++
	}
	for k := range old {
		if e := old[(first+k)&(len(old)-1)]; e != 0 {
			x.put(e)
		}
	}
}

// place records name i of hash h, known not to be in the table.
func (x *nameIndex) place(h uint64, i int) { x.put(h&^math.MaxUint32 | uint64(i+1)) }

// put stores entry e: the top half of a hash and a position plus one.
func (x *nameIndex) put(e uint64) {
	mask := uint64(len(x.slots) - 1)
	for p := e >> x.shift; ; p = (p + 1) & mask {
		if x.slots[p] == 0 {
			x.slots[p] = e
			x.n++
			return
		}
	}
}

// find returns the position of a name of hash h for which same(j) holds,
// or -1.
func (x *nameIndex) find(h uint64, same func(j int) bool) int {
	mask := uint64(len(x.slots) - 1)
	tag := h &^ math.MaxUint32
	for p := h >> x.shift; ; p = (p + 1) & mask {
		e := x.slots[p]
		if e == 0 {
			return -1
		}
		if e&^math.MaxUint32 == tag {
			if j := int(uint32(e)) - 1; same(j) {
				return j
			}
		}
	}
}

// add records name i of hash h unless an equal one is there: it returns
// that one's position, or -1.
func (x *nameIndex) add(h uint64, i int, same func(j int) bool) int {
	if j := x.find(h, same); j >= 0 {
		return j
	}
	if 3*(x.n+1) > 2*len(x.slots) {
		x.resize(len(x.slots)) // twice the slots: a third to two thirds full
	}
	x.place(h, i)
	return -1
}
