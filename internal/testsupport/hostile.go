package testsupport

import (
	"testing"
	"time"

	"github.com/graphwire/graphwire/wire/wiretest"
)

// The bounds a decoder keeps on hostile input: memory under
// BoundFactor times the input plus BoundSlack, time under BoundTime (a
// generous bound that only a pathological decoder misses).
const (
	BoundFactor = 64
	BoundSlack  = 64 << 20
	BoundTime   = 2 * time.Second
)

// Cost is what one call took: wall time, the bytes it allocated
// (runtime.MemStats.TotalAlloc, an upper bound on its peak heap) and its
// peak heap, as wiretest.Measure reports them.
type Cost struct {
	Elapsed  time.Duration
	Alloc    uint64
	PeakHeap uint64
}

// Measure runs f once and reports its cost (wiretest.Measure).
func Measure(f func()) Cost {
	fp := wiretest.Measure(f)
	return Cost{Elapsed: fp.Elapsed, Alloc: fp.TotalAlloc, PeakHeap: fp.PeakHeap}
}

// Bounded runs f, which handles an input of inputLen bytes, and fails the
// test when it allocates more than BoundFactor×inputLen+BoundSlack bytes
// or takes longer than BoundTime (both skipped under the race detector,
// which slows and inflates everything). It logs the figures and returns
// them.
func Bounded(t testing.TB, inputLen int, f func()) Cost {
	t.Helper()
	c := Measure(f)
	t.Logf("input %d bytes: %v, %d bytes allocated, peak heap %d bytes", inputLen, c.Elapsed.Round(time.Millisecond), c.Alloc, c.PeakHeap)
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
