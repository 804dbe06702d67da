package wirehttp

import (
	"context"
	"sync"

	"github.com/graphwire/graphwire/delta"
)

// Defaults of DeltaOptions for the deltas the Server computes.
const (
	DefaultMaxDeltas       = 1024     // DeltaOptions.MaxDeltas when zero
	DefaultMaxDeltaBytes   = 16 << 20 // DeltaOptions.MaxDeltaBytes when zero: 16 MiB
	DefaultMaxComputations = 2        // DeltaOptions.MaxComputations when zero
)

// deltaOverhead is what a computed delta costs in its cache beside its
// bytes and its two tags: the map entry, the entry struct, the key's and
// the value's headers. Like baseOverhead, it keeps many small entries
// within the byte bound.
const deltaOverhead = 192

// deltaKey names one computed delta: from the base the client holds to
// the current answer, both by their tags (without quotes or a coding
// suffix: the tags of the identity bodies), in the codec of offer. The
// tags name the bytes, and the Threshold that priced the delta is the
// Server's, so the key names the answer.
type deltaKey struct {
	offer         int
	base, current string
}

// priced names a full answer whose cost (tokens or bytes) was counted:
// its tag in the codec of offer.
type priced struct {
	offer   int
	current string
}

// deltaAnswer is a decision of delta.Choose and, for SendDelta, the
// delta written in the codec's delta syntax (shared: never modified).
type deltaAnswer struct {
	choice delta.Choice
	patch  []byte
}

// deltaWork computes deltas for the whole Server: each answer once,
// kept in a bounded cache, with at most a fixed number of computations
// running at once. It is safe for concurrent use.
type deltaWork struct {
	done  *lru[deltaKey, deltaAnswer]
	costs *lru[priced, int] // the full answers' costs
	slots chan struct{}     // one token per computation running

	mu       sync.Mutex
	flights  map[deltaKey]*flight
	counting sync.Mutex // held while a full answer's cost is counted
}

// flight is a computation in progress, which requests for the same key
// wait for rather than start another.
type flight struct {
	finished chan struct{} // closed once ans and ok are set
	ans      deltaAnswer
	ok       bool
}

func newDeltaWork(o DeltaOptions) *deltaWork {
	return &deltaWork{
		done:    newLRU[deltaKey, deltaAnswer](o.MaxDeltas, o.MaxDeltaBytes),
		costs:   newLRU[priced, int](o.MaxDeltas, o.MaxDeltaBytes),
		slots:   make(chan struct{}, o.MaxComputations),
		flights: map[deltaKey]*flight{},
	}
}

// cached returns the answer kept for k, if any.
func (w *deltaWork) cached(k deltaKey) (deltaAnswer, bool) { return w.done.get(k) }

// answer returns the answer for k: the one kept, the one a computation in
// flight for k gives (waiting for it, or for ctx to end), or the one
// compute gives when a computation may start now. It reports false when
// there is none: all computations are taken (the caller sends the full
// answer rather than queue), ctx ended while waiting, or compute
// reported false (it failed, or the in-flight bound could not hold it).
// An answer compute gives is kept.
func (w *deltaWork) answer(ctx context.Context, k deltaKey, compute func() (deltaAnswer, bool)) (deltaAnswer, bool) {
	if a, ok := w.done.get(k); ok {
		return a, true
	}
	w.mu.Lock()
	if f := w.flights[k]; f != nil {
		w.mu.Unlock()
		select {
		case <-f.finished:
			return f.ans, f.ok
		case <-ctx.Done():
			return deltaAnswer{}, false
		}
	}
	// A computation that ended between the lookup above and the lock
	// kept its answer before it left flights.
	if a, ok := w.done.get(k); ok {
		w.mu.Unlock()
		return a, true
	}
	select {
	case w.slots <- struct{}{}:
	default:
		w.mu.Unlock()
		return deltaAnswer{}, false
	}
	f := &flight{finished: make(chan struct{})}
	w.flights[k] = f
	w.mu.Unlock()

	defer func() {
		close(f.finished)
		<-w.slots
		w.mu.Lock()
		delete(w.flights, k)
		w.mu.Unlock()
	}()
	a, ok := compute()
	if ok {
		w.done.add(k, a, int64(len(a.patch)+len(k.base)+len(k.current))+deltaOverhead)
	}
	f.ans, f.ok = a, ok
	return a, ok
}

// fullCost returns the cost of the current answer of k, counting it with
// count when it is not kept. Counting the tokens of a large answer takes
// most of a delta's computation, and every client that holds another
// base asks for the same current answer: so computations that miss it
// count one after another (at most MaxComputations wait), and all but
// the first find it kept.
func (w *deltaWork) fullCost(k deltaKey, count func() (int, error)) (int, error) {
	p := priced{offer: k.offer, current: k.current}
	if n, ok := w.costs.get(p); ok {
		return n, nil
	}
	w.counting.Lock()
	defer w.counting.Unlock()
	if n, ok := w.costs.get(p); ok {
		return n, nil
	}
	n, err := count()
	if err == nil {
		w.costs.add(p, n, int64(len(p.current))+deltaOverhead)
	}
	return n, err
}
