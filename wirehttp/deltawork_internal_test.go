package wirehttp

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/delta"
)

func newTestWork(t *testing.T, o DeltaOptions) *deltaWork {
	t.Helper()
	o, err := o.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	return newDeltaWork(o)
}

// TestDeltaWorkOnce: callers asking for the same answer while it is
// computed wait for that computation; later ones get the answer kept.
func TestDeltaWorkOnce(t *testing.T) {
	w := newTestWork(t, DeltaOptions{MaxComputations: 1})
	k := deltaKey{offer: 1, base: "b", current: "c"}
	release := make(chan struct{})
	var calls atomic.Int32
	compute := func() (deltaAnswer, bool) {
		calls.Add(1)
		<-release
		return deltaAnswer{choice: delta.SendDelta, patch: []byte("patch")}, true
	}
	const callers = 8
	got := make([]string, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			if a, ok := w.answer(context.Background(), k, compute); ok {
				got[i] = string(a.patch)
			}
		})
	}
	for deadline := time.Now().Add(10 * time.Second); calls.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no computation started")
		}
	}
	time.Sleep(20 * time.Millisecond) // the other callers reach the flight
	close(release)
	wg.Wait()
	if a, ok := w.answer(context.Background(), k, compute); !ok || string(a.patch) != "patch" {
		t.Errorf("after: %q %v, want the answer kept", a.patch, ok)
	}
	want := make([]string, callers)
	for i := range want {
		want[i] = "patch"
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("computed %d times, want once", n)
	}
}

// TestDeltaWorkBusy: past MaxComputations a new computation is refused
// at once (the caller sends the full answer), a waiter leaves when its
// request ends, and an answer that could not be computed is not kept.
func TestDeltaWorkBusy(t *testing.T) {
	w := newTestWork(t, DeltaOptions{MaxComputations: 1})
	a, b := deltaKey{base: "a", current: "c"}, deltaKey{base: "b", current: "c"}
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.answer(context.Background(), a, func() (deltaAnswer, bool) {
			close(started)
			<-release
			return deltaAnswer{choice: delta.SendFull}, true
		})
	}()
	<-started
	if _, ok := w.answer(context.Background(), b, func() (deltaAnswer, bool) {
		t.Error("a second computation ran past MaxComputations 1")
		return deltaAnswer{}, true
	}); ok {
		t.Error("an answer past MaxComputations")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := w.answer(ctx, a, nil); ok {
		t.Error("a waiter whose request ended got an answer")
	}
	close(release)
	<-done
	// The slot is free again; a computation that fails is not kept.
	var calls int
	fail := func() (deltaAnswer, bool) { calls++; return deltaAnswer{}, false }
	for range 2 {
		if _, ok := w.answer(context.Background(), b, fail); ok {
			t.Error("a failed computation gave an answer")
		}
	}
	if calls != 2 {
		t.Errorf("a failed computation ran %d times for 2 requests, want 2 (not kept)", calls)
	}
	// The full-answer decision is kept like a delta.
	if ans, ok := w.cached(a); !ok || ans.choice != delta.SendFull {
		t.Errorf("the decision to send the full answer: %v %v, want kept", ans.choice, ok)
	}
}

// TestDeltaWorkBounds: computed answers are kept within MaxDeltas and
// MaxDeltaBytes, and a full answer's cost is counted once.
func TestDeltaWorkBounds(t *testing.T) {
	w := newTestWork(t, DeltaOptions{MaxDeltas: 4, MaxDeltaBytes: 10 << 10})
	for i := range 10 {
		k := deltaKey{base: string(rune('a' + i)), current: "c"}
		w.answer(context.Background(), k, func() (deltaAnswer, bool) {
			return deltaAnswer{choice: delta.SendDelta, patch: make([]byte, 3<<10)}, true
		})
		if n, b := w.done.stats(); n > 4 || b > 10<<10 {
			t.Fatalf("after %d answers: %d kept, %d bytes; bounds 4, %d", i+1, n, b, 10<<10)
		}
	}
	if n, _ := w.done.stats(); n != 3 {
		t.Errorf("%d answers of 3 KiB kept under 10 KiB, want 3", n)
	}
	var counted int
	for range 3 {
		n, err := w.fullCost(deltaKey{base: "x", current: "c"}, func() (int, error) { counted++; return 42, nil })
		if err != nil || n != 42 {
			t.Fatalf("fullCost %d %v", n, err)
		}
	}
	if counted != 1 {
		t.Errorf("the full answer counted %d times, want once", counted)
	}
}

func TestDeltaOptionsRange(t *testing.T) {
	for _, o := range []DeltaOptions{{MaxDeltas: -1}, {MaxDeltaBytes: -1}, {MaxComputations: -1}} {
		if _, err := New(nil, Options{Delta: o}); err == nil {
			t.Errorf("New with %+v: no error", o)
		}
	}
	o, err := DeltaOptions{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if o.MaxDeltas != DefaultMaxDeltas || o.MaxDeltaBytes != DefaultMaxDeltaBytes || o.MaxComputations != DefaultMaxComputations {
		t.Errorf("defaults: %+v", o)
	}
}
