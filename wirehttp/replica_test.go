package wirehttp_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/testsupport/redistore"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

// redisTimeout is how long the replicas' Redis calls may take: the machine
// may be loaded (an outage fails at once).
const redisTimeout = 2 * time.Second

// countingLog counts the lines a Server writes to its ErrorLog.
type countingLog struct{ n atomic.Int64 }

func (c *countingLog) Write(p []byte) (int, error) { c.n.Add(1); return len(p), nil }

// replicaSet is one service run as several wirehttp Servers, each on its
// own loopback listener, behind a loopback reverse proxy that sends each
// request to the next replica in turn.
type replicaSet struct {
	qs     []*queryServer
	url    string // the proxy's
	proxy  *http.Transport
	errors countingLog
	next   atomic.Uint64
	// onRequest, when set, is called with the number of each request
	// the proxy forwards, from 1, before it forwards it.
	onRequest func(n uint64)
}

// startReplicas starts n replicas that share st for sessions and delta
// bases, or, when st is nil, each keeps its own in memory (the default).
// Each replica computes up to 64 deltas at once, so that no request of
// the test is answered whole for want of a computation, and its store
// calls may take 2 s (so.Timeout when set): the machine may be loaded,
// and a store that is down fails at once.
func startReplicas(t *testing.T, n int, st wirestore.Store, so wirestore.SessionOptions) *replicaSet {
	t.Helper()
	if so.Timeout == 0 {
		so.Timeout = 2 * time.Second
	}
	rs := &replicaSet{proxy: &http.Transport{MaxIdleConnsPerHost: 64}}
	var targets []*url.URL
	for range n {
		sessions, err := wirestore.NewSessions(st, so)
		if err != nil {
			t.Fatal(err)
		}
		s, err := wirehttp.New(nil, wirehttp.Options{Sessions: sessions, ErrorLog: log.New(&rs.errors, "", 0),
			Delta: wirehttp.DeltaOptions{MaxComputations: 64, Shared: wirehttp.SharedBases{Store: st, Namespace: so.Namespace, TTL: so.Idle, Timeout: so.Timeout}}})
		if err != nil {
			t.Fatal(err)
		}
		q := &queryServer{data: map[string]*wire.GraphResponse{}, s: s}
		u, err := url.Parse(startServer(t, q, wirehttp.HTTPServerOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		rs.qs, targets = append(rs.qs, q), append(targets, u)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			k := rs.next.Add(1)
			if rs.onRequest != nil {
				rs.onRequest(k)
			}
			pr.SetURL(targets[k%uint64(len(targets))])
		},
		Transport: rs.proxy,
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	rs.url = startServer(t, proxy, wirehttp.HTTPServerOptions{})
	t.Cleanup(rs.proxy.CloseIdleConnections)
	return rs
}

// set serves r under /q/name on every replica.
func (rs *replicaSet) set(name string, r *wire.GraphResponse) {
	for _, q := range rs.qs {
		q.set(name, r)
	}
}

// agentRun is what the agents of one run received.
type agentRun struct {
	status          map[int]int
	bytes, tokens   int
	requeries       int // requests that named an answer held
	withReferences  int // 200 and 226 answers naming nodes sent earlier
	answersWithBody int
}

// deltaRate is the share of re-queries answered 226 or 304.
func (a agentRun) deltaRate() float64 {
	return float64(a.status[http.StatusIMUsed]+a.status[http.StatusNotModified]) / float64(a.requeries)
}

// referenceRate is the share of answers with a body that name nodes sent
// earlier in their session.
func (a agentRun) referenceRate() float64 {
	return float64(a.withReferences) / float64(a.answersWithBody)
}

func (a agentRun) String() string {
	return fmt.Sprintf("answers %v, %d bytes, %d o200k tokens; delta hit rate %.3f (%d of %d re-queries 226 or 304), reference hit rate %.3f (%d of %d answers)",
		a.status, a.bytes, a.tokens, a.deltaRate(), a.status[http.StatusIMUsed]+a.status[http.StatusNotModified], a.requeries,
		a.referenceRate(), a.withReferences, a.answersWithBody)
}

const (
	replicaAgents = 16
	replicaCodec  = "toon"
)

// agentQueries are the 10 queries of an agent of the lean session s: its
// first four queries, the four again after 5% of their nodes changed
// (deltas), and the first two again unchanged (304s). The queries of a
// session share nodes, which its answers carry as references.
func agentQueries(s corpus.Session) (names []int, data []*wire.GraphResponse) {
	for qi := range 4 {
		names, data = append(names, qi), append(data, s.Queries[qi].Response)
	}
	for qi := range 4 {
		names, data = append(names, qi), append(data, s.Queries[qi].Requeries[1])
	}
	for qi := range 2 {
		names, data = append(names, qi), append(data, s.Queries[qi].Requeries[1])
	}
	return names, data
}

// runAgents runs 16 agents at once against rs, each a Client with deltas
// and a session asking its 10 queries in turn; every answer must be the
// data as the codec carries it, and no request may fail.
func runAgents(t *testing.T, rs *replicaSet) agentRun {
	t.Helper()
	var lean []corpus.Session
	for _, s := range corpus.Sessions() {
		if s.Profile == "lean" {
			lean = append(lean, s)
		}
	}
	wl := newWireLog(t)
	tr := &http.Transport{MaxIdleConnsPerHost: replicaAgents}
	defer tr.CloseIdleConnections()
	wl.base = tr
	var wg sync.WaitGroup
	errs := make(chan error, replicaAgents)
	for a := range replicaAgents {
		wg.Go(func() {
			c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: replicaCodec, Deltas: true, Session: true,
				HTTP: &http.Client{Transport: wl}})
			if err != nil {
				errs <- err
				return
			}
			names, data := agentQueries(lean[a%len(lean)])
			for k, qi := range names {
				name := fmt.Sprintf("a%d-q%d", a, qi)
				rs.set(name, data[k])
				got, err := c.Get(context.Background(), rs.url+"/q/"+name)
				if err != nil {
					errs <- fmt.Errorf("agent %d, request %d: %w", a, k, err)
					return
				}
				if diff := wiretest.Diff(heldBy(t, replicaCodec, data[k]), got, wire.Exact); diff != "" {
					errs <- fmt.Errorf("agent %d, request %d (-data as %s carries it +got):\n%s", a, k, replicaCodec, diff)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	run := agentRun{status: wl.status, bytes: wl.bytes, tokens: wl.tokens, requeries: replicaAgents * 6}
	codec, err := wire.DefaultRegistry().Lookup(replicaCodec)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range append(wl.full, wl.deltas...) {
		run.answersWithBody++
		h, _, err := codec.(delta.DocumentCodec).DecodeDocument(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range h {
			if f.Name == delta.FieldSentEarlier {
				run.withReferences++
				break
			}
		}
	}
	return run
}

// same reports how two runs differ in what a client sees: answers by
// status, bytes, tokens and answers with references.
func sameRun(a, b agentRun) string {
	type seen struct {
		Status        map[int]int
		Bytes, Tokens int
		Refs          int
	}
	return cmp.Diff(seen{a.status, a.bytes, a.tokens, a.withReferences}, seen{b.status, b.bytes, b.tokens, b.withReferences})
}

// TestReplicasShareThroughRedis: 16 agents (Clients with deltas and
// sessions) of 10 queries each, with re-queries and shared nodes, get
// exactly the same answers, delta and reference hit rates, bytes and
// tokens through three replicas behind a round-robin proxy, sharing one
// redis-server for sessions and bases, as from one replica; three
// replicas that each keep their own get fewer of both.
func TestReplicasShareThroughRedis(t *testing.T) {
	srv := testsupport.StartRedis(t)
	st := redistore.Open(t, srv, redisTimeout)

	one := runAgents(t, startReplicas(t, 1, nil, wirestore.SessionOptions{}))
	t.Logf("one replica:                   %v", one)
	shared := startReplicas(t, 3, st, wirestore.SessionOptions{Namespace: "replicas"})
	three := runAgents(t, shared)
	t.Logf("three replicas sharing Redis:  %v", three)
	own := runAgents(t, startReplicas(t, 3, nil, wirestore.SessionOptions{}))
	t.Logf("three replicas, each its own:  %v", own)

	if diff := sameRun(one, three); diff != "" {
		t.Errorf("three replicas sharing Redis answer otherwise than one (-one +three):\n%s", diff)
	}
	if one.deltaRate() == 0 || one.referenceRate() == 0 {
		t.Fatalf("one replica: no deltas or no references: %v", one)
	}
	if own.deltaRate() >= one.deltaRate() || own.referenceRate() >= one.referenceRate() {
		t.Errorf("three replicas that share nothing hit as often as one: the run does not tell sharing apart")
	}
	if n := shared.errors.n.Load(); n != 0 {
		t.Errorf("%d store failures logged with the store up", n)
	}
}

// TestReplicasRedisOutage: redis-server stopped halfway through the
// agents' run: every request is still answered, rightly, with no client
// error, the failures go to ErrorLog, and no goroutine is left behind;
// started again, a new run hits as often as one replica.
func TestReplicasRedisOutage(t *testing.T) {
	srv := testsupport.StartRedis(t)
	st := redistore.Open(t, srv, redisTimeout)
	rs := startReplicas(t, 3, st, wirestore.SessionOptions{Namespace: "outage"})
	runAgents(t, rs) // warm up: connections, pools
	goroutines := runtime.NumGoroutine()

	var stopped atomic.Bool
	half := rs.next.Load() + replicaAgents*10/2
	rs.onRequest = func(n uint64) {
		if n == half {
			srv.Stop()
			stopped.Store(true)
		}
	}
	down := runAgents(t, rs)
	rs.onRequest = nil
	if !stopped.Load() {
		t.Fatal("the server was never stopped")
	}
	logged := rs.errors.n.Load()
	t.Logf("redis-server stopped after half the requests: %v; %d store failures logged", down, logged)
	if logged == 0 {
		t.Error("no store failure logged")
	}
	rs.proxy.CloseIdleConnections()
	if !waitFor(5*time.Second, func() bool { return runtime.NumGoroutine() <= goroutines+8 }) {
		t.Errorf("goroutines: %d before the outage, %d after", goroutines, runtime.NumGoroutine())
	}
	t.Logf("goroutines: %d before the outage, %d after", goroutines, runtime.NumGoroutine())

	srv.Start()
	testsupport.AwaitClient(t, 64, func() error {
		return st.Set(context.Background(), "probe", []byte{1}, time.Second)
	})
	one := runAgents(t, startReplicas(t, 1, nil, wirestore.SessionOptions{}))
	before := rs.errors.n.Load()
	back := runAgents(t, rs)
	t.Logf("started again: %v (one replica: %v)", back, one)
	if diff := sameRun(one, back); diff != "" {
		t.Errorf("after the restart three replicas answer otherwise than one (-one +three):\n%s", diff)
	}
	if n := rs.errors.n.Load() - before; n != 0 {
		t.Errorf("%d store failures logged after the restart", n)
	}
}

// TestReplicaHostileSessionIDs: through the proxy, with two services
// sharing one redis-server: forged and guessed ids, an id the other
// service issued, and ids of 100 bytes and 1 MB are refused (400, 431)
// or opened as a new session under a new id, whose answer has no
// references; another client's session lends nothing to a new one; and
// every key in Redis is a namespace, a kind and 64 hex digits.
func TestReplicaHostileSessionIDs(t *testing.T) {
	srv := testsupport.StartRedis(t)
	st := redistore.Open(t, srv, redisTimeout)
	rs := startReplicas(t, 3, st, wirestore.SessionOptions{Namespace: "orbit"})
	other := startReplicas(t, 1, st, wirestore.SessionOptions{Namespace: "other"})
	data := sessionResponse(20)
	rs.set("a", data)
	other.set("a", data)
	url := rs.url + "/q/a"

	status, issued, whole := sessionGet(t, url, wirehttp.SessionNew)
	if status != http.StatusOK || !wirestore.WellFormed(issued) {
		t.Fatalf("new session: status %d, id %q", status, issued)
	}
	// The issued id goes on, on whichever replica.
	for range 3 {
		if status, id, body := sessionGet(t, url, issued); status != http.StatusOK || id != issued || !strings.Contains(string(body), delta.FieldSentEarlier) {
			t.Fatalf("the issued id: status %d, id %q, want %q and references:\n%.200s", status, id, issued, body)
		}
	}
	_, otherID, _ := sessionGet(t, other.url+"/q/a", wirehttp.SessionNew)
	guessed := []byte(issued)
	guessed[0] ^= 1
	for _, forged := range []string{otherID, string(guessed), strings.Repeat("A", 22), "x", "../../etc/passwd", "*", issued + "x"} {
		status, id, got := sessionGet(t, url, forged)
		if status != http.StatusOK || id == forged || id == issued || !wirestore.WellFormed(id) {
			t.Errorf("id %q: status %d, answered with id %q: want a new id", forged, status, id)
		}
		if string(got) != string(whole) {
			t.Errorf("id %q: the answer is not the whole response of a new session:\n%.200s", forged, got)
		}
	}
	// The issued session was not touched by the others: it goes on.
	if _, id, body := sessionGet(t, url, issued); id != issued || !strings.Contains(string(body), delta.FieldSentEarlier) {
		t.Errorf("the issued id after the forged ones: id %q, references %v", id, strings.Contains(string(body), delta.FieldSentEarlier))
	}
	for _, tc := range []struct {
		name   string
		value  string
		status int
	}{
		{"100 bytes", strings.Repeat("A", 100), http.StatusBadRequest},
		{"1 MB", strings.Repeat("A", 1<<20), http.StatusRequestHeaderFieldsTooLarge},
	} {
		if status, _, _ := get(t, http.DefaultClient, http.MethodGet, url, wirehttp.SessionHeader, tc.value); status != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, status, tc.status)
		}
	}
	keys := strings.Split(srv.Command("KEYS", "*"), "\n")
	for _, k := range keys {
		ns, rest, _ := strings.Cut(k, ":")
		kind, sum, _ := strings.Cut(rest, ":")
		if (ns != "orbit" && ns != "other") || (kind != wirestore.SessionKind && kind != wirehttp.BaseKind) || len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
			t.Errorf("key %q is not a namespace, a kind and 64 hex digits", k)
		}
	}
	t.Logf("%d keys in Redis", len(keys))
}

// hangingStore is a Store whose every call hangs until its context ends.
type hangingStore struct{ calls atomic.Int64 }

func (h *hangingStore) Get(ctx context.Context, _ string) ([]byte, error) {
	h.calls.Add(1)
	<-ctx.Done()
	return nil, ctx.Err()
}

func (h *hangingStore) Set(ctx context.Context, _ string, _ []byte, _ time.Duration) error {
	h.calls.Add(1)
	<-ctx.Done()
	return ctx.Err()
}

func (h *hangingStore) Delete(ctx context.Context, _ string) error {
	h.calls.Add(1)
	<-ctx.Done()
	return ctx.Err()
}

// TestSharedBasesStoreHangs: a store of bases that never answers (each
// call returns only when its context ends: without the Timeout the
// request would hang) costs a request its calls' Timeout, at most two;
// the request naming a base no replica keeps is answered whole (200),
// and each failure is logged.
func TestSharedBasesStoreHangs(t *testing.T) {
	const timeout = 50 * time.Millisecond
	hs := &hangingStore{}
	var errs countingLog
	s, err := wirehttp.New(nil, wirehttp.Options{ErrorLog: log.New(&errs, "", 0),
		Delta: wirehttp.DeltaOptions{Shared: wirehttp.SharedBases{Store: hs, Timeout: timeout}}})
	if err != nil {
		t.Fatal(err)
	}
	q := &queryServer{data: map[string]*wire.GraphResponse{"a": sessionResponse(20)}, s: s}
	url := startServer(t, q, wirehttp.HTTPServerOptions{}) + "/q/a"
	whole := ""
	for _, inm := range []string{"", `"AAAAAAAAAAAAAAAAAAAAAAAAAAAA"`} {
		start := time.Now()
		status, _, body := get(t, http.DefaultClient, http.MethodGet, url, "Accept", "application/json", "A-IM", wirehttp.DeltaIM, "If-None-Match", inm)
		took := time.Since(start)
		if whole == "" {
			whole = string(body)
		}
		t.Logf("If-None-Match %q: %d in %v", inm, status, took)
		if status != http.StatusOK || string(body) != whole {
			t.Errorf("If-None-Match %q: status %d, want 200 and the whole answer", inm, status)
		}
	}
	if hs.calls.Load() != 3 || errs.n.Load() != 3 {
		t.Errorf("%d store calls, %d failures logged: want 3 of each (two writes of the base, one read)", hs.calls.Load(), errs.n.Load())
	}
}

// TestSharedBasesCodec: a base another replica stored is taken only in the
// codec it was served in; a value under the base's key in another codec,
// or that does not read as a base, is no base (200), and the key is the
// namespace's, never the client's tag.
func TestSharedBasesCodec(t *testing.T) {
	st := wirestore.NewMemory(wirestore.MemoryOptions{})
	replica := func() string {
		s, err := wirehttp.New(nil, wirehttp.Options{ErrorLog: log.New(io.Discard, "", 0),
			Delta: wirehttp.DeltaOptions{Shared: wirehttp.SharedBases{Store: st, Namespace: "codec"}}})
		if err != nil {
			t.Fatal(err)
		}
		v1 := sessionResponse(40)
		v2 := wiretest.Clone(v1)
		v2.Nodes[3].Properties[0].Value = wire.String("renamed")
		q := &queryServer{data: map[string]*wire.GraphResponse{"v1": v1, "v2": v2}, s: s}
		return startServer(t, q, wirehttp.HTTPServerOptions{})
	}
	ask := func(base, path, inm string) (int, string) {
		status, h, _ := get(t, http.DefaultClient, http.MethodGet, base+path, "Accept", "application/json", "A-IM", wirehttp.DeltaIM, "If-None-Match", inm)
		return status, h.Get("ETag")
	}
	_, tag := ask(replica(), "/q/v1", "")
	key := wirestore.Key("codec", wirehttp.BaseKind, strings.Trim(tag, `"`))
	stored, err := st.Get(context.Background(), key)
	if err != nil || !strings.HasPrefix(string(stored), "json\n") {
		t.Fatalf("the base under %s: %v, %.20q", key, err, stored)
	}
	if status, _ := ask(replica(), "/q/v2", tag); status != http.StatusIMUsed {
		t.Errorf("another replica, the base in the store: status %d, want 226", status)
	}
	for _, v := range []string{"goon\n" + string(stored[5:]), "no newline", ""} {
		if err := st.Set(context.Background(), key, []byte(v), time.Minute); err != nil {
			t.Fatal(err)
		}
		if status, _ := ask(replica(), "/q/v2", tag); status != http.StatusOK {
			t.Errorf("the value under the base's key %.20q: status %d, want 200", v, status)
		}
	}
}
