package keyset

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// naive is the definition FirstRepeat must agree with.
func naive(keys []string) int {
	seen := map[string]bool{}
	for i, k := range keys {
		if seen[k] {
			return i
		}
		seen[k] = true
	}
	return -1
}

// cases returns sequences of n keys: distinct, with one repeat at a random
// place, and of a few keys repeated throughout.
func cases(rng *rand.Rand, n int) map[string][]string {
	distinct := make([]string, n)
	for i := range distinct {
		distinct[i] = "k" + strconv.Itoa(i)
	}
	rng.Shuffle(n, func(i, j int) { distinct[i], distinct[j] = distinct[j], distinct[i] })
	cases := map[string][]string{"distinct": distinct}
	if n >= 2 {
		for c := range 5 {
			keys := append([]string(nil), distinct...)
			i, j := rng.IntN(n), rng.IntN(n)
			keys[i] = keys[j]
			cases["one_repeat_"+strconv.Itoa(c)] = keys
		}
		same := make([]string, n)
		for i := range same {
			same[i] = "k" + strconv.Itoa(i%3)
		}
		cases["few_keys"] = same
	}
	return cases
}

var sizes = []int{0, 1, 2, 15, 16, 17, 18, 1024, 1025, 5000, 100_000}

func TestFirstRepeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		for name, keys := range cases(rng, n) {
			want := naive(keys)
			if got := FirstRepeat(len(keys), func(i int) string { return keys[i] }); got != want {
				t.Errorf("n=%d %s: FirstRepeat = %d, want %d", n, name, got, want)
			}
			if n > 2000 {
				continue // pairwise is quadratic
			}
			if got := FirstRepeatPairwise(len(keys), func(i int) string { return keys[i] }); got != want {
				t.Errorf("n=%d %s: FirstRepeatPairwise = %d, want %d", n, name, got, want)
			}
		}
	}
}

// TestSeq reads each sequence as a decoder does, stopping at the first
// repeat Add reports and asking Repeat at the end otherwise: the repeat
// found, wherever it is found, is the first one.
func TestSeq(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		for name, keys := range cases(rng, n) {
			want := naive(keys)
			var s Seq
			got, eager := -1, false
			for i, k := range keys {
				if s.Add(k, func(j int) string { return keys[j] }) {
					got, eager = i, true
					break
				}
			}
			if !eager {
				if s.Len() != n {
					t.Errorf("n=%d %s: Len = %d", n, name, s.Len())
				}
				got = s.Repeat(func(j int) string { return keys[j] })
			}
			if got != want {
				t.Errorf("n=%d %s: Seq finds %d, want %d", n, name, got, want)
			}
			if eager != (want >= 0 && want < Eager) {
				t.Errorf("n=%d %s: repeat at %d reported by Add: %v, want it there exactly when it is among the first %d keys", n, name, want, eager, Eager)
			}
		}
	}
}

// TestFirstRepeatInCollisions exercises runs of records with equal hashes
// but different keys, which only a hash collision produces.
func TestFirstRepeatInCollisions(t *testing.T) {
	keys := []string{"a", "b", "c", "b", "a"}
	run := make([]rec, len(keys))
	for i := range run {
		run[i] = rec{h: 7, i: int32(i)}
	}
	if got := firstRepeatIn(run, func(i int) string { return keys[i] }); got != 3 {
		t.Errorf("firstRepeatIn = %d, want 3", got)
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = "k" + strconv.Itoa(i%20)
	}
	run = make([]rec, len(many))
	for i := range run {
		run[i] = rec{h: 7, i: int32(i)}
	}
	if got := firstRepeatIn(run, func(i int) string { return many[i] }); got != 20 {
		t.Errorf("firstRepeatIn (long run) = %d, want 20", got)
	}
}
