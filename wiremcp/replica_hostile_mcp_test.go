package wiremcp_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/wiremcp"
	"github.com/graphwire/graphwire/wirestore"
)

// keyLog is a Memory store that records the key of every call.
type keyLog struct {
	*wirestore.Memory
	mu   sync.Mutex
	keys []string
}

func (k *keyLog) note(key string) {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
}

func (k *keyLog) calls() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.keys)
}

func (k *keyLog) Get(ctx context.Context, key string) ([]byte, error) {
	k.note(key)
	return k.Memory.Get(ctx, key)
}

func (k *keyLog) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	k.note(key)
	return k.Memory.Set(ctx, key, v, ttl)
}

func (k *keyLog) Delete(ctx context.Context, key string) error {
	k.note(key)
	return k.Memory.Delete(ctx, key)
}

// postCall posts a tools/call of merge_requests under the session id ids
// (each a header field) with the bearer token (none when empty), and
// returns the status and body.
func postCall(t *testing.T, url, token string, ids ...string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"merge_requests","arguments":{"from":1,"to":4}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, id := range ids {
		req.Header.Add(wiremcp.SessionHeader, id)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

// TestReplicaHostileSessionIDs: ids a replica did not issue — forged in
// the issued form, guessed in the SDK's own form, one of another length,
// 100 KB and 1 MB long (within net/http's header bound), a real one with a byte more, given twice — are
// not found and, but for the forged one (a hashed key, read and not
// found), reach no store; a client never reads another's conversation;
// every key is the namespace, the kind and a hash.
func TestReplicaHostileSessionIDs(t *testing.T) {
	st := &keyLog{Memory: wirestore.NewMemory(wirestore.MemoryOptions{})}
	g := &graph{}
	rs := startReplicas(t, g, 3, st)
	a := newAgent(t, rs.url)
	a.call(map[string]any{"from": 1, "to": 4})
	if ans, _ := a.call(map[string]any{"from": 1, "to": 4}); ans.Kind != wiremcp.AnswerUnchanged {
		t.Fatalf("the repeated call on another replica: %s", ans.Kind)
	}
	real := a.cs.ID()
	if !wirestore.WellFormed(real) {
		t.Fatalf("the session id %q is not of the service's form", real)
	}
	forged := (&wirestore.Sessions{}).NewID()
	for _, c := range []struct {
		name    string
		ids     []string
		status  int
		toStore bool
	}{
		{"forged", []string{forged}, http.StatusNotFound, true},
		{"the SDK's form", []string{rand.Text()}, http.StatusNotFound, false},
		{"one byte more", []string{real + "x"}, http.StatusNotFound, false},
		{"given twice", []string{real, forged}, http.StatusNotFound, false},
		{"100 KB", []string{strings.Repeat("A", 100<<10)}, http.StatusNotFound, false},
		{"1 MB", []string{strings.Repeat("A", 1<<20)}, http.StatusNotFound, false},
	} {
		before := st.calls()
		for range 3 { // every replica
			status, body := postCall(t, rs.url, "", c.ids...)
			if status != c.status {
				t.Errorf("%s: %d %.100s, want %d", c.name, status, body, c.status)
			}
		}
		if n := st.calls() - before; (n > 0) != c.toStore {
			t.Errorf("%s: %d store calls", c.name, n)
		}
	}
	// Another client's first call of the same tool is whole: nothing of
	// a's conversation is read.
	b := newAgent(t, rs.url)
	if ans, _ := b.call(map[string]any{"from": 1, "to": 4}); ans.Kind != wiremcp.AnswerFull || strings.Contains(ans.Text, "sent_earlier") {
		t.Errorf("another client's call: %s\n%.300s", ans.Kind, ans.Text)
	}
	if b.cs.ID() == real {
		t.Error("two clients were given one session id")
	}
	keyForm := regexp.MustCompile(`^graphwire:(mcp|mcp-answer):[0-9a-f]{64}$`)
	st.mu.Lock()
	for _, k := range st.keys {
		if !keyForm.MatchString(k) {
			t.Errorf("store key %.100q", k)
		}
	}
	st.mu.Unlock()
}

// TestReplicaSessionOfAnotherUser: a session opened with one user's token
// is refused (403) to another user's token on a replica that takes it
// over from the store, as the SDK refuses it on the replica that opened
// it; its user goes on there.
func TestReplicaSessionOfAnotherUser(t *testing.T) {
	st := wirestore.NewMemory(wirestore.MemoryOptions{})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "alice" && token != "bob" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour)}, nil
	}
	var urls []string
	for range 2 {
		sessions, err := wirestore.NewSessions(st, wirestore.SessionOptions{Limits: sharedLimits})
		if err != nil {
			t.Fatal(err)
		}
		_, svc := newService(t, &graph{}, wiremcp.Options{Shared: sessions})
		ts := httptest.NewServer(auth.RequireBearerToken(verify, nil)(svc.Handler(&mcp.StreamableHTTPOptions{JSONResponse: true})))
		t.Cleanup(ts.Close)
		urls = append(urls, ts.URL)
	}
	hc := &http.Client{Transport: bearer{"alice"}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "alice", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: urls[0], HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "merge_requests", Arguments: map[string]any{"from": 1, "to": 2}}); err != nil {
		t.Fatal(err)
	}
	for _, u := range urls {
		if status, body := postCall(t, u, "bob", cs.ID()); status != http.StatusForbidden {
			t.Errorf("bob with alice's session at %s: %d %.200s, want 403", u, status, body)
		}
	}
	if status, body := postCall(t, urls[1], "alice", cs.ID()); status != http.StatusOK {
		t.Errorf("alice's session on the other replica: %d %.200s", status, body)
	}
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestReplicaDamagedRecord: a conversation's record that does not read
// (damaged, of another version) is no conversation: a replica that does
// not hold the session answers 404 (the client opens a new one), and the
// one that does answers whole, starting the conversation anew.
func TestReplicaDamagedRecord(t *testing.T) {
	st := wirestore.NewMemory(wirestore.MemoryOptions{})
	g := &graph{}
	rs := startReplicas(t, g, 2, st)
	a := newAgent(t, rs.url) // initialize on one replica, initialized on the other
	a.call(map[string]any{"from": 1, "to": 4})
	key := wirestore.Key(wirestore.DefaultNamespace, wiremcp.ConversationKind, a.cs.ID())
	for _, bad := range [][]byte{[]byte("gwmcp\x02"), []byte("gwmcp\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), {}} {
		if err := st.Set(context.Background(), key, bad, time.Minute); err != nil {
			t.Fatal(err)
		}
		if ans, _ := a.call(map[string]any{"from": 1, "to": 4}); ans.Kind != wiremcp.AnswerFull || strings.Contains(ans.Text, "sent_earlier") {
			t.Errorf("%q: a call after the record was damaged: %s", bad, ans.Kind)
		}
	}
	fresh := startReplicas(t, g, 1, st) // holds no session
	if err := st.Set(context.Background(), key, []byte("gwmcp\x02"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if status, body := postCall(t, fresh.url, "", a.cs.ID()); status != http.StatusNotFound {
		t.Errorf("a damaged record taken over: %d %.200s", status, body)
	}
}
