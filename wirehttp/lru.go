package wirehttp

import "sync"

// lru keeps values by key within a count and a byte bound, the least
// recently used evicted first. Each value has a cost in bytes, fixed when
// it is added. It is safe for concurrent use. The base cache and the
// cache of computed deltas are both one.
type lru[K comparable, V any] struct {
	maxCount int
	maxBytes int64

	mu         sync.Mutex
	byKey      map[K]*lruEntry[K, V]
	head, tail *lruEntry[K, V] // in use order: head the most recent
	bytes      int64
}

type lruEntry[K comparable, V any] struct {
	key        K
	val        V
	cost       int64
	prev, next *lruEntry[K, V]
}

func newLRU[K comparable, V any](maxCount int, maxBytes int64) *lru[K, V] {
	return &lru[K, V]{maxCount: maxCount, maxBytes: maxBytes, byKey: map[K]*lruEntry[K, V]{}}
}

// fits reports whether a value of cost could be kept at all.
func (c *lru[K, V]) fits(cost int64) bool { return c.maxCount > 0 && cost <= c.maxBytes }

// get returns the value kept under k and marks it used.
func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.toFront(e)
	return e.val, true
}

// add keeps v under k, evicting the least recently used values until both
// bounds hold. A value whose cost alone exceeds the byte bound is not
// kept. A key already kept keeps its value and is only marked used.
func (c *lru[K, V]) add(k K, v V, cost int64) {
	if !c.fits(cost) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byKey[k]; ok {
		c.toFront(old)
		return
	}
	e := &lruEntry[K, V]{key: k, val: v, cost: cost}
	c.byKey[k] = e
	c.pushFront(e)
	c.bytes += cost
	for len(c.byKey) > c.maxCount || c.bytes > c.maxBytes {
		c.remove(c.tail)
	}
}

// stats returns how many values are kept and their cost in bytes.
func (c *lru[K, V]) stats() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey), c.bytes
}

func (c *lru[K, V]) pushFront(e *lruEntry[K, V]) {
	e.prev, e.next = nil, c.head
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}

func (c *lru[K, V]) unlink(e *lruEntry[K, V]) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (c *lru[K, V]) toFront(e *lruEntry[K, V]) {
	if c.head == e {
		return
	}
	c.unlink(e)
	c.pushFront(e)
}

func (c *lru[K, V]) remove(e *lruEntry[K, V]) {
	c.unlink(e)
	delete(c.byKey, e.key)
	c.bytes -= e.cost
}

// drop forgets the value kept under k, if any.
func (c *lru[K, V]) drop(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.remove(e)
	}
}
