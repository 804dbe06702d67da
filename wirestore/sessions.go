package wirestore

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/graphwire/graphwire/delta"
)

// SessionOptions configure Sessions. A zero field selects its default; a
// negative one is an error of NewSessions.
type SessionOptions struct {
	// Limits bound each session (delta.SessionLimits' defaults: 10,000
	// nodes, 16 MiB counted). A stored session takes about 45 bytes per
	// node it remembers (delta.MaxStateBytes bounds it).
	Limits delta.SessionLimits
	// Idle is how long a session not used is kept: each Save sets it as
	// the stored state's time to live. Default DefaultIdle.
	Idle time.Duration
	// MaxSessions is the most sessions kept by the Memory store that
	// NewSessions makes when given no Store. Default DefaultMaxSessions.
	// A Store given keeps its own bounds.
	MaxSessions int
	// Timeout bounds each store call of Load, Save and Delete. Default
	// DefaultTimeout.
	Timeout time.Duration
	// Namespace is the first part of every key (Key), naming the
	// service: 1 to 64 bytes without ":" or spaces. Default "graphwire".
	Namespace string
}

// The defaults of SessionOptions.
const (
	DefaultIdle        = 30 * time.Minute
	DefaultMaxSessions = 10_000
	DefaultTimeout     = 100 * time.Millisecond
	DefaultNamespace   = "graphwire"
)

// SessionKind is the kind (Key) of a stored session's state.
const SessionKind = "session"

// IDLength is the length of a session id NewID issues: 128 random bits in
// unpadded base64url.
const IDLength = 22

// ErrUnknownSession is matched (errors.Is) by the error of Load for an id
// the store holds no session under: never issued, expired, evicted,
// malformed, or one whose state this version cannot read. Load then
// returns a new empty session: the caller treats the conversation as new
// and issues a new id (NewID), never adopting the one it was sent.
var ErrUnknownSession = errors.New("wirestore: no session under the id")

// Sessions keeps the writer's side of conversations (delta.Session) in a
// Store, so that any replica of a service can go on with a conversation
// another began. It is safe for concurrent use; a conversation is a
// sequence, so a service handles one request of a session at a time.
type Sessions struct {
	st Store
	o  SessionOptions
}

// NewSessions returns Sessions kept in st, or, when st is nil, in a new
// Memory store of o.MaxSessions sessions and DefaultMemoryBytes.
func NewSessions(st Store, o SessionOptions) (*Sessions, error) {
	if o.Idle < 0 || o.MaxSessions < 0 || o.Timeout < 0 {
		return nil, fmt.Errorf("wirestore: SessionOptions %+v: a negative bound", o)
	}
	if _, err := delta.NewSession(o.Limits); err != nil {
		return nil, err
	}
	o.Idle = cmp.Or(o.Idle, DefaultIdle)
	o.MaxSessions = cmp.Or(o.MaxSessions, DefaultMaxSessions)
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	o.Namespace = cmp.Or(o.Namespace, DefaultNamespace)
	if err := checkName("namespace", o.Namespace); err != nil {
		return nil, err
	}
	if st == nil {
		st = NewMemory(MemoryOptions{MaxEntries: o.MaxSessions})
	}
	return &Sessions{st: st, o: o}, nil
}

// Options returns the options of s, defaults filled in.
func (s *Sessions) Options() SessionOptions { return s.o }

// NewID returns a new session id: 128 bits from crypto/rand, IDLength
// characters of unpadded base64url.
func (s *Sessions) NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// WellFormed reports whether id has the form of an id NewID issues. Load
// of any other is ErrUnknownSession without a store call.
func WellFormed(id string) bool {
	if len(id) != IDLength {
		return false
	}
	var b [16]byte
	n, err := base64.RawURLEncoding.Strict().Decode(b[:], []byte(id))
	return err == nil && n == len(b)
}

// Load returns the session stored under id, restored for writing
// (delta.RestoreSession): it marks and encodes as the session last saved
// under id would.
//
// An id the store holds no session under (see ErrUnknownSession) gives a
// new empty session and an error matching ErrUnknownSession; an id that
// is not WellFormed (a forged or 1 MB one) does so without a store call.
// A store that fails or does not answer within the Timeout gives a new
// empty session too, and its *StoreError: a new session makes the writer
// send every node in full, which is always safe, so the caller answers
// with it and reports the error (the id stays the client's).
func (s *Sessions) Load(ctx context.Context, id string) (*delta.Session, error) {
	state, err := s.LoadValue(ctx, SessionKind, id)
	if err != nil {
		return s.empty(), err
	}
	sess, err := delta.RestoreSession(s.o.Limits, state)
	if err != nil {
		return s.empty(), fmt.Errorf("%w: its stored state: %w", ErrUnknownSession, err)
	}
	return sess, nil
}

// LoadValue returns the value SaveValue stored under id among the values
// of kind (1 to MaxNameBytes bytes without ":" or spaces): a service
// keeps in it what else it remembers of a session, such as an MCP
// conversation. The errors are those of Load: an id not WellFormed, or
// one the store holds no value under, matches ErrUnknownSession (the
// first without a store call); a store that fails or does not answer
// within the Timeout gives its *StoreError.
func (s *Sessions) LoadValue(ctx context.Context, kind, id string) ([]byte, error) {
	if !WellFormed(id) {
		return nil, fmt.Errorf("%w: the id is not one this service issues", ErrUnknownSession)
	}
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	v, err := s.st.Get(ctx, Key(s.o.Namespace, kind, id))
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: never issued, expired or evicted", ErrUnknownSession)
	}
	return v, err
}

// Save stores the state of sess under id, to be kept for Idle. An id not
// WellFormed is an error matching ErrUnknownSession and nothing is
// stored. When the store refuses or fails, Save deletes what it held
// under id (within its own Timeout: a Save takes at most twice the
// Timeout), so that the next Load starts anew rather than from an older
// state, and returns the error.
func (s *Sessions) Save(ctx context.Context, id string, sess *delta.Session) error {
	return s.SaveValue(ctx, SessionKind, id, sess.AppendState(nil))
}

// SaveValue stores v under id among the values of kind, to be kept for
// Idle, as Save does a session's state: an id not WellFormed is an error
// matching ErrUnknownSession and nothing is stored; when the store
// refuses or fails, what it held under the key is deleted.
func (s *Sessions) SaveValue(ctx context.Context, kind, id string, v []byte) error {
	if !WellFormed(id) {
		return fmt.Errorf("%w: the id is not one NewID issues", ErrUnknownSession)
	}
	key := Key(s.o.Namespace, kind, id)
	setCtx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	err := s.st.Set(setCtx, key, v, s.o.Idle)
	cancel()
	if err == nil {
		return nil
	}
	delCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.o.Timeout)
	defer cancel()
	_ = s.st.Delete(delCtx, key)
	return err
}

// Delete forgets the session under id, as when its client ends it.
func (s *Sessions) Delete(ctx context.Context, id string) error {
	return s.DeleteValue(ctx, SessionKind, id)
}

// DeleteValue forgets the value under id among the values of kind.
func (s *Sessions) DeleteValue(ctx context.Context, kind, id string) error {
	if !WellFormed(id) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	return s.st.Delete(ctx, Key(s.o.Namespace, kind, id))
}

// Store returns the store the sessions are kept in, where a service may
// keep what its sessions share (under Key, with the Namespace of
// Options, and within the Timeout).
func (s *Sessions) Store() Store { return s.st }

func (s *Sessions) empty() *delta.Session {
	sess, _ := delta.NewSession(s.o.Limits) // checked by NewSessions
	return sess
}
