package wirehttp

import "sync/atomic"

// Defaults of DeltaOptions.
const (
	DefaultDeltaBases = 1024     // DeltaOptions.MaxBases when zero
	DefaultDeltaBytes = 64 << 20 // DeltaOptions.MaxBytes when zero: 64 MiB
)

// baseOverhead is what a base costs beside its body and tag: the map
// entry, the entry struct and the string and slice headers. The cache
// counts it against MaxBytes, so that many small bases stay within the
// bound too.
const baseOverhead = 160

// base is a body the Server sent a client that asked for deltas: the
// bytes the client holds, in the codec of offer.
type base struct {
	offer int
	body  []byte
	// stored is when the base was last written to (or read from) the
	// shared store, in Unix nanoseconds; zero when never.
	stored atomic.Int64
}

// baseCache keeps bases by entity tag (the opaque tag, without quotes),
// least recently used evicted first, within a count and a byte bound. It
// is safe for concurrent use.
type baseCache struct {
	c *lru[string, *base]
	// failed is when a call to the shared store last failed, in Unix
	// nanoseconds: a base stored before it may be gone (a store
	// restarted empty) and is written again.
	failed atomic.Int64
}

func newBaseCache(maxCount int, maxBytes int64) *baseCache {
	return &baseCache{c: newLRU[string, *base](maxCount, maxBytes)}
}

// get returns the body kept under tag and its offer, and marks it used.
// The body must not be modified: it is shared.
func (c *baseCache) get(tag string) ([]byte, int, bool) {
	b, ok := c.c.get(tag)
	if !ok {
		return nil, 0, false
	}
	return b.body, b.offer, true
}

// put keeps a copy of body under tag, evicting the least recently used
// bases until both bounds hold. A body that alone exceeds the byte bound
// is not kept (put returns nil). A tag already kept is only marked used.
// It returns the base kept under tag.
func (c *baseCache) put(tag string, offer int, body []byte) *base {
	cost := int64(len(body)+len(tag)) + baseOverhead
	if !c.c.fits(cost) {
		return nil
	}
	if b, ok := c.c.get(tag); ok {
		return b
	}
	// Copy outside the lock: body may be large, and it is the caller's
	// (a pooled buffer). A tag kept meanwhile is only marked used.
	b := &base{offer: offer, body: append([]byte(nil), body...)}
	c.c.add(tag, b, cost)
	return b
}

// stats returns how many bases are kept and their cost in bytes.
func (c *baseCache) stats() (int, int64) { return c.c.stats() }
