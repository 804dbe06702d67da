package testsupport

import (
	"runtime"
	"time"
)

// MeasureAlloc runs f once and reports its wall time and the bytes it
// allocated (runtime.MemStats.TotalAlloc), without Measure's garbage
// collection before the call and heap sampling during it: PeakHeap is
// zero. It suits a loop over many small inputs whose bound is on
// allocation and time, where a collection per call would cost more than
// the calls themselves. Other goroutines' allocations count too.
func MeasureAlloc(f func()) Cost {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return Cost{Elapsed: elapsed, Alloc: after.TotalAlloc - before.TotalAlloc}
}
