package testsupport

import (
	"runtime"
	"testing"
	"time"
)

// The bounds a decoder keeps on hostile input: memory under
// BoundFactor times the input plus BoundSlack, time under BoundTime (a
// generous bound that only a pathological decoder misses).
const (
	BoundFactor = 64
	BoundSlack  = 64 << 20
	BoundTime   = 2 * time.Second
)

// Cost is what one call took: wall time and the bytes it allocated
// (runtime.MemStats.TotalAlloc, an upper bound on its peak heap), and the
// growth of the heap in use across it.
type Cost struct {
	Elapsed   time.Duration
	Alloc     uint64
	HeapGrown int64
}

// Measure runs f once, after a garbage collection, and reports its cost.
func Measure(f func()) Cost {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return Cost{
		Elapsed:   elapsed,
		Alloc:     after.TotalAlloc - before.TotalAlloc,
		HeapGrown: int64(after.HeapInuse) - int64(before.HeapInuse),
	}
}

// Bounded runs f, which handles an input of inputLen bytes, and fails the
// test when it allocates more than BoundFactor×inputLen+BoundSlack bytes
// or takes longer than BoundTime (both skipped under the race detector,
// which slows and inflates everything). It logs the figures and returns
// them.
func Bounded(t testing.TB, inputLen int, f func()) Cost {
	t.Helper()
	c := Measure(f)
	t.Logf("input %d bytes: %v, %d bytes allocated, heap in use %+d bytes", inputLen, c.Elapsed.Round(time.Millisecond), c.Alloc, c.HeapGrown)
	if Race {
		return c
	}
	if limit := uint64(BoundFactor)*uint64(inputLen) + BoundSlack; c.Alloc > limit {
		t.Errorf("allocated %d bytes for an input of %d (bound %d)", c.Alloc, inputLen, limit)
	}
	if c.Elapsed > BoundTime {
		t.Errorf("took %v for an input of %d bytes (bound %v)", c.Elapsed, inputLen, BoundTime)
	}
	return c
}

// Scaling measures f on inputs of about 100 KB and 10 MB built by build
// (which returns an input of at least n bytes) and fails the test when the
// time per byte at 10 MB is more than twice that at 100 KB: a decoder
// linear in its input keeps the ratio near 1, a quadratic one makes it
// about 100. Time is the process's processor time (all threads, the
// garbage collector's included), not wall time, so that waiting for a
// processor on a busy machine does not count; the two sizes are timed in
// alternation, several rounds each after a garbage collection, and the
// fastest round of each counts. Skipped under -short
// and the race detector.
func Scaling(t *testing.T, build func(n int) []byte, f func([]byte)) {
	t.Helper()
	if testing.Short() {
		t.Skip("scaling test: skipped under -short (it decodes 10 MB several times)")
	}
	if Race {
		t.Skip("scaling test: skipped under the race detector, which distorts timings")
	}
	const rounds, smallReps = 5, 20
	small, large := build(100_000), build(10_000_000)
	bestSmall, bestLarge := time.Duration(1<<63-1), time.Duration(1<<63-1)
	for range rounds {
		runtime.GC()
		start := cpuTime()
		for range smallReps {
			f(small)
		}
		bestSmall = min(bestSmall, (cpuTime()-start)/smallReps)
		runtime.GC()
		start = cpuTime()
		f(large)
		bestLarge = min(bestLarge, cpuTime()-start)
	}
	perSmall := float64(bestSmall) / float64(len(small))
	perLarge := float64(bestLarge) / float64(len(large))
	ratio := perLarge / perSmall
	t.Logf("%.2f ns/byte at %d bytes, %.2f ns/byte at %d bytes: ratio %.2f", perSmall, len(small), perLarge, len(large), ratio)
	if ratio > 2 {
		t.Errorf("time per byte at %d bytes is %.2f× that at %d bytes (bound 2×): decoding is not linear", len(large), ratio, len(small))
	}
}
