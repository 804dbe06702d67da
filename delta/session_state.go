package delta

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// A session's state is what its writer needs to go on in another process:
// each remembered node, most recently delivered first, without its
// content (a reference is only written to a node of the response being
// written, with the same hash, which gives the restored entry its
// content). The layout, where uvarint and varint are encoding/binary's:
//
//	"GWSS" uvarint(version = 1) uvarint(count)
//	count entries, each:
//	  uvarint(t)          index of the node's type among the types read
//	                      so far; t equal to their number introduces a
//	                      new type: uvarint(length) and its bytes
//	  varint(id)
//	  32 bytes            the node's hash
//	  uvarint(bytes)      counted bytes, at least 256 + the type's length
//	  uvarint(cost) uvarint(elements) uvarint(depth) uvarint(longest)

// StateVersion is the version of the session state AppendState writes and
// RestoreSession reads.
const StateVersion = 1

const stateMagic = "GWSS"

// The sizes that bound a state: the most one entry takes besides a new
// type's bytes, and the least it can take.
const (
	maxStateEntry = 2*binary.MaxVarintLen64 + len(Hash{}) + 5*binary.MaxVarintLen64
	minStateEntry = 1 + 1 + len(Hash{}) + 2 + 4
)

// ErrSessionState is matched (errors.Is) by the error of RestoreSession
// for a state it cannot read: another version, damaged, or past the
// limits it is restored under. The error is a *wire.DecodeError of codec
// "session-state" giving the offset.
var ErrSessionState = errors.New("delta: not a session state this version reads")

// ErrWriterOnly is matched (errors.Is) by the error of Resolve and Decode
// on a Session restored from its state (it matches ErrUnresolved too): a
// restored session marks and encodes, and holds no nodes to put back.
var ErrWriterOnly = errors.New("delta: a session restored from its state writes references and resolves none")

// MaxStateBytes is the longest state a Session bounded by l can have, and
// the longest RestoreSession reads under l: 16 bytes, 102 per node of
// MaxNodes, and MaxBytes for the node types' names (each node counts its
// type's length against MaxBytes). A state is about 45 bytes per node and
// the length of each distinct type once. Invalid limits give 0.
func MaxStateBytes(l SessionLimits) int64 {
	s, err := NewSession(l)
	if err != nil {
		return 0
	}
	return maxStateBytes(s.lim)
}

// maxStateBytes is MaxStateBytes of limits with their defaults.
func maxStateBytes(l SessionLimits) int64 {
	perNode := int64(maxStateEntry + binary.MaxVarintLen64)
	if int64(l.MaxNodes) > (math.MaxInt64-16-l.MaxBytes)/perNode {
		return math.MaxInt64
	}
	return 16 + int64(l.MaxNodes)*perNode + l.MaxBytes
}

// AppendState appends the state of s to dst (see RestoreSession), and
// returns the extended buffer. It changes nothing in s.
func (s *Session) AppendState(dst []byte) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst = append(dst, stateMagic...)
	dst = binary.AppendUvarint(dst, StateVersion)
	dst = binary.AppendUvarint(dst, uint64(s.lru.Len()))
	types := map[string]uint64{}
	for el := s.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*sessionEntry)
		t, ok := types[e.key.typ]
		if !ok {
			t = uint64(len(types))
			types[e.key.typ] = t
		}
		dst = binary.AppendUvarint(dst, t)
		if !ok {
			dst = binary.AppendUvarint(dst, uint64(len(e.key.typ)))
			dst = append(dst, e.key.typ...)
		}
		dst = binary.AppendVarint(dst, e.key.id)
		dst = append(dst, e.hash[:]...)
		for _, n := range [...]int64{e.bytes, e.cost, int64(e.shape.elems), int64(e.shape.depth), int64(e.shape.longest)} {
			dst = binary.AppendUvarint(dst, uint64(n))
		}
	}
	return dst
}

// RestoreSession returns a Session bounded by l that remembers what the
// state AppendState wrote says, for writing: it marks and encodes as the
// Session that wrote the state would have, and its Resolve, Decode and
// Patch refuse (ErrWriterOnly) until Reset. A state longer than
// MaxStateBytes(l), of another version, damaged, or past l is a
// *wire.DecodeError of codec "session-state" matching ErrSessionState;
// nothing is allocated beyond what the state's own bytes hold.
func RestoreSession(l SessionLimits, state []byte) (*Session, error) {
	s, err := NewSession(l)
	if err != nil {
		return nil, err
	}
	if limit := maxStateBytes(s.lim); int64(len(state)) > limit {
		return nil, stateError(0, "the state is "+strconv.Itoa(len(state))+" bytes, past the "+
			strconv.FormatInt(limit, 10)+" its limits allow", "")
	}
	// A cost no node reaches, low enough that the costs of all the
	// remembered nodes add up without overflow.
	maxCost := uint64(math.MaxInt64/2) / uint64(s.lim.MaxNodes)
	r := stateReader{b: state}
	if len(state) < len(stateMagic) || string(state[:len(stateMagic)]) != stateMagic {
		return nil, stateError(0, "the state does not begin with "+strconv.Quote(stateMagic), "")
	}
	r.at = len(stateMagic)
	if v := r.uvarint(); r.err == nil && v != StateVersion {
		return nil, stateError(len(stateMagic), "the state's version is "+strconv.FormatUint(v, 10)+", this reads "+strconv.Itoa(StateVersion), "")
	}
	count := r.uvarint()
	if r.err == nil && count > uint64(s.lim.MaxNodes) {
		return nil, stateError(r.at, "the state remembers "+strconv.FormatUint(count, 10)+" nodes, past MaxNodes ("+strconv.Itoa(s.lim.MaxNodes)+")", "MaxNodes")
	}
	if r.err == nil && count > uint64(len(state)-r.at)/uint64(minStateEntry) {
		return nil, stateError(r.at, "the state names "+strconv.FormatUint(count, 10)+" nodes and is too short to hold them", "")
	}
	var types []string
	for i := uint64(0); r.err == nil && i < count; i++ {
		at := r.at
		t := r.uvarint()
		switch {
		case r.err != nil:
		case t == uint64(len(types)):
			n := r.uvarint()
			types = append(types, string(r.bytes(n)))
		case t > uint64(len(types)):
			return nil, stateError(at, "a type index "+strconv.FormatUint(t, 10)+" past the "+strconv.Itoa(len(types))+" types read", "")
		}
		id := r.varint()
		var e sessionEntry
		copy(e.hash[:], r.bytes(uint64(len(e.hash))))
		size, cost := r.count(math.MaxInt64), r.count(maxCost)
		e.shape = nodeShape{elems: int(r.count(math.MaxInt32)), depth: int(r.count(math.MaxInt32)), longest: int(r.count(math.MaxInt32))}
		if r.err != nil {
			break
		}
		e.key, e.bytes, e.cost, e.bare = sessionKey{types[t], id}, size, cost, true
		e.node = wire.Node{Type: e.key.typ, ID: id}
		if msg := s.restoreEntry(&e); msg != "" {
			return nil, stateError(at, msg, "")
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.at != len(state) {
		return nil, stateError(r.at, strconv.Itoa(len(state)-r.at)+" bytes after the last node", "")
	}
	s.writerOnly = true
	return s, nil
}

// restoreEntry remembers e as the least recently delivered node, or says
// why it cannot.
func (s *Session) restoreEntry(e *sessionEntry) string {
	name := "node " + strconv.Quote(short(e.key.typ)) + " " + strconv.FormatInt(e.key.id, 10)
	switch {
	case e.bytes < sessionEntryOverhead+int64(len(e.key.typ)) || e.bytes > s.lim.MaxBytes:
		return name + " counts " + strconv.FormatInt(e.bytes, 10) + " bytes, not what a remembered node counts under MaxBytes (" + strconv.FormatInt(s.lim.MaxBytes, 10) + ")"
	case s.bytes+e.bytes > s.lim.MaxBytes:
		return name + " takes the remembered bytes past MaxBytes (" + strconv.FormatInt(s.lim.MaxBytes, 10) + ")"
	case e.shape.longest < len(e.key.typ):
		return name + " has a longest string shorter than its type"
	}
	if _, dup := s.nodes[e.key]; dup {
		return name + " is remembered twice"
	}
	s.nodes[e.key] = s.lru.PushBack(e)
	s.bytes += e.bytes
	return ""
}

func stateError(at int, msg, limit string) error {
	return &wire.DecodeError{Codec: "session-state", Offset: int64(at), Msg: msg, Limit: limit, Err: ErrSessionState}
}

// stateReader reads a state's numbers and bytes, keeping the first error.
type stateReader struct {
	b   []byte
	at  int
	err error
}

func (r *stateReader) fail(msg string) {
	if r.err == nil {
		r.err = stateError(r.at, msg, "")
	}
}

func (r *stateReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.at:])
	if n <= 0 {
		r.fail("a truncated or overlong number")
		return 0
	}
	r.at += n
	return v
}

// varint reads what binary.AppendVarint wrote: a zig-zag uvarint.
func (r *stateReader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// count reads a uvarint that must not pass limit.
func (r *stateReader) count(limit uint64) int64 {
	at := r.at
	v := r.uvarint()
	if r.err == nil && v > limit {
		r.at = at
		r.fail("the number " + strconv.FormatUint(v, 10) + " is past " + strconv.FormatUint(limit, 10))
	}
	return int64(v)
}

// bytes returns the next n bytes, shared with the state.
func (r *stateReader) bytes(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.at) {
		r.fail("the state ends " + strconv.FormatUint(n, 10) + " bytes early or less")
		return nil
	}
	b := r.b[r.at : r.at+int(n)]
	r.at += int(n)
	return b
}
