package wiremcp

import (
	"container/list"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// The kinds (wirestore.Key) of what a Service keeps in Options.Shared.
const (
	// ConversationKind is a conversation's record, under its MCP session
	// id: the client's initialize parameters, the nodes sent
	// (delta.Session's state), and the call keys and fingerprints of the
	// answers kept for deltas.
	ConversationKind = "mcp"
	// AnswerKind is a kept answer, under its fingerprint: the response
	// its client holds, in wire's JSON. Conversations that were sent the
	// same answer share it.
	AnswerKind = "mcp-answer"
)

// MaxInitializeBytes is the longest initialize request parameters (as
// JSON) a conversation record keeps: a session whose client sent longer
// ones lives in the process that opened it only.
const MaxInitializeBytes = 16 << 10

// conversationLocks serialize the calls of one shared conversation (and
// its adoption by this replica): an id hashes to one of them.
const conversationLocks = 256

// shared is what a Service with Options.Shared holds: the store, the
// table of the MCP sessions this process serves under the service's ids,
// and the locks of the conversations.
type shared struct {
	sessions *wirestore.Sessions
	seed     maphash.Seed
	locks    [conversationLocks]sync.Mutex

	mu         sync.Mutex
	opened     map[string]*mcp.ServerSession // the SDK's initialized sessions, by its id
	byInternal map[string]*sessionEntry      // by the SDK's session id
	byExternal map[string]*sessionEntry      // by the id the client holds
}

// sessionEntry is an MCP session this process serves: the SDK's id for
// it, the id its client holds (wirestore.Sessions.NewID, the
// conversation's key in the store), the user of the token that opened
// it, and whether it was adopted from the store (its record is not
// written anew at initialization).
type sessionEntry struct {
	internal, external, user string
	adopted                  bool
	ss                       *mcp.ServerSession
}

func newShared(st *wirestore.Sessions) *shared {
	return &shared{sessions: st, seed: maphash.MakeSeed(),
		opened: map[string]*mcp.ServerSession{}, byInternal: map[string]*sessionEntry{}, byExternal: map[string]*sessionEntry{}}
}

func (sh *shared) lock(external string) *sync.Mutex {
	return &sh.locks[maphash.String(sh.seed, external)%conversationLocks]
}

func (sh *shared) internal(id string) *sessionEntry {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.byInternal[id]
}

func (sh *shared) external(id string) *sessionEntry {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.byExternal[id]
}

// forget removes e, the SDK's session having ended.
func (sh *shared) forget(e *sessionEntry) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.byInternal[e.internal] == e {
		delete(sh.byInternal, e.internal)
	}
	if sh.byExternal[e.external] == e {
		delete(sh.byExternal, e.external)
	}
}

// sessionsServed is the number of MCP sessions this process serves under
// the service's ids.
func (sh *shared) sessionsServed() int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return len(sh.byInternal)
}

// initializing is the receiving middleware of a Service with
// Options.Shared: it notes each session the SDK initializes under an id
// (over streamable HTTP), for Handler to give it the service's id, and
// forgets it when the SDK closes it.
func (s *Service) initializing(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "initialize" || err != nil {
			return res, err
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || ss.ID() == "" {
			return res, err
		}
		s.shared.mu.Lock()
		s.shared.opened[ss.ID()] = ss
		s.shared.mu.Unlock()
		go func() {
			_ = ss.Wait()
			s.shared.mu.Lock()
			defer s.shared.mu.Unlock()
			delete(s.shared.opened, ss.ID())
			if e := s.shared.byInternal[ss.ID()]; e != nil {
				delete(s.shared.byInternal, e.internal)
				if s.shared.byExternal[e.external] == e {
					delete(s.shared.byExternal, e.external)
				}
			}
		}()
		return res, err
	}
}

// serveUnder gives the SDK's session internal, just initialized, the
// service's id external: it is served under it from now on. A new
// session (not adopted) has its record written, so that any replica can
// take it over from its next request on. The SDK may send the answer's
// header before its initialize handler ran (a priming event, with an
// EventStore): the entry is then kept without the session, and settle
// completes it once the initialize request is answered.
func (s *Service) serveUnder(ctx context.Context, e *sessionEntry) {
	sh := s.shared
	sh.mu.Lock()
	e.ss = sh.opened[e.internal]
	sh.byInternal[e.internal] = e
	sh.byExternal[e.external] = e
	sh.mu.Unlock()
	if e.ss != nil && !e.adopted {
		s.saveNew(ctx, e)
	}
}

// settle completes e once its initialize request was answered: the
// SDK's session, or, when the SDK opened none (initialize failed), the
// entry is dropped. It reports whether the session is served.
func (s *Service) settle(ctx context.Context, e *sessionEntry) bool {
	sh := s.shared
	sh.mu.Lock()
	late := e.ss == nil
	if late {
		e.ss = sh.opened[e.internal]
	}
	ss := e.ss
	sh.mu.Unlock()
	switch {
	case ss == nil:
		sh.forget(e)
		return false
	case late && !e.adopted:
		s.saveNew(ctx, e)
	}
	return true
}

// saveNew writes the record of a new session: its initialize parameters,
// nothing sent yet.
func (s *Service) saveNew(ctx context.Context, e *sessionEntry) {
	mu := s.shared.lock(e.external)
	mu.Lock()
	s.saveRecord(ctx, e.ss, e, nil)
	mu.Unlock()
}

// openShared returns the conversation of the session e from the store,
// and the function that saves it and releases its lock. A conversation
// the store does not hold (expired, or never saved) or cannot give (down,
// slow; logged) starts empty: its answers are whole until it is saved.
func (s *Service) openShared(ctx context.Context, ss *mcp.ServerSession, e *sessionEntry) (*conversation, func()) {
	mu := s.shared.lock(e.external)
	mu.Lock()
	conv := s.newConversation(s.shared.sessions.Options().Limits, nil)
	conv.fetch = func(b *base) bool { return s.fetchAnswer(ctx, b) }
	v, err := s.shared.sessions.LoadValue(ctx, ConversationKind, e.external)
	if err == nil {
		err = s.restore(conv, v)
	}
	if err != nil && !errors.Is(err, wirestore.ErrUnknownSession) {
		s.opts.ErrorLog.Printf("wiremcp: loading the conversation of a session, answering it whole: %v", err)
	}
	return conv, func() {
		s.saveRecord(ctx, ss, e, conv)
		mu.Unlock()
	}
}

// newConversation returns an empty conversation of node limits l; a
// restored session when state is not nil.
func (s *Service) newConversation(l delta.SessionLimits, sess *delta.Session) *conversation {
	if sess == nil {
		sess, _ = delta.NewSession(l) // limits checked by New
	}
	return &conversation{session: sess, lim: s.opts.Sessions, bases: map[string]*list.Element{}, order: list.New()}
}

// restore fills conv from a stored record v.
func (s *Service) restore(conv *conversation, v []byte) error {
	rec, err := decodeRecord(v)
	if err != nil {
		return err
	}
	if len(rec.state) > 0 {
		sess, err := delta.RestoreSession(s.shared.sessions.Options().Limits, rec.state)
		if err != nil {
			return err
		}
		conv.session = sess
	}
	for i := len(rec.bases) - 1; i >= 0; i-- {
		b := rec.bases[i]
		if _, dup := conv.bases[b.key]; dup || b.bytes <= 0 || conv.order.Len() >= conv.lim.MaxBases ||
			conv.baseBytes+b.bytes > conv.lim.MaxBaseBytes {
			continue
		}
		b.touched = false
		conv.bases[b.key] = conv.order.PushFront(b)
		conv.baseBytes += b.bytes
	}
	return nil
}

// fetchAnswer reads b's answer from the store, and checks it is the one
// kept (its fingerprint).
func (s *Service) fetchAnswer(ctx context.Context, b *base) bool {
	o := s.shared.sessions.Options()
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	v, err := s.shared.sessions.Store().Get(ctx, wirestore.Key(o.Namespace, AnswerKind, hex.EncodeToString(b.fp[:])))
	if err != nil {
		if !errors.Is(err, wirestore.ErrNotFound) {
			s.opts.ErrorLog.Printf("wiremcp: reading a kept answer, answering whole: %v", err)
		}
		return false
	}
	r, err := jsoncodec.DecodeWithin(v, wire.Limits{MaxInputBytes: int64(len(v))})
	if err != nil || delta.Fingerprint(r) != b.fp {
		return false
	}
	b.resp = r
	return true
}

// saveRecord writes the record of the session e with conv (nil: a new,
// empty one): first the answers it kept or used in this call that the
// store may not hold (those it cannot write are dropped), then the
// record. A failure is logged; the conversation's next call starts anew.
func (s *Service) saveRecord(ctx context.Context, ss *mcp.ServerSession, e *sessionEntry, conv *conversation) {
	ctx = context.WithoutCancel(ctx)
	init, err := json.Marshal(ss.InitializeParams())
	if err != nil || len(init) > MaxInitializeBytes || ss.InitializeParams() == nil {
		return // this session cannot be adopted elsewhere: not shared
	}
	rec := record{init: init, user: e.user}
	if conv != nil {
		s.writeAnswers(ctx, conv)
		rec.state = conv.session.AppendState(nil)
		for el := conv.order.Front(); el != nil; el = el.Next() {
			rec.bases = append(rec.bases, el.Value.(*base))
		}
	}
	if err := s.shared.sessions.SaveValue(ctx, ConversationKind, e.external, rec.append(nil)); err != nil {
		s.opts.ErrorLog.Printf("wiremcp: saving the conversation of a session: %v", err)
	}
}

// writeAnswers writes to the store each answer conv kept or used in this
// call that was written more than Idle/2 ago (or never), so that a kept
// answer outlives its conversation's record; one the store refuses is
// dropped (its repeated call is answered whole).
func (s *Service) writeAnswers(ctx context.Context, conv *conversation) {
	o := s.shared.sessions.Options()
	now := s.opts.Now().Unix()
	var failed []string
	for el := conv.order.Front(); el != nil; el = el.Next() {
		b := el.Value.(*base)
		if !b.touched || b.resp == nil || (b.written != 0 && now-b.written < int64(o.Idle.Seconds()/2)) {
			continue
		}
		b.fp = delta.Fingerprint(b.resp)
		v, err := jsoncodec.AppendEncode(nil, b.resp)
		if err == nil {
			sctx, cancel := context.WithTimeout(ctx, o.Timeout)
			err = s.shared.sessions.Store().Set(sctx, wirestore.Key(o.Namespace, AnswerKind, hex.EncodeToString(b.fp[:])), v, 2*o.Idle)
			cancel()
		}
		if err != nil {
			if !errors.Is(err, wirestore.ErrTooLarge) {
				s.opts.ErrorLog.Printf("wiremcp: keeping an answer in the store: %v", err)
			}
			failed = append(failed, b.key)
			continue
		}
		b.written = now
	}
	for _, k := range failed {
		conv.drop(k)
	}
}

// record is what the store keeps of a conversation (ConversationKind).
type record struct {
	init  []byte // the client's initialize parameters, JSON
	user  string // the user of the token that opened the session
	state []byte // delta.Session.AppendState
	bases []*base
}

// recordMagic starts a record; its last byte is the version.
const recordMagic = "gwmcp\x01"

// append appends the record: the magic, then init, user and state as
// length and bytes, then the number of kept answers and each one's call
// key, source and answer fingerprints, counted bytes and time written.
func (rec *record) append(dst []byte) []byte {
	dst = append(dst, recordMagic...)
	for _, f := range [][]byte{rec.init, []byte(rec.user), rec.state} {
		dst = binary.AppendUvarint(dst, uint64(len(f)))
		dst = append(dst, f...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(rec.bases)))
	for _, b := range rec.bases {
		dst = binary.AppendUvarint(dst, uint64(len(b.key)))
		dst = append(dst, b.key...)
		dst = append(dst, b.src[:]...)
		dst = append(dst, b.fp[:]...)
		dst = binary.AppendUvarint(dst, uint64(b.bytes))
		dst = binary.AppendUvarint(dst, uint64(b.written))
	}
	return dst
}

// errRecord is the error of a record that does not read.
var errRecord = errors.New("wiremcp: a stored conversation that does not read")

// decodeRecord reads a record; every length is checked against what is
// left of v before it is used, so nothing is allocated past v's size.
func decodeRecord(v []byte) (record, error) {
	var rec record
	if len(v) < len(recordMagic) || string(v[:len(recordMagic)]) != recordMagic {
		return rec, fmt.Errorf("%w: not a record of this version", errRecord)
	}
	r := recordReader{v: v[len(recordMagic):]}
	rec.init = r.bytes()
	rec.user = string(r.bytes())
	rec.state = r.bytes()
	n := r.uvarint()
	if n > uint64(len(r.v)) {
		r.err = errRecord
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		b := &base{key: string(r.bytes())}
		copy(b.src[:], r.take(len(b.src)))
		copy(b.fp[:], r.take(len(b.fp)))
		b.bytes = int64(r.uvarint() & (1<<62 - 1))
		b.written = int64(r.uvarint() & (1<<62 - 1))
		rec.bases = append(rec.bases, b)
	}
	if r.err == nil && len(r.v) != 0 {
		r.err = errRecord
	}
	if r.err != nil || len(rec.init) == 0 {
		return record{}, fmt.Errorf("%w: damaged", errRecord)
	}
	return rec, nil
}

type recordReader struct {
	v   []byte
	err error
}

func (r *recordReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.v)
	if n <= 0 {
		r.err = errRecord
		return 0
	}
	r.v = r.v[n:]
	return x
}

func (r *recordReader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.v)) {
		r.err = errRecord
	}
	return r.take(int(n))
}

func (r *recordReader) take(n int) []byte {
	if r.err != nil || n > len(r.v) {
		r.err = errRecord
		return nil
	}
	out := r.v[:n:n]
	r.v = r.v[n:]
	return out
}
