package testsupport

import (
	"testing"
	"time"
)

var sink []byte

// TestMeasureAllocCountsTheCall: MeasureAlloc reports at least the bytes
// and the time the call took, and no peak.
func TestMeasureAllocCountsTheCall(t *testing.T) {
	c := MeasureAlloc(func() {
		sink = make([]byte, 4<<20)
		time.Sleep(time.Millisecond)
	})
	if c.Alloc < 4<<20 {
		t.Errorf("allocated %d bytes, want at least %d", c.Alloc, 4<<20)
	}
	if c.Elapsed < time.Millisecond {
		t.Errorf("took %v, want at least 1ms", c.Elapsed)
	}
	if c.PeakHeap != 0 {
		t.Errorf("peak heap %d, want 0 (not sampled)", c.PeakHeap)
	}
	if c := MeasureAlloc(func() {}); c.Alloc >= 4<<20 {
		t.Errorf("an empty call allocated %d bytes", c.Alloc)
	}
}
