package wiretest

import (
	"errors"
	"fmt"
	"hash/maphash"
	"runtime"
	"strings"
	"time"

	"github.com/graphwire/graphwire/wire"
)

// Bounds bound the cost of one Decode of a hostile input of n bytes: it
// must return within Time + n×TimePerByte (default 2 s + 200 ns/byte) and
// allocate at most Alloc + n×AllocPerByte bytes (default 8 MiB + 64/byte,
// measured process-wide: no t.Parallel). A figure over its bound is
// measured twice more, the smallest counting; past ten times the time
// bound a Decode is hung.
type Bounds struct {
	Time         time.Duration
	TimePerByte  time.Duration
	Alloc        int64
	AllocPerByte int64
}

func (l Bounds) withDefaults() Bounds {
	l.Time = positiveOr(l.Time, 2*time.Second)
	l.TimePerByte = positiveOr(l.TimePerByte, 200*time.Nanosecond)
	l.Alloc = positiveOr(l.Alloc, 8<<20)
	l.AllocPerByte = positiveOr(l.AllocPerByte, 64)
	return l
}

// Outcome is what one Decode of a hostile input did.
type Outcome struct {
	Response *wire.GraphResponse // the decoded response, nil on error
	Err      error               // the decode error
	Elapsed  time.Duration       // smallest of the measurements
	Alloc    int64               // bytes allocated (TotalAlloc growth), smallest of the measurements
}

// DecodeHostile decodes data with c and returns the first violation: Decode
// must not panic, hang, exceed l, or modify data, and must end either in a
// one-line *wire.DecodeError naming the codec with a nil response, or in a
// response that encodes, decodes and encodes again to the same bytes.
func DecodeHostile(c wire.Codec, data []byte, l Bounds) (Outcome, error) {
	l = l.withDefaults()
	timeBound := l.Time + time.Duration(len(data))*l.TimePerByte
	allocBound := l.Alloc + int64(len(data))*l.AllocPerByte
	seed := maphash.MakeSeed()
	sum := maphash.Bytes(seed, data)
	var out Outcome
	for attempt := 0; attempt < 3; attempt++ {
		o, err := measureDecode(c, data, 10*timeBound)
		if err != nil {
			return o, err
		}
		if attempt > 0 {
			o.Elapsed, o.Alloc = min(o.Elapsed, out.Elapsed), min(o.Alloc, out.Alloc)
		}
		out = o
		if maphash.Bytes(seed, data) != sum {
			return out, errors.New("decoding modified its input")
		}
		if out.Elapsed <= timeBound && out.Alloc <= allocBound {
			break
		}
	}
	if out.Elapsed > timeBound {
		return out, fmt.Errorf("decoding took %v, over the bound of %v for %d bytes", out.Elapsed, timeBound, len(data))
	}
	if out.Alloc > allocBound {
		return out, fmt.Errorf("decoding allocated %d bytes, over the bound of %d for %d bytes", out.Alloc, allocBound, len(data))
	}
	name := strings.ToLower(c.Info().Name)
	if out.Err != nil {
		if errors.Is(out.Err, errPanic) {
			return out, fmt.Errorf("decoding panicked: %v", out.Err)
		}
		if out.Response != nil {
			return out, fmt.Errorf("decoding returned both a response and an error (%v)", out.Err)
		}
		de, err := decodeErrorOf(out.Err)
		if err == nil && !strings.EqualFold(de.Codec, name) {
			err = fmt.Errorf("the decode error names codec %q, not %q: %v", de.Codec, name, out.Err)
		}
		return out, err
	}
	if out.Response == nil {
		return out, errors.New("decoding returned neither a response nor an error")
	}
	if err := stable(c, out.Response); err != nil {
		return out, fmt.Errorf("decoding accepted it, but the response it returned is not valid: %v", err)
	}
	return out, nil
}

// decodeErrorOf returns err as a *wire.DecodeError, and an error when it
// is none or its text is not one line.
func decodeErrorOf(err error) (*wire.DecodeError, error) {
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		return nil, fmt.Errorf("the decode error is %T, not a *wire.DecodeError: %v", err, err)
	}
	if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
		return de, fmt.Errorf("the decode error is not one line: %q", msg)
	}
	return de, nil
}

// stable checks that r encodes, and that its encoding decodes and encodes
// again to the same bytes: the cheap half of RoundTrip.
func stable(c wire.Codec, r *wire.GraphResponse) (err error) {
	defer recoverTo(&err)
	b1, got, err := encodeDecode(c, r)
	if err != nil {
		return err
	}
	return encodesAgain(c, got, b1)
}

func measureDecode(c wire.Codec, data []byte, hang time.Duration) (Outcome, error) {
	done := make(chan Outcome, 1)
	timer := time.NewTimer(hang)
	defer timer.Stop()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	go func() {
		r, err := decodeSafe(c, data)
		done <- Outcome{Response: r, Err: err, Elapsed: time.Since(start)}
	}()
	select {
	case o := <-done:
		runtime.ReadMemStats(&m1)
		o.Alloc = int64(m1.TotalAlloc - m0.TotalAlloc)
		return o, nil
	case <-timer.C:
		return Outcome{Elapsed: hang}, fmt.Errorf("decoding did not return within %v (hung)", hang)
	}
}

func (c Config) checkHostile(t reporter, codec wire.Codec) {
	t.Helper()
	rs := append(FixedResponses(), c.Responses...)
	_, valid, skipped := encodings(codec, append(rs, ResponseWith(c.Gen).Example(1)))
	for _, s := range skipped {
		t.Logf("not a base for hostile inputs (cannot encode) %s", s)
	}
	if len(valid) == 0 {
		t.Fatalf("no response encodes; no hostile inputs can be made")
		return
	}
	for _, class := range Classes() {
		t.run(class, func(t reporter) {
			var n, ok, failures int
			var worstT time.Duration
			var worstA int64
			hostileClass(class, valid, c.BigInput, func(in Input) bool {
				n++
				out, err := DecodeHostile(codec, in.Data, c.Bounds)
				worstT, worstA = max(worstT, out.Elapsed), max(worstA, out.Alloc)
				if err != nil {
					failures++
					t.Errorf("%s: %v\ninput (%d bytes): %s", in.Name, err, len(in.Data), Quote(in.Data))
					return failures < 10 && !strings.Contains(err.Error(), "hung")
				}
				if out.Err == nil {
					ok++
				}
				return true
			})
			t.Logf("%d %s inputs, %d decoded to a valid response; slowest %v, most allocated %d bytes", n, class, ok, worstT, worstA)
		})
	}
}
