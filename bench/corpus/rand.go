package corpus

import "math/bits"

// rng is the generator's source of randomness: SplitMix64, written out here
// so that the corpus depends on no library's stream and stays byte-stable
// across Go releases.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n must be positive.
func (r *rng) intn(n int) int {
	// Multiply-shift; the tiny bias is irrelevant for test data and keeps
	// the stream a pure function of the seed.
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// int63n returns a number in [0, n) for large n.
func (r *rng) int63n(n int64) int64 {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int64(hi)
}

// chance reports true with probability pct/100.
func (r *rng) chance(pct int) bool { return r.intn(100) < pct }

// float returns a number in [0, 1) with 53 random bits.
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// fork returns an independent generator derived from this one and a label,
// so that adding a case never changes the data of another.
func (r *rng) fork(label string) *rng {
	h := uint64(14695981039346656037)
	for i := 0; i < len(label); i++ {
		h ^= uint64(label[i])
		h *= 1099511628211
	}
	return newRNG(r.s ^ h)
}

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }
