package wirehttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

// sessionGet sends a GET of url in json with SessionHeader id and returns
// the answer's status, SessionHeader and body.
func sessionGet(t *testing.T, url, id string) (int, string, []byte) {
	t.Helper()
	status, h, body := get(t, http.DefaultClient, http.MethodGet, url, "Accept", "application/json", wirehttp.SessionHeader, id)
	return status, h.Get(wirehttp.SessionHeader), body
}

// sessionResponse is a search of n users, each with a few properties.
func sessionResponse(n int) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: wire.Search}
	for i := range n {
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(1000 + i), Properties: []wire.Property{
			{Key: "username", Value: wire.String(fmt.Sprintf("user_%d", i))},
			{Key: "state", Value: wire.String("active")},
			{Key: "followers", Value: wire.Int(int64(i))},
		}})
	}
	return r
}

// TestSessionForgedIDs: an id the server did not issue, or no longer
// holds (well formed and unknown, malformed, another server's), is a new
// session under a new id, and its answer has no references; a
// SessionHeader of 100 bytes or given twice is 400, one of 1 MB 431
// (NewHTTPServer's MaxHeaderBytes).
func TestSessionForgedIDs(t *testing.T) {
	q, base := startQueryServer(t, memorySessions(t))
	data := sessionResponse(20)
	q.set("a", data)
	url := base + "/q/a"

	status, issued, body := sessionGet(t, url, wirehttp.SessionNew)
	if status != http.StatusOK || !wirestore.WellFormed(issued) {
		t.Fatalf("new session: status %d, id %q", status, issued)
	}
	if status, id, body := sessionGet(t, url, issued); status != http.StatusOK || id != issued || !strings.Contains(string(body), delta.FieldSentEarlier) {
		t.Fatalf("the issued id: status %d, id %q, want %q and references:\n%.200s", status, id, issued, body)
	}
	other, _ := wirestore.NewSessions(nil, wirestore.SessionOptions{})
	for _, forged := range []string{other.NewID(), other.NewID()[:21] + "A", "x", "../../etc/passwd", strings.Repeat("A", 22), "AAAAAAAAAAAAAAAAAAAAA=", issued + "x", strings.ToUpper(issued)} {
		if forged == issued {
			continue
		}
		status, id, got := sessionGet(t, url, forged)
		if status != http.StatusOK || id == forged || id == issued || !wirestore.WellFormed(id) {
			t.Errorf("forged id %q: status %d, answered with id %q: want a new id", forged, status, id)
		}
		if string(got) != string(body) {
			t.Errorf("forged id %q: the answer is not the whole response as a new session's:\n%.200s", forged, got)
		}
	}

	for _, tc := range []struct {
		name   string
		values []string
		status int
	}{
		{"100 bytes", []string{strings.Repeat("A", 100)}, http.StatusBadRequest},
		{"twice", []string{issued, issued}, http.StatusBadRequest},
		{"1 MB", []string{strings.Repeat("A", 1<<20)}, http.StatusRequestHeaderFieldsTooLarge},
	} {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header[wirehttp.SessionHeader] = tc.values
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d (%s), want %d", tc.name, res.StatusCode, msg, tc.status)
		}
		if tc.status == http.StatusBadRequest && !strings.Contains(string(msg), wirehttp.SessionHeader) {
			t.Errorf("%s: the 400 does not name %s: %s", tc.name, wirehttp.SessionHeader, msg)
		}
	}
}

// TestSessionsBounded opens 3,000 sessions, each answered a response of
// 200 nodes and then abandoned, against a store of at most 500: the
// store keeps at most 500, and the live heap grows by no more than the
// store's counted bytes and 8 MiB, where keeping every session would
// take about 30 MB.
func TestSessionsBounded(t *testing.T) {
	if testsupport.Race {
		t.Skip("heap figures under the race detector mean nothing")
	}
	const sessions, keep = 3000, 500
	mem := wirestore.NewMemory(wirestore.MemoryOptions{MaxEntries: keep})
	st, err := wirestore.NewSessions(mem, wirestore.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	q, base := startQueryServer(t, st)
	q.set("a", sessionResponse(200))
	sessionGet(t, base+"/q/a", wirehttp.SessionNew) // warm up: connections, pools
	before := liveHeap()
	ids := map[string]bool{}
	for range sessions {
		_, id, _ := sessionGet(t, base+"/q/a", wirehttp.SessionNew)
		ids[id] = true
	}
	after := liveHeap()
	n, b := mem.Len()
	t.Logf("%d sessions opened (%d distinct ids): the store keeps %d, %d bytes; live heap %d -> %d bytes", sessions, len(ids), n, b, before, after)
	if len(ids) != sessions {
		t.Errorf("%d distinct ids for %d new sessions", len(ids), sessions)
	}
	if n > keep {
		t.Errorf("the store keeps %d sessions, more than its bound %d", n, keep)
	}
	if after > before && after-before > uint64(b)+8<<20 {
		t.Errorf("live heap grew %d bytes, more than the store's %d and 8 MiB", after-before, b)
	}
}

// TestClientSessionEvicted: two Clients converse against a store that
// keeps one session, so each request evicts the other's; every answer is
// still the server's data, each Client starting a new session when the
// server answers with another id.
func TestClientSessionEvicted(t *testing.T) {
	mem := wirestore.NewMemory(wirestore.MemoryOptions{MaxEntries: 1})
	st, err := wirestore.NewSessions(mem, wirestore.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	q, base := startQueryServer(t, st)
	s := corpus.Sessions()[0]
	var clients []*wirehttp.Client
	for range 2 {
		c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "toon", Deltas: true, Session: true})
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	for round := range 2 {
		for qi, query := range s.Queries {
			data := query.Response
			if round > 0 {
				data = query.Requeries[2]
			}
			name := fmt.Sprint(qi)
			q.set(name, data)
			for ci, c := range clients {
				got, err := c.Get(context.Background(), base+"/q/"+name)
				if err != nil {
					t.Fatalf("client %d, query %d: %v", ci, qi, err)
				}
				if diff := wiretest.Diff(heldBy(t, "toon", data), got, wire.Exact); diff != "" {
					t.Fatalf("client %d, query %d (-want +got):\n%s", ci, qi, diff)
				}
			}
		}
	}
}
