package wirestore

import (
	"container/heap"
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryOptions bound a Memory store. A zero or negative field selects
// its default.
type MemoryOptions struct {
	// MaxEntries is the most values kept. Default DefaultMemoryEntries.
	MaxEntries int
	// MaxBytes bounds the bytes of the values kept, each counted as its
	// key, its value and MemoryEntryOverhead. Default DefaultMemoryBytes.
	MaxBytes int64
	// MaxValueBytes is the longest value kept; Set of a longer one is
	// ErrTooLarge. Default DefaultMaxValueBytes (never past MaxBytes).
	MaxValueBytes int
}

// The defaults of MemoryOptions, and of RedisOptions.MaxValueBytes.
const (
	DefaultMemoryEntries = 10_000
	DefaultMemoryBytes   = 64 << 20 // 64 MiB
	DefaultMaxValueBytes = 4 << 20  // 4 MiB
)

// MemoryEntryOverhead is what one value costs a Memory store besides its
// key's and its value's bytes: the entry, its list element and map slot.
const MemoryEntryOverhead = 160

func (o MemoryOptions) withDefaults() MemoryOptions {
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultMemoryEntries
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMemoryBytes
	}
	if o.MaxValueBytes <= 0 {
		o.MaxValueBytes = DefaultMaxValueBytes
	}
	o.MaxValueBytes = int(min(int64(o.MaxValueBytes), o.MaxBytes))
	return o
}

// Memory is a Store in the process's memory: the least recently used
// value is forgotten first whenever the count or the bytes pass their
// bound, and a value is gone once its time to live has passed (it is
// dropped when it is read or on the next Set).
// It is safe for concurrent use. Its calls never block on anything but
// its own lock, and ignore their context.
type Memory struct {
	o   MemoryOptions
	now func() time.Time

	mu    sync.Mutex
	byKey map[string]*list.Element // of *memoryEntry
	order *list.List               // most recently used first
	exp   expiries
	bytes int64
}

type memoryEntry struct {
	key     string
	value   []byte
	expires time.Time
	cost    int64
	at      int // index in Memory.exp
}

// expiries is a heap of the entries, the first to expire first.
type expiries []*memoryEntry

func (h expiries) Len() int           { return len(h) }
func (h expiries) Less(i, j int) bool { return h[i].expires.Before(h[j].expires) }
func (h expiries) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].at, h[j].at = i, j
}
func (h *expiries) Push(x any) {
	e := x.(*memoryEntry)
	e.at = len(*h)
	*h = append(*h, e)
}
func (h *expiries) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return e
}

// NewMemory returns an empty Memory store bounded by o.
func NewMemory(o MemoryOptions) *Memory {
	return &Memory{o: o.withDefaults(), now: time.Now, byKey: map[string]*list.Element{}, order: list.New()}
}

// Options returns the bounds of m, defaults filled in.
func (m *Memory) Options() MemoryOptions { return m.o }

// Get returns a copy of the value under key and marks it used.
func (m *Memory) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.byKey[key]
	if !ok {
		return nil, ErrNotFound
	}
	e := el.Value.(*memoryEntry)
	if !m.now().Before(e.expires) {
		m.remove(el)
		return nil, ErrNotFound
	}
	m.order.MoveToFront(el)
	return append([]byte(nil), e.value...), nil
}

// Set keeps a copy of value under key for ttl, forgetting the least
// recently used values until the bounds hold.
func (m *Memory) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	if err := checkTTL(ttl); err != nil {
		return err
	}
	if len(value) > m.o.MaxValueBytes {
		return &StoreError{Op: "set", Store: "memory", Err: tooLarge(len(value), m.o.MaxValueBytes)}
	}
	e := &memoryEntry{key: key, value: append([]byte(nil), value...), cost: int64(len(key)+len(value)) + MemoryEntryOverhead}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	e.expires = now.Add(ttl)
	if el, ok := m.byKey[key]; ok {
		m.remove(el)
	}
	m.byKey[key] = m.order.PushFront(e)
	heap.Push(&m.exp, e)
	m.bytes += e.cost
	for m.order.Len() > m.o.MaxEntries || m.bytes > m.o.MaxBytes {
		m.remove(m.order.Back())
	}
	// Values that expired go now, so a store no one reads does not keep
	// them until it fills.
	for len(m.exp) > 0 && !now.Before(m.exp[0].expires) {
		m.remove(m.byKey[m.exp[0].key])
	}
	return nil
}

// Delete forgets the value under key.
func (m *Memory) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.byKey[key]; ok {
		m.remove(el)
	}
	return nil
}

// Len returns how many values m keeps, expired ones not yet dropped
// included, and the bytes they count.
func (m *Memory) Len() (values int, bytes int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len(), m.bytes
}

func (m *Memory) remove(el *list.Element) {
	e := el.Value.(*memoryEntry)
	m.order.Remove(el)
	heap.Remove(&m.exp, e.at)
	delete(m.byKey, e.key)
	m.bytes -= e.cost
}

func tooLarge(n, max int) error {
	return fmt.Errorf("%w: a value of %d bytes, past the %d a value may take", ErrTooLarge, n, max)
}
