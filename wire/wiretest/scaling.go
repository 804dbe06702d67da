package wiretest

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// The input sizes Scaling compares, and the most the time per byte may
// grow from the one to the other.
const (
	ScalingSmall    = 100_000    // 100 KB
	ScalingLarge    = 10_000_000 // 10 MB
	ScalingMaxRatio = 2.0
)

// Scaling checks that decode runs in time linear in its input on one shape
// of input: build(n) returns an input of about n bytes of that shape (the
// worst case the decoder has, such as one line holding many escaped values),
// and the time per byte decoding build(ScalingLarge) must be within
// ScalingMaxRatio of the time per byte decoding build(ScalingSmall).
//
// Both are measured in the same run, as the best of several attempts (the
// small input repeated for at least 20 ms per attempt), so that a busy
// machine slows both alike and a preempted attempt does not count. decode's
// error, if any, is ignored: a shape may be one that a decoder refuses, as
// long as it refuses it in linear time. Under the race detector or -short,
// Scaling skips t with a message: the timings would mean nothing or take
// too long.
func Scaling(t *testing.T, name string, build func(n int) []byte, decode func(data []byte) error) {
	t.Helper()
	if raceEnabled {
		t.Skipf("%s: scaling not measured under the race detector", name)
	}
	if testing.Short() {
		t.Skipf("%s: scaling not measured with -short", name)
	}
	small, large := build(ScalingSmall), build(ScalingLarge)
	ps := perByte(small, 5, 20*time.Millisecond, decode)
	pl := perByte(large, 3, 0, decode)
	ratio := pl / ps
	errS, errL := decode(small), decode(large)
	t.Logf("%s: %.2f ns/byte at %d bytes, %.2f ns/byte at %d bytes: ratio %.2f (small: %v; large: %v)",
		name, ps, len(small), pl, len(large), ratio, describeErr(errS), describeErr(errL))
	if ratio > ScalingMaxRatio {
		t.Errorf("%s: decode time per byte grows %.2f× from %d to %d bytes, more than %.1f×: not linear",
			name, ratio, len(small), len(large), ScalingMaxRatio)
	}
}

// perByte returns the best time per byte, in nanoseconds, of attempts
// decodes of data, each repeated until it has taken at least min.
func perByte(data []byte, attempts int, min time.Duration, decode func([]byte) error) float64 {
	best := 0.0
	for a := 0; a < attempts; a++ {
		runtime.GC()
		start := time.Now()
		n := 0
		for {
			_ = decode(data)
			n++
			if time.Since(start) >= min {
				break
			}
		}
		ns := float64(time.Since(start).Nanoseconds()) / float64(n) / float64(len(data))
		if a == 0 || ns < best {
			best = ns
		}
	}
	return best
}

func describeErr(err error) string {
	if err == nil {
		return "decoded"
	}
	s := err.Error()
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return fmt.Sprintf("refused: %s", s)
}
