package delta

import (
	"cmp"
	"container/list"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// SessionLimits bound what a Session remembers. A zero field selects its
// default; a negative one is an error of NewSession.
type SessionLimits struct {
	// MaxNodes is the most nodes remembered. Default DefaultSessionNodes.
	MaxNodes int
	// MaxBytes bounds the memory of the remembered nodes, each counted as
	// an estimate of the heap it holds: 256 bytes for its entry, and for
	// each property the size of its struct, its key, its string and list
	// elements. A node larger than MaxBytes alone is never remembered.
	// Default DefaultSessionBytes.
	MaxBytes int64
}

// The defaults of SessionLimits.
const (
	DefaultSessionNodes = 10_000
	DefaultSessionBytes = 16 << 20 // 16 MiB
)

// sessionEntryOverhead is what one remembered node costs besides its
// properties: the entry with its hash, the list element, the map slot.
const sessionEntryOverhead = 256

// ErrUnresolved is matched (errors.Is) by the error of Resolve for a
// reference to a node the session does not remember: the reader must ask
// for the full response (GCF §9.4).
var ErrUnresolved = errors.New("delta: a reference the session cannot resolve")

// Session remembers the nodes delivered in one conversation, so that a
// node delivered before and unchanged since is sent as a reference (its
// type and id) instead of in full. The writer and the reader each keep a
// Session with the same limits and remember each response's nodes the
// same way (least recently delivered forgotten first), so a reference the
// writer emits is always one the reader can resolve. A Session is safe
// for concurrent use, but the reader must resolve the responses in the
// order the writer marked them.
type Session struct {
	mu    sync.Mutex
	lim   SessionLimits
	nodes map[sessionKey]*list.Element // of *sessionEntry
	lru   *list.List                   // most recently delivered first
	bytes int64
	// writerOnly: restored from a state (RestoreSession), which holds no
	// node contents; Resolve and Decode refuse until Reset.
	writerOnly bool
}

type sessionKey struct {
	typ string
	id  int64
}

// listingAddr is a node's identity and the address and length of its
// property list: two listings with the same are the same content.
type listingAddr struct {
	typ   string
	id    int64
	props *wire.Property
	n     int
}

type sessionEntry struct {
	key   sessionKey
	hash  Hash
	node  wire.Node
	bytes int64
	// cost and shape are what a reference to the node is charged when a
	// response is resolved: listingCost and shapeOf, measured once, when
	// the node is remembered.
	cost  int64
	shape nodeShape
	// bare: restored from a state, node holds only the type and id; mark
	// gives it the content of a node listed with the same hash.
	bare bool
}

// NewSession returns an empty Session bounded by l.
func NewSession(l SessionLimits) (*Session, error) {
	if l.MaxNodes == 0 {
		l.MaxNodes = DefaultSessionNodes
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultSessionBytes
	}
	if l.MaxNodes < 0 || l.MaxBytes < 0 {
		return nil, fmt.Errorf("delta: SessionLimits %+v: a negative bound", l)
	}
	return &Session{lim: l, nodes: map[sessionKey]*list.Element{}, lru: list.New()}, nil
}

// Len returns how many nodes s remembers, and their counted bytes.
func (s *Session) Len() (nodes int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len(), s.bytes
}

// Mark returns the positions in r.Nodes, ascending, of the nodes to write
// as references (delivered earlier with the same content, still
// remembered), then remembers every node of r as delivered (Reset both
// sessions if r is not). With a codec that does not carry r exactly, use
// Encode, which remembers what the reader will hold.
func (s *Session) Mark(r *wire.GraphResponse) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, hashes := s.mark(r)
	s.deliver(r.Nodes, hashes)
	return refs
}

// References returns what Mark would return now, and changes nothing.
func (s *Session) References(r *wire.GraphResponse) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, _ := s.mark(r)
	return refs
}

// mark is Mark without remembering: the references and every node's hash.
// A node listed again with the same type, id and property list (the same
// slice, as a response that repeats one node holds it) is hashed once.
func (s *Session) mark(r *wire.GraphResponse) ([]int, []Hash) {
	hashes := make([]Hash, len(r.Nodes))
	var refs []int
	var hashed map[listingAddr]Hash
	for i := range r.Nodes {
		n := &r.Nodes[i]
		if len(n.Properties) == 0 {
			hashes[i] = nodeHash(n)
		} else {
			a := listingAddr{n.Type, n.ID, &n.Properties[0], len(n.Properties)}
			h, ok := hashed[a]
			if !ok {
				h = nodeHash(n)
				if hashed == nil {
					hashed = make(map[listingAddr]Hash)
				}
				hashed[a] = h
			}
			hashes[i] = h
		}
		if el, ok := s.nodes[sessionKey{n.Type, n.ID}]; ok && el.Value.(*sessionEntry).hash == hashes[i] {
			if e := el.Value.(*sessionEntry); e.bare {
				e.node, e.bare = ownNode(n), false
			}
			refs = append(refs, i)
		}
	}
	return refs, hashes
}

// Resolve returns r with the nodes at the positions refs (as Mark returned
// them) replaced by the nodes the session remembers under their type and
// id, and remembers the result's nodes as delivered. The nodes put back
// share their properties with the session: treat them as read-only.
//
// want, when not the zero Hash, is the Fingerprint of the response the
// writer marked; a result without it (the sessions are out of step), or a
// reference the session cannot resolve, is an error matching
// ErrUnresolved, and the session is unchanged. The result obeys the
// default wire.Limits (see the package doc, "Limits and security"): past
// them the error is a *wire.DecodeError of codec "delta" matching
// wire.ErrLimit.
func (s *Session) Resolve(r *wire.GraphResponse, refs []int, want Hash) (*wire.GraphResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resolve(r, refs, want, wire.DefaultLimits(), "delta", -1)
}

// resolve is Resolve under the limits l for a text of n bytes in codec
// (n < 0: r as given, measured as canonical JSON).
func (s *Session) resolve(r *wire.GraphResponse, refs []int, want Hash, l wire.Limits, codec string, n int64) (*wire.GraphResponse, error) {
	if s.writerOnly {
		return nil, fmt.Errorf("%w (%w)", ErrUnresolved, ErrWriterOnly)
	}
	out, ents, err := s.resolved(r, refs, want, l, codec, n)
	if err != nil {
		return nil, err
	}
	s.remember(out, refs, ents)
	return out, nil
}

// remember delivers the nodes of out, a response resolved from the
// entries ents at the positions refs.
func (s *Session) remember(out *wire.GraphResponse, refs []int, ents []*sessionEntry) {
	hashes := make([]Hash, len(out.Nodes))
	for k, i := range refs {
		hashes[i] = ents[k].hash
	}
	for i := range out.Nodes {
		if hashes[i].IsZero() {
			hashes[i] = nodeHash(&out.Nodes[i])
		}
	}
	s.deliver(out.Nodes, hashes)
}

// resolved is resolve without remembering: the resolved response, charged
// against l (charge) before the fingerprint check, and the remembered
// entries put back, in the order of refs.
func (s *Session) resolved(r *wire.GraphResponse, refs []int, want Hash, l wire.Limits, codec string, n int64) (*wire.GraphResponse, []*sessionEntry, error) {
	out, ents, err := s.substitute(r, refs)
	if err != nil {
		return nil, nil, err
	}
	// Without references the response is what its decoder built, under
	// the codec's limits.
	if len(refs) > 0 {
		if n < 0 {
			n = wirecodec.MaterializedSize(r)
		}
		if f := charge(l, n, out, refs, ents); f != nil {
			return nil, nil, f.decodeError(codec, n, out)
		}
	}
	if !want.IsZero() {
		if got := Fingerprint(out); got != want {
			return nil, nil, fmt.Errorf("%w: the resolved response's fingerprint is %s, the writer's %s (the sessions are out of step)", ErrUnresolved, got, want)
		}
	}
	return out, ents, nil
}

// Reset forgets every node: for a writer whose response was not delivered,
// and for its reader, so that the two are in step again.
func (s *Session) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.nodes)
	s.lru.Init()
	s.bytes = 0
	s.writerOnly = false
}

// deliver remembers nodes as the most recently delivered, then forgets the
// least recently delivered until the bounds hold. It takes them in the
// order of their identities, not the response's, which a codec (GOON)
// may not keep, so writer and reader remember the same.
func (s *Session) deliver(nodes []wire.Node, hashes []Hash) {
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(strings.Compare(nodes[a].Type, nodes[b].Type), cmp.Compare(nodes[a].ID, nodes[b].ID))
	})
	var m *wirecodec.Meter
	for _, i := range order {
		n := &nodes[i]
		k := sessionKey{n.Type, n.ID}
		if el, ok := s.nodes[k]; ok {
			if h := el.Value.(*sessionEntry).hash; h == hashes[i] && !h.IsZero() {
				// The same content, remembered already (a reference put
				// back, or a node listed again): kept, not copied again.
				s.lru.MoveToFront(el)
				continue
			}
			s.forget(el)
		}
		shape := shapeOf(n)
		if shape.bytes > s.lim.MaxBytes {
			continue
		}
		if m == nil {
			m = wirecodec.NewMeter(unbounded, math.MaxInt)
		}
		c := ownNode(n)
		e := &sessionEntry{key: sessionKey{c.Type, c.ID}, hash: hashes[i], bytes: shape.bytes, node: c,
			cost: listingCost(m, &c), shape: shape}
		s.nodes[e.key] = s.lru.PushFront(e)
		s.bytes += shape.bytes
	}
	for s.lru.Len() > s.lim.MaxNodes || s.bytes > s.lim.MaxBytes {
		s.forget(s.lru.Back())
	}
}

func (s *Session) forget(el *list.Element) {
	e := el.Value.(*sessionEntry)
	s.lru.Remove(el)
	delete(s.nodes, e.key)
	s.bytes -= e.bytes
}

// ownNode copies n with strings of its own: the strings of a decoded
// response may be substrings of its whole input, which a remembered node
// must not keep alive.
func ownNode(n *wire.Node) wire.Node {
	c := wire.Node{Type: strings.Clone(n.Type), ID: n.ID, Properties: make([]wire.Property, len(n.Properties))}
	for i, p := range n.Properties {
		c.Properties[i] = wire.Property{Key: strings.Clone(p.Key), Value: ownValue(p.Value)}
	}
	return c
}

func ownValue(v wire.Value) wire.Value {
	switch v.Kind() {
	case wire.KindString:
		return wire.String(strings.Clone(v.Text()))
	case wire.KindList:
		xs := make([]wire.Value, len(v.List()))
		for i, x := range v.List() {
			xs[i] = ownValue(x)
		}
		return wire.ListOf(xs...)
	}
	return v
}
