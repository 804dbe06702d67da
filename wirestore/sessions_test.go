package wirestore_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// countingStore counts the calls that reach st.
type countingStore struct {
	wirestore.Store
	calls atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, key string) ([]byte, error) {
	c.calls.Add(1)
	return c.Store.Get(ctx, key)
}

func (c *countingStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	c.calls.Add(1)
	return c.Store.Set(ctx, key, v, ttl)
}

func (c *countingStore) Delete(ctx context.Context, key string) error {
	c.calls.Add(1)
	return c.Store.Delete(ctx, key)
}

// stuckStore answers nothing until its context ends, as a store that
// hangs.
type stuckStore struct{ deletes atomic.Int64 }

func (s *stuckStore) Get(ctx context.Context, key string) ([]byte, error) {
	<-ctx.Done()
	return nil, &wirestore.StoreError{Op: "get", Store: "stuck", Err: ctx.Err()}
}

func (s *stuckStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	<-ctx.Done()
	return &wirestore.StoreError{Op: "set", Store: "stuck", Err: ctx.Err()}
}

func (s *stuckStore) Delete(ctx context.Context, key string) error {
	s.deletes.Add(1)
	<-ctx.Done()
	return &wirestore.StoreError{Op: "delete", Store: "stuck", Err: ctx.Err()}
}

func userNode(id int64, name string) wire.Node {
	return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("name", wire.String(name))}}
}

func response(nodes ...wire.Node) *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: "search", Nodes: nodes, Edges: []wire.Edge{}}
}

// conversationResponses are three responses that share nodes.
func conversationResponses() []*wire.GraphResponse {
	a, b, c := userNode(1, "ada"), userNode(2, "bob"), userNode(3, "cy")
	return []*wire.GraphResponse{response(a, b), response(b, c), response(a, c, userNode(2, "bob2"))}
}

// TestSessionsConversation: a conversation whose every request loads the
// session from the store and saves it after (as replicas do) gives the
// same bytes, in every text codec, as one session kept in memory.
func TestSessionsConversation(t *testing.T) {
	ctx := context.Background()
	g, err := codecs.NewRegistry(codecs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"json", "goon", "toon", "gcf"} {
		ss, err := wirestore.NewSessions(nil, wirestore.SessionOptions{Limits: delta.SessionLimits{MaxNodes: 2}})
		if err != nil {
			t.Fatal(err)
		}
		local, _ := delta.NewSession(delta.SessionLimits{MaxNodes: 2})
		id := ss.NewID()
		sess, err := ss.Load(ctx, id)
		if !errors.Is(err, wirestore.ErrUnknownSession) {
			t.Fatalf("Load of a new id: %v, want ErrUnknownSession", err)
		}
		refs := 0
		for i, r := range conversationResponses() {
			if i > 0 {
				if sess, err = ss.Load(ctx, id); err != nil {
					t.Fatalf("%s: Load %d: %v", name, i, err)
				}
			}
			want, _, err := local.Encode(g, name, r)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := sess.Encode(g, name, r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("%s: response %d (-in memory +stored):\n%s", name, i, diff)
			}
			refs += bytes.Count(got, []byte("sent_earlier"))
			if err := ss.Save(ctx, id, sess); err != nil {
				t.Fatal(err)
			}
		}
		if refs == 0 {
			t.Fatalf("%s: no response of the conversation had references", name)
		}
	}
}

// TestSessionsIsolation: an id that is not one issued, however formed,
// is a new empty session, and the ones not well formed never reach the
// store; one session's nodes never reach another's.
func TestSessionsIsolation(t *testing.T) {
	ctx := context.Background()
	st := &countingStore{Store: wirestore.NewMemory(wirestore.MemoryOptions{})}
	ss, err := wirestore.NewSessions(st, wirestore.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	owner := ss.NewID()
	sess, _ := ss.Load(ctx, owner)
	r := conversationResponses()[0]
	sess.Mark(r)
	if err := ss.Save(ctx, owner, sess); err != nil {
		t.Fatal(err)
	}
	other := ss.NewID()
	if other == owner || !wirestore.WellFormed(other) || len(other) != wirestore.IDLength {
		t.Fatalf("NewID gave %q after %q", other, owner)
	}
	guessed := []byte(owner)
	guessed[len(guessed)-1] ^= 1 // one character off
	for _, id := range []string{other, string(guessed), strings.ToUpper(owner)} {
		if !wirestore.WellFormed(id) {
			continue
		}
		s, err := ss.Load(ctx, id)
		if !errors.Is(err, wirestore.ErrUnknownSession) {
			t.Fatalf("Load %q: %v, want ErrUnknownSession", id, err)
		}
		if refs := s.References(r); len(refs) != 0 {
			t.Fatalf("Load %q reached the owner's session: references %v", id, refs)
		}
	}
	before := st.calls.Load()
	for _, id := range []string{"", "x", owner + "A", owner[:21], owner[:21] + "=", owner[:21] + "/",
		"../" + owner, owner + "\x00", strings.Repeat("A", 1<<20)} {
		s, err := ss.Load(ctx, id)
		if !errors.Is(err, wirestore.ErrUnknownSession) || s == nil {
			t.Fatalf("Load of a malformed id (%d bytes): %v, %v", len(id), s, err)
		}
		if n, _ := s.Len(); n != 0 {
			t.Fatalf("Load of a malformed id gave a session of %d nodes", n)
		}
		if err := ss.Save(ctx, id, s); !errors.Is(err, wirestore.ErrUnknownSession) {
			t.Fatalf("Save under a malformed id: %v", err)
		}
	}
	if calls := st.calls.Load() - before; calls != 0 {
		t.Fatalf("malformed ids made %d store calls", calls)
	}
	if s, err := ss.Load(ctx, owner); err != nil || len(s.References(r)) != len(r.Nodes) {
		t.Fatalf("the owner's session after the others: %v", err)
	}
}

// TestSessionsDamagedState: a stored state this version cannot read is an
// unknown session, never a panic or a partial one.
func TestSessionsDamagedState(t *testing.T) {
	ctx := context.Background()
	st := wirestore.NewMemory(wirestore.MemoryOptions{})
	ss, _ := wirestore.NewSessions(st, wirestore.SessionOptions{Namespace: "svc"})
	id := ss.NewID()
	for _, state := range [][]byte{nil, []byte("GWSS\x09\x00"), []byte("GWSS\x01\x05")} {
		_ = st.Set(ctx, wirestore.Key("svc", wirestore.SessionKind, id), state, time.Minute)
		s, err := ss.Load(ctx, id)
		if !errors.Is(err, wirestore.ErrUnknownSession) || !errors.Is(err, delta.ErrSessionState) {
			t.Fatalf("Load of state %q: %v, want ErrUnknownSession and delta.ErrSessionState", state, err)
		}
		if n, _ := s.Len(); n != 0 {
			t.Fatalf("Load of a damaged state gave %d nodes", n)
		}
	}
}

// TestSessionsStoreTimeout: a store that hangs costs each call its
// Timeout, never more; Load then gives an empty session with the store's
// error, and Save deletes what the store held.
func TestSessionsStoreTimeout(t *testing.T) {
	ctx := context.Background()
	st := &stuckStore{}
	const timeout = 30 * time.Millisecond
	ss, _ := wirestore.NewSessions(st, wirestore.SessionOptions{Timeout: timeout})
	id := ss.NewID()
	start := time.Now()
	s, err := ss.Load(ctx, id)
	var se *wirestore.StoreError
	if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, wirestore.ErrUnknownSession) {
		t.Fatalf("Load from a hung store: %v, want a *StoreError of the deadline", err)
	}
	if n, _ := s.Len(); n != 0 {
		t.Fatalf("Load from a hung store gave %d nodes", n)
	}
	s.Mark(conversationResponses()[0])
	if err := ss.Save(ctx, id, s); !errors.As(err, &se) || se.Op != "set" {
		t.Fatalf("Save to a hung store: %v", err)
	}
	if st.deletes.Load() != 1 {
		t.Fatalf("a failed Save made %d deletes, want 1", st.deletes.Load())
	}
	// Three calls of at most the timeout each; the bound is loose for a
	// loaded machine but far below a hang.
	if took := time.Since(start); took > 3*timeout+2*time.Second {
		t.Fatalf("three store calls took %v with a timeout of %v", took, timeout)
	}
}

func TestNewSessionsOptions(t *testing.T) {
	for _, o := range []wirestore.SessionOptions{
		{Idle: -1}, {Timeout: -1}, {MaxSessions: -1},
		{Limits: delta.SessionLimits{MaxNodes: -1}},
		{Namespace: "a:b"}, {Namespace: "a b"}, {Namespace: strings.Repeat("n", 65)},
	} {
		if _, err := wirestore.NewSessions(nil, o); err == nil {
			t.Errorf("NewSessions(%+v): no error", o)
		}
	}
	ss, err := wirestore.NewSessions(nil, wirestore.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := wirestore.SessionOptions{Idle: 30 * time.Minute, MaxSessions: 10_000, Timeout: 100 * time.Millisecond, Namespace: "graphwire"}
	if diff := cmp.Diff(want, ss.Options()); diff != "" {
		t.Fatalf("defaults (-want +got):\n%s", diff)
	}
	seen := map[string]bool{}
	for range 1000 {
		id := ss.NewID()
		if seen[id] || !wirestore.WellFormed(id) {
			t.Fatalf("NewID gave %q twice or malformed", id)
		}
		seen[id] = true
	}
}
