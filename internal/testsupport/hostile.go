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
