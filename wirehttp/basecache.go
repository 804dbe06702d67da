package wirehttp

import "sync"

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
	tag        string // the opaque tag, without quotes
	offer      int
	body       []byte
	prev, next *base // in use order: head the most recent
}

func (b *base) cost() int64 { return int64(len(b.body)+len(b.tag)) + baseOverhead }

// baseCache keeps bases by entity tag, least recently used evicted first,
// within a count and a byte bound. It is safe for concurrent use.
type baseCache struct {
	maxCount int
	maxBytes int64

	mu         sync.Mutex
	byTag      map[string]*base
	head, tail *base
	bytes      int64
}

func newBaseCache(maxCount int, maxBytes int64) *baseCache {
	return &baseCache{maxCount: maxCount, maxBytes: maxBytes, byTag: map[string]*base{}}
}

// get returns the body kept under tag and its offer, and marks it used.
// The body must not be modified: it is shared.
func (c *baseCache) get(tag string) ([]byte, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.byTag[tag]
	if !ok {
		return nil, 0, false
	}
	c.toFront(b)
	return b.body, b.offer, true
}

// put keeps a copy of body under tag, evicting the least recently used
// bases until both bounds hold. A body that alone exceeds the byte bound
// is not kept. A tag already kept is only marked used.
func (c *baseCache) put(tag string, offer int, body []byte) {
	b := &base{tag: tag, offer: offer}
	if cost := int64(len(body)+len(tag)) + baseOverhead; cost > c.maxBytes || c.maxCount <= 0 {
		return
	}
	c.mu.Lock()
	if old, ok := c.byTag[tag]; ok {
		c.toFront(old)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	// Copy outside the lock: body may be large, and it is the caller's
	// (a pooled buffer).
	b.body = append([]byte(nil), body...)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byTag[tag]; ok { // kept meanwhile
		c.toFront(old)
		return
	}
	c.byTag[tag] = b
	c.pushFront(b)
	c.bytes += b.cost()
	for len(c.byTag) > c.maxCount || c.bytes > c.maxBytes {
		c.remove(c.tail)
	}
}

// stats returns how many bases are kept and their cost in bytes.
func (c *baseCache) stats() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byTag), c.bytes
}

func (c *baseCache) pushFront(b *base) {
	b.prev, b.next = nil, c.head
	if c.head != nil {
		c.head.prev = b
	}
	c.head = b
	if c.tail == nil {
		c.tail = b
	}
}

func (c *baseCache) unlink(b *base) {
	if b.prev != nil {
		b.prev.next = b.next
	} else {
		c.head = b.next
	}
	if b.next != nil {
		b.next.prev = b.prev
	} else {
		c.tail = b.prev
	}
	b.prev, b.next = nil, nil
}

func (c *baseCache) toFront(b *base) {
	if c.head == b {
		return
	}
	c.unlink(b)
	c.pushFront(b)
}

func (c *baseCache) remove(b *base) {
	c.unlink(b)
	delete(c.byTag, b.tag)
	c.bytes -= b.cost()
}
