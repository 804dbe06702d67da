package wiretest

import "testing"

var held []byte

func TestMeasureSeesTheHeapACallHolds(t *testing.T) {
	f := Measure(func() {
		held = make([]byte, 64<<20)
		for i := range sink {
			sink[i] = byte(i)
		}
	})
	held = nil
	if f.PeakHeap < 60<<20 || f.TotalAlloc < 64<<20 {
		t.Fatalf("a call that holds 64 MiB measured as %v", f)
	}
	small := Measure(func() { held = make([]byte, 1<<10) })
	if small.PeakHeap > 8<<20 {
		t.Fatalf("a call that holds 1 KiB measured as %v", small)
	}
	if DecodeMemoryBound(1<<20) != 32<<20 {
		t.Fatalf("DecodeMemoryBound(1 MiB) = %d, want 32 MiB", DecodeMemoryBound(1<<20))
	}
}
