// Package keyset finds repeated keys in a sequence in time and memory
// linear in its length, however long and however hostile: all at once
// (FirstRepeat), or as a decoder reads the keys (Seq).
//
// A hash map does it in linear time too, but once the keys outgrow the
// processor's caches every lookup misses them, and the time per key grows
// with the sequence. FirstRepeat instead sorts 64-bit hashes of the keys
// with a byte-wise radix sort, whose passes read and write memory in order,
// and compares neighbours.
package keyset

import (
	"hash/maphash"
	"math"
)

// smallN and mapN: up to smallN keys are compared pairwise, up to mapN
// through a map; longer sequences are sorted.
const (
	smallN = 16
	mapN   = 1024
)

// FirstRepeatPairwise is FirstRepeat by comparing every pair of keys:
// without allocating, in time quadratic in n, for short sequences.
func FirstRepeatPairwise(n int, key func(int) string) int {
	for i := 1; i < n; i++ {
		k := key(i)
		for j := range i {
			if key(j) == k {
				return i
			}
		}
	}
	return -1
}

// FirstRepeat returns the smallest i for which key(i) equals key(j) for
// some j < i, or -1 when the n keys are distinct. It calls key O(n) times
// and allocates O(n) bytes; n must not exceed math.MaxInt32.
func FirstRepeat(n int, key func(int) string) int {
	switch {
	case n <= smallN:
		return FirstRepeatPairwise(n, key)
	case n <= mapN:
		seen := make(map[string]struct{}, n)
		for i := range n {
			k := key(i)
			if _, dup := seen[k]; dup {
				return i
			}
			seen[k] = struct{}{}
		}
		return -1
	}
	if n > math.MaxInt32 {
		panic("keyset: more than MaxInt32 keys")
	}
	seed := maphash.MakeSeed()
	recs := make([]rec, n)
	for i := range recs {
		recs[i] = rec{h: maphash.String(seed, key(i)), i: int32(i)}
	}
	recs = sortByHash(recs)
	first := -1
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && recs[hi].h == recs[lo].h {
			hi++
		}
		if hi-lo > 1 {
			if r := firstRepeatIn(recs[lo:hi], key); r >= 0 && (first < 0 || r < first) {
				first = r
			}
		}
		lo = hi
	}
	return first
}

// Eager is how many keys of a Seq are checked as they are added.
const Eager = smallN

// Seq finds the first repeated key of a sequence read one key at a time,
// for a decoder that reports a repeat at the key while the sequence is
// short and, past Eager keys, once the sequence has ended. The zero Seq is
// an empty sequence.
type Seq struct{ n int }

// Add adds the sequence's next key, k; key(i) returns the i-th key added
// before it. Among the first Eager keys it reports whether k repeats an
// earlier one; past them it reports false, and Repeat finds the repeat.
func (s *Seq) Add(k string, key func(int) string) bool {
	n := s.n
	s.n++
	if n >= Eager {
		return false
	}
	for i := range n {
		if key(i) == k {
			return true
		}
	}
	return false
}

// Len returns the number of keys added.
func (s *Seq) Len() int { return s.n }

// Repeat returns the index of the first key that repeats an earlier one,
// or -1 when the keys are distinct, once all of them have been added and
// Add has reported no repeat; key(i) returns the i-th key. It costs
// nothing for a sequence of at most Eager keys, which Add has checked.
func (s *Seq) Repeat(key func(int) string) int {
	if s.n <= Eager {
		return -1
	}
	return FirstRepeat(s.n, key)
}

type rec struct {
	h uint64
	i int32
}

// firstRepeatIn returns the first repeat among records of equal hash, kept
// in increasing index order by the stable sort: usually two records of one
// key, rarely a hash collision between different keys.
func firstRepeatIn(run []rec, key func(int) string) int {
	for a := 1; a < len(run); a++ {
		k := key(int(run[a].i))
		for b := range a {
			if key(int(run[b].i)) == k {
				return int(run[a].i)
			}
		}
		if a >= smallN { // a long run: many copies of few keys
			seen := make(map[string]struct{}, len(run))
			for _, r := range run {
				k := key(int(r.i))
				if _, dup := seen[k]; dup {
					return int(r.i)
				}
				seen[k] = struct{}{}
			}
			return -1
		}
	}
	return -1
}

// sortByHash sorts recs by hash, stably, least significant byte first,
// skipping a byte in which all hashes agree.
func sortByHash(recs []rec) []rec {
	tmp := make([]rec, len(recs))
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, r := range recs {
			count[byte(r.h>>shift)]++
		}
		if count[byte(recs[0].h>>shift)] == len(recs) {
			continue
		}
		pos := 0
		for b, c := range count {
			count[b] = pos
			pos += c
		}
		for _, r := range recs {
			b := byte(r.h >> shift)
			tmp[count[b]] = r
			count[b]++
		}
		recs, tmp = tmp, recs
	}
	return recs
}
