package wiremcp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/testsupport/redistore"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
	"github.com/graphwire/graphwire/wiremcp/wiremcptest"
	"github.com/graphwire/graphwire/wirestore"
)

// replicas are n wiremcp services on one graph, each behind its own
// loopback HTTP server, and a round-robin proxy in front of them.
type replicas struct {
	url    string
	svcs   []*wiremcp.Service
	errors atomic.Int64 // lines the services logged
	tr     *http.Transport
}

// closeIdle closes the idle connections of the agents and of the proxy,
// whose goroutines are not the services'.
func (rs *replicas) closeIdle() {
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	rs.tr.CloseIdleConnections()
}

// sharedLimits are the node limits of a shared conversation, those of
// one in the process, so that the two compare.
var sharedLimits = delta.SessionLimits{MaxBytes: wiremcp.DefaultSessionBytes}

// startReplicas starts n services on g; st nil keeps conversations in
// each process (Options.Shared nil).
func startReplicas(t *testing.T, g *graph, n int, st wirestore.Store) *replicas {
	return startReplicasWith(t, g, n, st, mcp.StreamableHTTPOptions{JSONResponse: true}, 0)
}

// startReplicasWith is startReplicas with the SDK's options hopts (a
// SessionTimeout of 0 is the store's Idle) and the store's Idle storeIdle
// (0: its default).
func startReplicasWith(t *testing.T, g *graph, n int, st wirestore.Store, hopts mcp.StreamableHTTPOptions, storeIdle time.Duration) *replicas {
	t.Helper()
	rs := &replicas{}
	var targets []*url.URL
	for range n {
		opts := wiremcp.Options{ErrorLog: log.New(countWriter{&rs.errors}, "", 0)}
		if st != nil {
			sessions, err := wirestore.NewSessions(st, wirestore.SessionOptions{Limits: sharedLimits, Timeout: 2 * time.Second, Idle: storeIdle})
			if err != nil {
				t.Fatal(err)
			}
			opts.Shared = sessions
		}
		_, svc := newService(t, g, opts)
		ts := httptest.NewServer(svc.Handler(&hopts))
		t.Cleanup(ts.Close)
		u, _ := url.Parse(ts.URL)
		rs.svcs, targets = append(rs.svcs, svc), append(targets, u)
	}
	var next atomic.Uint64
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	rs.tr = tr
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(targets[next.Add(1)%uint64(len(targets))]) },
		Transport: tr, ErrorLog: log.New(io.Discard, "", 0),
	}
	ps := httptest.NewServer(proxy)
	t.Cleanup(ps.Close)
	t.Cleanup(tr.CloseIdleConnections)
	rs.url = ps.URL + "/mcp"
	return rs
}

type countWriter struct{ n *atomic.Int64 }

func (c countWriter) Write(p []byte) (int, error) { c.n.Add(1); return len(p), nil }

// agentRun is what the agents received: answers by kind, the references
// in them, bytes, and the sessions the clients had to open again.
type agentRun struct {
	Kinds          map[string]int
	WithReferences int // full answers that name nodes sent earlier
	Bytes          int
	Reopened       int
	texts          map[[2]int]string // by agent and round
}

func (a agentRun) String() string {
	return fmt.Sprintf("full %d (%d with references), delta %d, unchanged %d, %d bytes, %d sessions opened again",
		a.Kinds[wiremcp.AnswerFull], a.WithReferences, a.Kinds[wiremcp.AnswerDelta], a.Kinds[wiremcp.AnswerUnchanged], a.Bytes, a.Reopened)
}

// sameRun says how a and b differ: their figures, and the answers that
// are not the same text.
func sameRun(a, b agentRun) string {
	diff := cmp.Diff(a, b, cmp.AllowUnexported(agentRun{}), cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".texts"
	}, cmp.Ignore()))
	n := 0
	for k, v := range a.texts {
		if b.texts[k] != v {
			n++
		}
	}
	if n > 0 {
		diff += fmt.Sprintf("%d of %d answers differ in their text\n", n, len(a.texts))
	}
	return diff
}

// agentCalls is agent k's call in round r: ranges of users that overlap
// other agents' (shared nodes) and repeat every third round.
func agentCall(k, r int) map[string]any {
	from := (k*2 + []int{0, 3, 1}[r%3]) % 12
	return map[string]any{"from": from + 1, "to": from + 4}
}

// mcpAgent is one agent: a client session over the proxy, and its reader,
// which holds what the session was sent.
type mcpAgent struct {
	t      *testing.T
	url    string
	cs     *mcp.ClientSession
	rd     *wiremcptest.Reader
	reopen int
}

func newAgent(t *testing.T, url string) *mcpAgent {
	a := &mcpAgent{t: t, url: url}
	a.open()
	return a
}

// open starts a new session and a new reader, as a client does when the
// server answers that its session is not found.
func (a *mcpAgent) open() {
	a.t.Helper()
	var cs *mcp.ClientSession
	var err error
	for try := 0; try < 3; try++ {
		// A store slower than its timeout leaves a new session in the
		// replica that opened it only: its initialized notification, on
		// the next replica, is "session not found", and the client
		// opens another, as a client does.
		// The SDK's retries reconnect the standalone event stream when
		// the replica holding it closes its copy of the session idle.
		cs, err = mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: a.url}, nil)
		if err == nil || !strings.Contains(err.Error(), "session not found") {
			break
		}
		a.reopen++
	}
	if err != nil {
		a.t.Fatal(err)
	}
	if a.cs != nil {
		a.cs.Close()
	}
	a.cs, a.rd = cs, newReader(a.t)
	a.t.Cleanup(func() { cs.Close() })
}

// call calls merge_requests with args, opening the session again when
// the server lost it, and returns the answer and the result as read.
func (a *mcpAgent) call(args map[string]any) (wiremcptest.Answer, *wire.GraphResponse) {
	a.t.Helper()
	for try := 0; ; try++ {
		res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "merge_requests", Arguments: args})
		if errors.Is(err, mcp.ErrSessionMissing) && try < 3 {
			a.reopen++
			a.open()
			continue
		}
		if err != nil {
			a.t.Fatalf("%v: %v", args, err)
		}
		ans, err := wiremcptest.ReadResult(res)
		if err != nil || ans.IsError {
			a.t.Fatalf("%v: %v %+v", args, err, ans)
		}
		return ans, read(a.t, a.rd, fmt.Sprint(args), ans)
	}
}

// runAgents runs agents agents for rounds rounds against url: every agent
// calls in each round, concurrently, and the graph changes between
// rounds. Every answer, read as its client holds it, must be the graph's
// result as goon carries it.
func runAgents(t *testing.T, g *graph, url string, agents, rounds int, between func(round int)) agentRun {
	t.Helper()
	as := make([]*mcpAgent, agents)
	for k := range as {
		as[k] = newAgent(t, url)
	}
	run := agentRun{Kinds: map[string]int{}, texts: map[[2]int]string{}}
	var mu sync.Mutex
	for r := range rounds {
		if between != nil {
			between(r)
		}
		var wg sync.WaitGroup
		for k, a := range as {
			wg.Go(func() {
				args := agentCall(k, r)
				ans, got := a.call(args)
				want := carried(t, "goon", g.mergeRequests(int64(args["from"].(int)), int64(args["to"].(int))))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("agent %d round %d %s (-want +got):\n%.2000s", k, r, ans.Kind, diff)
				}
				mu.Lock()
				run.Kinds[ans.Kind]++
				if ans.Kind == wiremcp.AnswerFull && strings.Contains(ans.Text, "sent_earlier") {
					run.WithReferences++
				}
				run.texts[[2]int{k, r}] = ans.Text
				run.Bytes += len(ans.Text)
				mu.Unlock()
			})
		}
		wg.Wait()
		if r%4 == 3 {
			g.edit()
		}
	}
	for _, a := range as {
		run.Reopened += a.reopen
		a.cs.Close()
	}
	return run
}

// TestReplicasShareConversations: agents over a round-robin proxy in
// front of three replicas whose conversations are in one redis-server
// get the same answers, references and deltas as from one replica that
// keeps them in its process; three replicas without the store do not.
func TestReplicasShareConversations(t *testing.T) {
	srv := testsupport.StartRedis(t)
	st := redistore.Open(t, srv, time.Second)
	const agents, rounds = 8, 10

	g := &graph{}
	one := runAgents(t, g, startReplicas(t, g, 1, nil).url, agents, rounds, nil)
	t.Logf("one replica, in the process:  %v", one)
	g = &graph{}
	three := runAgents(t, g, startReplicas(t, g, 3, st).url, agents, rounds, nil)
	t.Logf("three replicas on one Redis:  %v", three)
	if diff := sameRun(one, three); diff != "" {
		t.Errorf("three replicas answered otherwise than one (-one +three):\n%s", diff)
	}
	if one.Kinds[wiremcp.AnswerDelta] == 0 || one.Kinds[wiremcp.AnswerUnchanged] == 0 || one.WithReferences == 0 {
		t.Errorf("the run exercises no delta, unchanged marker or reference: %v", one)
	}
	// Without the store, a session is its replica's only: the client's
	// next request, on another replica, finds none.
	_, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: startReplicas(t, &graph{}, 3, nil).url, MaxRetries: -1}, nil)
	if err == nil || !strings.Contains(err.Error(), "session not found") {
		t.Errorf("three replicas without a store: connecting: %v, want session not found", err)
	}
}

// TestReplicasRedisOutage: redis-server stopped halfway through the run:
// every call is answered, rightly (whole answers, sessions opened again
// where a replica cannot take one over), the failures are logged and no
// goroutine is left behind; started again, the agents' run equals one
// replica's again.
func TestReplicasRedisOutage(t *testing.T) {
	srv := testsupport.StartRedis(t)
	// A stopped server refuses at once: the timeout only keeps a slow
	// machine's calls from failing when the server runs.
	st := redistore.Open(t, srv, 2*time.Second)
	const agents, rounds = 6, 8
	// The SDK's copies of the sessions close this idle, so that the
	// outage's sessions end on every replica; long beside a round (a
	// copy closed while the store is down cannot be taken again).
	sdkIdle := time.Second
	if testsupport.Race {
		sdkIdle = 5 * time.Second
	}
	g := &graph{}
	rs := startReplicasWith(t, g, 3, st, mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: sdkIdle}, 0)
	runAgents(t, g, rs.url, 2, 2, nil)         // warm: connections, the SDK's goroutines
	time.Sleep(sdkIdle + 500*time.Millisecond) // the SDK closes the sessions idle
	rs.closeIdle()
	time.Sleep(100 * time.Millisecond)
	before := runtime.NumGoroutine()
	outage := runAgents(t, g, rs.url, agents, rounds, func(r int) {
		if r == rounds/2 {
			srv.Stop()
		}
	})
	t.Logf("redis stopped at round %d: %v; %d store failures logged", rounds/2, outage, rs.errors.Load())
	if rs.errors.Load() == 0 {
		t.Error("no store failure was logged")
	}
	// The outage's sessions end on every replica (closed, or idle past
	// the SDK's timeout); their goroutines with them.
	rs.closeIdle()
	if n := settleGoroutines(before+2, sdkIdle+3*time.Second); n > before+2 {
		t.Errorf("goroutines: %d before the outage, %d after", before, n)
	} else {
		t.Logf("goroutines: %d before the outage, %d after", before, n)
	}
	srv.Start()
	testsupport.AwaitClient(t, 64, func() error {
		return st.Set(context.Background(), "probe", []byte{1}, time.Second)
	})
	// The same replicas, on the graph as the outage left it.
	after := runAgents(t, g, rs.url, agents, rounds, nil)
	g1 := &graph{edits: g.edits - rounds/4}
	one := runAgents(t, g1, startReplicas(t, g1, 1, nil).url, agents, rounds, nil)
	t.Logf("restarted: %v; one replica: %v", after, one)
	if diff := sameRun(one, after); diff != "" {
		t.Errorf("after the restart (-one replica +three):\n%s", diff)
	}
}

// settleGoroutines waits up to wait for the goroutines to be at most n,
// and returns their number.
func settleGoroutines(n int, wait time.Duration) int {
	got := runtime.NumGoroutine()
	for end := time.Now().Add(wait); got > n && time.Now().Before(end); got = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return got
}

// TestReplicaSessionsExpire: conversations idle past the store's Idle
// leave no key in Redis (their kept answers after twice Idle), and every
// replica forgets the SDK sessions it served once they are idle past
// the SDK's timeout (Idle by default).
func TestReplicaSessionsExpire(t *testing.T) {
	srv := testsupport.StartRedis(t)
	st := redistore.Open(t, srv, time.Second)
	idle := time.Second
	if testsupport.Race {
		idle = 3 * time.Second
	}
	g := &graph{}
	rs := startReplicasWith(t, g, 3, st, mcp.StreamableHTTPOptions{JSONResponse: true}, idle)
	for k := range 4 {
		a := newAgent(t, rs.url)
		a.call(agentCall(k, 0)) // on the replica after the one that opened it
	}
	keys := srv.Keys(0)
	served := 0
	for _, svc := range rs.svcs {
		served += svc.Stats().SharedSessions
	}
	if keys == 0 || served == 0 {
		t.Fatalf("%d keys, %d sessions served: the conversations were not shared", keys, served)
	}
	deadline := time.Now().Add(2*idle + 5*time.Second)
	for (keys > 0 || served > 0) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		keys, served = srv.Keys(0), 0
		for _, svc := range rs.svcs {
			served += svc.Stats().SharedSessions
		}
	}
	t.Logf("idle %v: %d keys and %d sessions served left", idle, keys, served)
	if keys != 0 || served != 0 {
		t.Errorf("%d keys and %d sessions served left past twice the idle time", keys, served)
	}
}

// TestReplicasEventStream: with event streams and an EventStore (the SDK
// then answers initialize's headers before its handler runs), sessions
// still go from replica to replica.
func TestReplicasEventStream(t *testing.T) {
	g := &graph{}
	rs := startReplicasWith(t, g, 3, wirestore.NewMemory(wirestore.MemoryOptions{}),
		mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)}, 0)
	a := newAgent(t, rs.url)
	var kinds []string
	for range 3 {
		ans, _ := a.call(map[string]any{"from": 1, "to": 4})
		kinds = append(kinds, ans.Kind)
	}
	if diff := cmp.Diff([]string{wiremcp.AnswerFull, wiremcp.AnswerUnchanged, wiremcp.AnswerUnchanged}, kinds); diff != "" || a.reopen != 0 {
		t.Errorf("answers (-want +got), %d sessions opened again:\n%s", a.reopen, diff)
	}
}
