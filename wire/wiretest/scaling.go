package wiretest

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The input sizes Scaling compares, and the most the time per byte may
// grow from the one to the other.
const (
	ScalingSmall    = 1_000_000  // 1 MB
	ScalingLarge    = 10_000_000 // 10 MB
	ScalingMaxRatio = 2.0
)

// Scaling checks that decode runs in time linear in its input on one shape
// of input: build(n) returns about n bytes of it, and the time per byte of
// build(ScalingLarge) must be within ScalingMaxRatio of build(ScalingSmall)'s
// (best of several attempts in process CPU time, collector off; a ratio
// over the bound is measured again up to four times). decode's error is
// ignored. It skips under -race and -short; call it outside t.Parallel.
func Scaling(t *testing.T, name string, build func(n int) []byte, decode func(data []byte) error) {
	t.Helper()
	if raceEnabled {
		t.Skipf("%s: scaling not measured under the race detector", name)
	}
	if testing.Short() {
		t.Skipf("%s: scaling not measured with -short", name)
	}
	small, large := build(ScalingSmall), build(ScalingLarge)
	var ps, pl, ratio float64
	var errS, errL error
	for round := 0; round < 5; round++ {
		s, es := perByte(small, 5, 20*time.Millisecond, len(large), decode)
		l, el := perByte(large, 2, 0, 0, decode)
		if round == 0 || l/s < ratio {
			ps, pl, ratio, errS, errL = s, l, l/s, es, el
		}
		if ratio <= ScalingMaxRatio {
			break
		}
	}
	t.Logf("%s: %.2f ns/byte at %d bytes, %.2f ns/byte at %d bytes: ratio %.2f (small: %v; large: %v)",
		name, ps, len(small), pl, len(large), ratio, describeErr(errS), describeErr(errL))
	if ratio > ScalingMaxRatio {
		t.Errorf("%s: decode time per byte grows %.2f× from %d to %d bytes, more than %.1f×: not linear",
			name, ratio, len(small), len(large), ScalingMaxRatio)
	}
}

// perByte returns the best nanoseconds per byte of attempts decodes of
// data (each repeated to at least min and minBytes), and decode's error.
func perByte(data []byte, attempts int, min time.Duration, minBytes int, decode func([]byte) error) (float64, error) {
	best := 0.0
	var err error
	// The collector's cost per byte depends on the heap, not the decoder.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for a := 0; a < attempts; a++ {
		runtime.GC()
		start := cpuTime()
		n := 0
		for {
			err = decode(data)
			n++
			if cpuTime()-start >= min && n*len(data) >= minBytes {
				break
			}
		}
		ns := float64((cpuTime() - start).Nanoseconds()) / float64(n) / float64(len(data))
		if a == 0 || ns < best {
			best = ns
		}
	}
	return best, err
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
