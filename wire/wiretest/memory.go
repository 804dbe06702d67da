package wiretest

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// DecodeMemoryBound is the most heap a decode of n input bytes may hold at
// its peak under the default wire.Limits: 16 times the input plus 16 MiB.
func DecodeMemoryBound(n int) uint64 { return 16*uint64(n) + 16<<20 }

// Footprint is what one call cost in memory and time: PeakHeap is the
// largest live heap seen while it ran above the live heap before it
// (sampled every 100µs), TotalAlloc every byte it allocated.
type Footprint struct {
	PeakHeap, TotalAlloc uint64
	Elapsed              time.Duration
}

func (f Footprint) String() string {
	return fmt.Sprintf("peak heap %d KiB, allocated %d KiB, %v", f.PeakHeap>>10, f.TotalAlloc>>10, f.Elapsed.Round(time.Microsecond))
}

// Measure runs call once and reports its footprint; other goroutines'
// allocations count too, so measure with nothing else running.
func Measure(call func()) Footprint {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > peak.Load() {
					peak.Store(ms.HeapAlloc)
				}
			}
		}
	}()
	start := time.Now()
	call()
	elapsed := time.Since(start)
	close(done)
	<-sampled
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	p := max(peak.Load(), after.HeapAlloc)
	f := Footprint{TotalAlloc: after.TotalAlloc - before.TotalAlloc, Elapsed: elapsed}
	if p > before.HeapAlloc {
		f.PeakHeap = p - before.HeapAlloc
	}
	return f
}
