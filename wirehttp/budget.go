package wirehttp

import (
	"runtime/debug"
	"sync"
	"time"
)

// DecodeFactor is how many bytes of working memory a decode is charged
// per byte of its input, on top of the input itself: the decoders'
// documented peak is 16x the input + DecodeOverhead.
const DecodeFactor = 16

// DecodeOverhead is the constant part of a decode's charge (16 MiB), the
// "+ 16 MiB" of the decoders' peak-memory bound.
const DecodeOverhead = 16 << 20

// DefaultMaxInFlightBytes returns Options.MaxInFlightBytes when it is
// zero, for a registry whose Limits.MaxInputBytes is maxInput: room for
// two of the largest decodes at once, 2 x ((1 + DecodeFactor) x maxInput
// + DecodeOverhead), 2,208 MiB with the default 64 MiB.
func DefaultMaxInFlightBytes(maxInput int64) int64 {
	return 2 * ((1+DecodeFactor)*maxInput + DecodeOverhead)
}

// DefaultFreeMemoryAfter is Options.FreeMemoryAfter when it is zero.
const DefaultFreeMemoryAfter = time.Second

// freeThreshold is the peak charge since the last return of memory from
// which an idle server returns memory to the operating system.
const freeThreshold = 64 << 20

// freeInterval is the least time between two returns of memory.
const freeInterval = 5 * time.Second

// budget bounds the bytes that requests in flight hold (bodies read,
// their decodes, encodings of answers). It never blocks: a charge that
// does not fit is refused, and the request answered 503.
type budget struct {
	max       int64
	freeAfter time.Duration // < 0: never return memory
	free      func()        // debug.FreeOSMemory; replaced in tests

	mu       sync.Mutex
	used     int64
	peak     int64 // highest used since memory was last returned
	lastFree time.Time
	timer    *time.Timer
	frees    int // how many times memory was returned
}

func newBudget(max int64, freeAfter time.Duration) *budget {
	return &budget{max: max, freeAfter: freeAfter, free: debug.FreeOSMemory}
}

// charge is one request's share of the budget.
type charge struct {
	b *budget
	n int64
}

// grow adds n bytes to c, reporting false (and adding nothing) when the
// budget cannot hold them. A single request is never charged more than
// the whole budget: past it, its charge is capped, so that the largest
// request a server accepts can always run alone.
func (c *charge) grow(n int64) bool {
	if c == nil || n <= 0 {
		return true
	}
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	n = min(n, b.max-c.n)
	if n <= 0 {
		return true
	}
	if b.used+n > b.max {
		return false
	}
	b.used += n
	c.n += n
	b.peak = max(b.peak, b.used)
	return true
}

// release returns all of c to the budget. When the server goes idle
// after holding more than freeThreshold, it returns memory to the
// operating system after freeAfter (at most once per freeInterval), since
// the Go scavenger gives back freed heap only slowly.
func (c *charge) release() {
	if c == nil || c.n == 0 {
		return
	}
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= c.n
	c.n = 0
	if b.used == 0 && b.peak >= freeThreshold && b.freeAfter >= 0 && b.timer == nil {
		wait := b.freeAfter
		if next := time.Until(b.lastFree.Add(freeInterval)); next > wait {
			wait = next
		}
		b.timer = time.AfterFunc(wait, b.idle)
	}
}

// idle returns memory to the operating system if nothing is in flight.
func (b *budget) idle() {
	b.mu.Lock()
	b.timer = nil
	if b.used != 0 {
		b.mu.Unlock() // the next release schedules it again
		return
	}
	b.peak = 0
	b.lastFree = time.Now()
	b.frees++
	b.mu.Unlock()
	b.free()
}

func (b *budget) newCharge() *charge { return &charge{b: b} }

// InFlightBytes reports the bytes the requests in flight are charged
// (see Options.MaxInFlightBytes).
func (s *Server) InFlightBytes() int64 {
	s.budget.mu.Lock()
	defer s.budget.mu.Unlock()
	return s.budget.used
}
