package wirehttp_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

// queryServer serves one graph response per query under /q/NAME through
// Respond, each replaceable while the server runs: the data a service's
// queries return, changing between calls.
type queryServer struct {
	mu   sync.Mutex
	data map[string]*wire.GraphResponse
	s    *wirehttp.Server
}

func (q *queryServer) set(name string, r *wire.GraphResponse) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.data[name] = r
}

func (q *queryServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q.mu.Lock()
	resp := q.data[strings.TrimPrefix(r.URL.Path, "/q/")]
	q.mu.Unlock()
	if resp == nil {
		http.NotFound(w, r)
		return
	}
	q.s.Respond(w, r, resp)
}

// startQueryServer starts a loopback server whose Server keeps sessions
// in st (nil: none).
// memorySessions is a session store in memory with the default options.
func memorySessions(t *testing.T) *wirestore.Sessions {
	t.Helper()
	st, err := wirestore.NewSessions(nil, wirestore.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func startQueryServer(t *testing.T, st *wirestore.Sessions) (*queryServer, string) {
	t.Helper()
	s, err := wirehttp.New(nil, wirehttp.Options{Sessions: st, ErrorLog: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	q := &queryServer{data: map[string]*wire.GraphResponse{}, s: s}
	return q, startServer(t, q, wirehttp.HTTPServerOptions{})
}

// wireLog counts what a client receives: answers by status, body bytes,
// o200k tokens of text bodies, and the bodies of 226 answers.
type wireLog struct {
	mu       sync.Mutex
	counter  tokens.Counter
	status   map[int]int
	bytes    int
	tokens   int
	deltas   [][]byte
	full     [][]byte       // the bodies of 200 answers
	sessions map[string]int // SessionHeader values sent
	base     http.RoundTripper
}

// bodyTokens memoizes counts of answer bodies by counter and SHA-256:
// the runs a test compares (one replica and three, one mode and another)
// receive many of the same bodies, and counting is most of their work.
var bodyTokens sync.Map // bodyKey → int

type bodyKey struct {
	counter string
	sum     [32]byte
}

func countTokens(c tokens.Counter, body []byte) (int, error) {
	key := bodyKey{c.Name(), sha256.Sum256(body)}
	if n, ok := bodyTokens.Load(key); ok {
		return n.(int), nil
	}
	n, err := c.Count(body)
	if err == nil {
		bodyTokens.Store(key, n)
	}
	return n, err
}

func (l *wireLog) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := l.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	n, err := countTokens(l.counter, body)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.status[res.StatusCode]++
	l.bytes += len(body)
	l.tokens += n
	switch res.StatusCode {
	case http.StatusIMUsed:
		l.deltas = append(l.deltas, body)
	case http.StatusOK:
		l.full = append(l.full, body)
	}
	if v := req.Header.Get(wirehttp.SessionHeader); v != "" {
		l.sessions[v]++
	}
	return res, nil
}

func newWireLog(t *testing.T) *wireLog {
	t.Helper()
	counter, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	return &wireLog{counter: counter, status: map[int]int{}, sessions: map[string]int{}, base: http.DefaultTransport}
}

// heldBy is r as a reader of the codec holds it: Decode(Encode(r)).
func heldBy(t *testing.T, name string, r *wire.GraphResponse) *wire.GraphResponse {
	t.Helper()
	c, err := wire.DefaultRegistry().Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The four ways a client converses, whole to both.
var conversationModes = []struct {
	name            string
	deltas, session bool
}{
	{"whole", false, false},
	{"deltas only", true, false},
	{"references only", false, true},
	{"both", true, true},
}

// TestConversationDeltasAndReferences runs the conversations of four of
// the corpus's lean sessions, two under the race detector (every query,
// then every query again after 5% of its nodes changed, then again
// unchanged) through a real loopback
// server with sessions and deltas and the real Client, in json, goon,
// toon and gcf, in the four modes. Every answer is the server's data as
// the codec carries it (cmp.Diff), and with both on the Client gets
// deltas whose content names nodes sent earlier, 304s for what did not
// change, and never has to ask again fresh; both costs less than either
// alone, and each less than the whole answers.
func TestConversationDeltasAndReferences(t *testing.T) {
	n := 4
	if testsupport.Race {
		n = 2 // the same goroutines, fewer answers to count tokens of; .ci/run runs all four without it
	}
	var sessions []corpus.Session
	for _, s := range corpus.Sessions() {
		if s.Profile == "lean" && len(sessions) < n {
			sessions = append(sessions, s)
		}
	}
	for _, codec := range []string{"json", "goon", "toon", "gcf"} {
		t.Run(codec, func(t *testing.T) {
			type cost struct{ bytes, tokens int }
			costs := map[string]cost{}
			for _, mode := range conversationModes {
				st, err := wirestore.NewSessions(nil, wirestore.SessionOptions{})
				if err != nil {
					t.Fatal(err)
				}
				q, base := startQueryServer(t, st)
				wl := newWireLog(t)
				c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: codec, Deltas: mode.deltas, Session: mode.session,
					HTTP: &http.Client{Transport: wl}})
				if err != nil {
					t.Fatal(err)
				}
				ask := func(name string, data *wire.GraphResponse) {
					t.Helper()
					got, err := c.Get(context.Background(), base+"/q/"+name)
					if err != nil {
						t.Fatalf("%s: %s: %v", mode.name, name, err)
					}
					if diff := wiretest.Diff(heldBy(t, codec, data), got, wire.Exact); diff != "" {
						t.Fatalf("%s: %s (-server's data as %s carries it +client's):\n%s", mode.name, name, codec, diff)
					}
				}
				for si, s := range sessions {
					for round := range 3 {
						for qi, query := range s.Queries {
							name := fmt.Sprintf("%d-%d", si, qi)
							data := query.Response
							if round > 0 {
								data = query.Requeries[1] // 5% changed
							}
							q.set(name, data)
							ask(name, data)
						}
					}
				}
				costs[mode.name] = cost{wl.bytes, wl.tokens}
				t.Logf("%-15s %8d bytes %8d o200k tokens; answers by status %v", mode.name, wl.bytes, wl.tokens, wl.status)
				if mode.deltas && (wl.status[http.StatusIMUsed] == 0 || wl.status[http.StatusNotModified] == 0) {
					t.Errorf("%s: no 226 or no 304 among %v", mode.name, wl.status)
				}
				if mode.session && wl.sessions[wirehttp.SessionNew] != 1 {
					t.Errorf("%s: the Client asked for a new session %d times, want once (it never had to start again)", mode.name, wl.sessions[wirehttp.SessionNew])
				}
				if mode.deltas && mode.session {
					reg, _ := wire.DefaultRegistry().Lookup(codec)
					withRefs := 0
					for _, b := range wl.deltas {
						h, _, err := reg.(delta.DocumentCodec).DecodeDocument(b)
						if err != nil {
							t.Fatal(err)
						}
						for _, f := range h {
							if f.Name == delta.FieldSentEarlier {
								withRefs++
							}
						}
					}
					t.Logf("%d of %d deltas name nodes sent earlier", withRefs, len(wl.deltas))
					if withRefs == 0 {
						t.Errorf("no delta carried references")
					}
				}
			}
			whole, both := costs["whole"], costs["both"]
			for _, m := range []string{"deltas only", "references only"} {
				if costs[m].tokens >= whole.tokens || both.tokens >= costs[m].tokens {
					t.Errorf("tokens: whole %d, %s %d, both %d: want both < %s < whole", whole.tokens, m, costs[m].tokens, both.tokens, m)
				}
			}
		})
	}
}

// TestClientGoonLossyInSession: GOON truncates long strings and drops
// nulls, so its reader holds another response than the server's; in a
// session the server remembers what the reader holds (Session.Encode's
// held response), so the second query's shared nodes come as references
// that resolve, the Client never asks again fresh, and the answers
// equal the data as GOON carries it.
func TestClientGoonLossyInSession(t *testing.T) {
	q, base := startQueryServer(t, memorySessions(t))
	lossy := sessionResponse(30)
	for i := range lossy.Nodes {
		lossy.Nodes[i].Properties = append(lossy.Nodes[i].Properties,
			wire.Property{Key: "bio", Value: wire.String(strings.Repeat("long text ", 150))},
			wire.Property{Key: "avatar", Value: wire.Null()},
			wire.Property{Key: "score", Value: wire.Float(81.0)})
	}
	second := wiretest.Clone(lossy)
	second.Nodes = second.Nodes[10:]
	q.set("a", lossy)
	q.set("b", second)
	wl := newWireLog(t)
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "goon", Deltas: true, Session: true, HTTP: &http.Client{Transport: wl}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "a", "b"} {
		data := map[string]*wire.GraphResponse{"a": lossy, "b": second}[name]
		got, err := c.Get(context.Background(), base+"/q/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := wiretest.Diff(heldBy(t, "goon", data), got, wire.Exact); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", name, diff)
		}
	}
	if wl.sessions[wirehttp.SessionNew] != 1 || wl.status[http.StatusOK] != 2 || wl.status[http.StatusNotModified] != 2 {
		t.Fatalf("new sessions asked %d times (want 1), answers %v (want two 200 and two 304)", wl.sessions[wirehttp.SessionNew], wl.status)
	}
	if b := wl.full[1]; !strings.Contains(string(b), delta.FieldSentEarlier) {
		t.Errorf("the second query's answer has no references:\n%.300s", b)
	}
}
