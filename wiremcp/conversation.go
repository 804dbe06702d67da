package wiremcp

import (
	"cmp"
	"container/list"
	"fmt"
	"sync"
	"time"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// SessionLimits bound what a Service remembers of its conversations. A
// zero field selects its default; a negative one is an error of New.
type SessionLimits struct {
	// MaxSessions is the most conversations remembered at once; past it
	// the least recently used is forgotten. Default DefaultMaxSessions.
	MaxSessions int
	// IdleTimeout forgets a conversation that made no call for this long.
	// Default DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Nodes bounds the nodes one conversation remembers as sent, for its
	// references (delta.SessionLimits). Default 10,000 nodes and
	// DefaultSessionBytes.
	Nodes delta.SessionLimits
	// MaxBases is the most earlier answers one conversation keeps, one
	// per distinct call, to answer a repeated call with a delta. Default
	// DefaultMaxBases.
	MaxBases int
	// MaxBaseBytes bounds the memory of the answers one conversation
	// keeps, each counted as wirecodec.InMemorySize plus the length of its
	// call's arguments; an answer larger alone is not kept (its repeated
	// call is answered in full). Default DefaultMaxBaseBytes.
	MaxBaseBytes int64
}

// The defaults of SessionLimits. At most MaxSessions × (Nodes.MaxBytes +
// MaxBaseBytes) is remembered: 1 GiB with the defaults.
const (
	DefaultMaxSessions  = 128
	DefaultIdleTimeout  = 30 * time.Minute
	DefaultSessionBytes = 4 << 20 // 4 MiB
	DefaultMaxBases     = 32
	DefaultMaxBaseBytes = 4 << 20 // 4 MiB
)

func (l SessionLimits) withDefaults() (SessionLimits, error) {
	if l.MaxSessions < 0 || l.IdleTimeout < 0 || l.Nodes.MaxNodes < 0 || l.Nodes.MaxBytes < 0 || l.MaxBases < 0 || l.MaxBaseBytes < 0 {
		return l, fmt.Errorf("wiremcp: SessionLimits %+v: a negative bound", l)
	}
	l.MaxSessions = cmp.Or(l.MaxSessions, DefaultMaxSessions)
	l.IdleTimeout = cmp.Or(l.IdleTimeout, DefaultIdleTimeout)
	l.Nodes.MaxNodes = cmp.Or(l.Nodes.MaxNodes, delta.DefaultSessionNodes)
	l.Nodes.MaxBytes = cmp.Or(l.Nodes.MaxBytes, DefaultSessionBytes)
	l.MaxBases = cmp.Or(l.MaxBases, DefaultMaxBases)
	l.MaxBaseBytes = cmp.Or(l.MaxBaseBytes, DefaultMaxBaseBytes)
	return l, nil
}

// conversations remembers one conversation per MCP session, least
// recently used forgotten first, and those idle past the timeout.
type conversations struct {
	lim SessionLimits
	now func() time.Time

	mu    sync.Mutex
	byKey map[any]*list.Element // of *conversation
	lru   *list.List            // most recently used first
}

func newConversations(l SessionLimits, now func() time.Time) *conversations {
	return &conversations{lim: l, now: now, byKey: map[any]*list.Element{}, lru: list.New()}
}

// get returns the conversation of key, a new one when it has none (or
// had one that was forgotten), and forgets the idle and the least
// recently used past MaxSessions.
func (cs *conversations) get(key any) (*conversation, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	now := cs.now()
	for el := cs.lru.Back(); el != nil; el = cs.lru.Back() {
		if c := el.Value.(*conversation); now.Sub(c.used) <= cs.lim.IdleTimeout {
			break
		}
		cs.forget(el)
	}
	if el, ok := cs.byKey[key]; ok {
		c := el.Value.(*conversation)
		c.used = now
		cs.lru.MoveToFront(el)
		return c, nil
	}
	s, err := delta.NewSession(cs.lim.Nodes)
	if err != nil {
		return nil, err
	}
	c := &conversation{key: key, used: now, session: s, lim: cs.lim, bases: map[string]*list.Element{}, order: list.New()}
	cs.byKey[key] = cs.lru.PushFront(c)
	for cs.lru.Len() > cs.lim.MaxSessions {
		cs.forget(cs.lru.Back())
	}
	return c, nil
}

func (cs *conversations) forget(el *list.Element) {
	cs.lru.Remove(el)
	delete(cs.byKey, el.Value.(*conversation).key)
}

// stats sums what the conversations remember.
func (cs *conversations) stats() SessionStats {
	cs.mu.Lock()
	els := make([]*conversation, 0, cs.lru.Len())
	for el := cs.lru.Front(); el != nil; el = el.Next() {
		els = append(els, el.Value.(*conversation))
	}
	cs.mu.Unlock()
	st := SessionStats{Sessions: len(els)}
	for _, c := range els {
		c.mu.Lock()
		n, b := c.session.Len()
		st.Nodes += n
		st.NodeBytes += b
		st.Bases += c.order.Len()
		st.BaseBytes += c.baseBytes
		c.mu.Unlock()
	}
	return st
}

// SessionStats is what a Service remembers now: its conversations, the
// nodes they remember as sent, and the earlier answers they keep for
// deltas, with their counted bytes.
type SessionStats struct {
	Sessions         int
	Nodes            int
	NodeBytes        int64
	Bases            int
	BaseBytes        int64
	MaxRememberBytes int64 // the bound: MaxSessions × (Nodes.MaxBytes + MaxBaseBytes)
	// SharedSessions is, with Options.Shared, the MCP sessions this
	// process serves under the service's ids (their conversations are in
	// the store, not counted above); each leaves when the SDK closes it.
	SharedSessions int
}

// conversation is one MCP session's state: the nodes sent (references)
// and, for each distinct call, the answer its client holds (deltas). Its
// calls run one at a time, so the writer's state follows what was sent.
type conversation struct {
	key  any
	used time.Time // guarded by conversations.mu

	mu        sync.Mutex
	lim       SessionLimits
	session   *delta.Session
	bases     map[string]*list.Element // of *base, by call key
	order     *list.List               // most recently kept first
	baseBytes int64
	// fetch reads a kept answer that a conversation loaded from
	// Options.Shared names but does not hold (resp nil): false when the
	// store no longer has it. Nil for a conversation in the process.
	fetch func(*base) bool
}

// base is the answer a client holds for one call, as its codec carried it.
type base struct {
	key  string
	resp *wire.GraphResponse
	// src is the fingerprint of the result the answer was written from,
	// as the tool gave it: a repeat whose result has it is unchanged.
	src    delta.Hash
	marker []byte // the unchanged marker, once written
	bytes  int64

	// In a conversation of Options.Shared: the fingerprint of resp, its
	// key in the store, when it was last written there (unix seconds),
	// and whether this call kept or used it (to be written again).
	fp      delta.Hash
	written int64
	touched bool
}

// held returns the answer the client holds for the call key, and makes
// it the most recently used.
func (c *conversation) held(key string) (*base, bool) {
	el, ok := c.bases[key]
	if !ok {
		return nil, false
	}
	b := el.Value.(*base)
	if b.resp == nil && (c.fetch == nil || !c.fetch(b)) {
		c.drop(key)
		return nil, false
	}
	c.order.MoveToFront(el)
	b.touched = true
	return b, true
}

// unchangedMarker is the codec's unchanged marker for b: the delta from
// b's answer to itself.
func (b *base) unchangedMarker(codec wire.Codec) ([]byte, error) {
	if b.marker == nil {
		h := delta.Fingerprint(b.resp)
		m, err := delta.AppendDelta(codec, nil, &delta.Delta{Check: delta.MakeCheck(h, h)})
		if err != nil {
			return nil, err
		}
		b.marker = m
	}
	return b.marker, nil
}

// keep remembers r as what the client holds for the call key, written
// from a result of fingerprint src, forgetting the least recently kept
// answers past the bounds; an answer larger than MaxBaseBytes alone is
// not kept.
func (c *conversation) keep(key string, r *wire.GraphResponse, src delta.Hash) {
	c.drop(key)
	size := wirecodec.InMemorySize(r) + int64(len(key))
	if size > c.lim.MaxBaseBytes {
		return
	}
	c.bases[key] = c.order.PushFront(&base{key: key, resp: r, src: src, bytes: size, touched: true})
	c.baseBytes += size
	for c.order.Len() > c.lim.MaxBases || c.baseBytes > c.lim.MaxBaseBytes {
		c.drop(c.order.Back().Value.(*base).key)
	}
}

// drop forgets the answer of the call key: the client no longer holds it
// whole (it was sent a page).
func (c *conversation) drop(key string) {
	el, ok := c.bases[key]
	if !ok {
		return
	}
	c.order.Remove(el)
	delete(c.bases, key)
	c.baseBytes -= el.Value.(*base).bytes
}

// reset forgets everything the client was sent: fresh.
func (c *conversation) reset() {
	c.session.Reset()
	clear(c.bases)
	c.order.Init()
	c.baseBytes = 0
}
