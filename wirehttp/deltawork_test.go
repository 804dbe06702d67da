package wirehttp_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// countedJSON is the json codec (its delta syntax included) counting the
// decodes the Server makes, and how many run at once. A Server decodes
// only to compute deltas (two decodes each, one after the other), so the
// most decodes at once bound below the most computations at once. Each
// decode lasts at least pause, so that computations started together
// overlap.
type countedJSON struct {
	*cjson.Codec
	pause                  time.Duration
	running, most, decodes *atomic.Int64
}

func newCountedJSON(pause time.Duration) countedJSON {
	return countedJSON{Codec: cjson.Default(), pause: pause, running: new(atomic.Int64), most: new(atomic.Int64), decodes: new(atomic.Int64)}
}

func (c countedJSON) Decode(data []byte) (*wire.GraphResponse, error) {
	n := c.running.Add(1)
	defer c.running.Add(-1)
	for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
	}
	c.decodes.Add(1)
	time.Sleep(c.pause)
	return c.Codec.Decode(data)
}

// swapped serves whatever handler it holds: a served file that changes.
type swapped struct{ h atomic.Pointer[http.Handler] }

func (sw *swapped) ServeHTTP(w http.ResponseWriter, r *http.Request) { (*sw.h.Load()).ServeHTTP(w, r) }
func (sw *swapped) set(h http.Handler)                               { sw.h.Store(&h) }

// revision returns r with a property "rev" of value rev on its first
// node: a new revision of a served file, one change from any other.
func revision(r *wire.GraphResponse, rev int) *wire.GraphResponse {
	out := wiretest.Clone(r)
	n := &out.Nodes[0]
	n.Properties = append([]wire.Property{{Key: "rev", Value: wire.Int(int64(rev))}}, n.Properties...)
	return out
}

// cpuTime is the CPU time, user and system, the process has used.
func cpuTime(t testing.TB) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// drain makes a GET with the header pairs given and returns the status
// and the body's length, the body read into no buffer.
func drain(t testing.TB, c *http.Client, url string, header ...string) (int, int64) {
	t.Helper()
	resp := sendIM(t, c, "GET", url, header...)
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, n
}

// patchedEquals checks an answer to a delta request by a client holding
// held: a 226 patched onto held must be want, the decoded full answer;
// a 200 must be the full answer.
func patchedEquals(a answer, held, full []byte, want *wire.GraphResponse) error {
	switch a.status {
	case http.StatusIMUsed:
	case http.StatusOK:
		if !bytes.Equal(a.body, full) {
			return fmt.Errorf("200 with %d bytes, not the current answer's %d", len(a.body), len(full))
		}
		return nil
	default:
		return fmt.Errorf("status %d, want 226 or 200", a.status)
	}
	base, err := cjson.Decode(held)
	if err != nil {
		return err
	}
	return patchesTo(base, a.body, want)
}

// TestDeltaCostsAsGet: after a served 5 MB file changed once, 100
// requests for the delta from the older ETag cost the process (server
// and client) at most twice the CPU time of 100 plain GETs: the delta is
// computed once, on the first such request, and kept.
func TestDeltaCostsAsGet(t *testing.T) {
	nodes, minBytes := 6600, 5_000_000
	if testsupport.Race { // the race detector slows decoding tenfold
		nodes, minBytes = 1400, 1_000_000
	}
	const requests, trials = 100, 3
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(cjson.Default())
	s, err := wirehttp.New(reg, wirehttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	old := testsupport.LargeTraversal(nodes)
	var sw swapped
	sw.set(s.Static(old))
	srv := httptest.NewServer(&sw)
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer c.CloseIdleConnections()

	held := fetchIM(t, c, "GET", srv.URL, "A-IM", wirehttp.DeltaIM)
	if held.status != 200 || len(held.body) < minBytes {
		t.Fatalf("first answer: status %d, %d bytes; want 200 and at least %d", held.status, len(held.body), minBytes)
	}
	tag := held.header.Get("ETag")
	sw.set(s.Static(revision(old, 1))) // the file changes once
	full := fetchIM(t, c, "GET", srv.URL)

	start := cpuTime(t)
	first := fetchIM(t, c, "GET", srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", tag)
	computed := cpuTime(t) - start
	if first.status != http.StatusIMUsed {
		t.Fatalf("first delta request: status %d, want 226", first.status)
	}
	want, err := cjson.Decode(full.body)
	if err != nil {
		t.Fatal(err)
	}
	if err := patchedEquals(first, held.body, full.body, want); err != nil {
		t.Fatal(err)
	}

	// The least CPU time of a few runs of 100 requests each, so that
	// the other processes of a loaded machine count as little as can be.
	plain := time.Duration(1<<63 - 1)
	for range trials {
		start := cpuTime(t)
		for range requests {
			if st, n := drain(t, c, srv.URL); st != 200 || n != int64(len(full.body)) {
				t.Fatalf("plain GET: status %d, %d bytes", st, n)
			}
		}
		plain = min(plain, cpuTime(t)-start)
	}
	// A run of delta requests stops as soon as it has cost more than the
	// bound, so that a server computing every delta again fails fast.
	bound := 2 * plain
	deltas := time.Duration(1<<63 - 1)
	for range trials {
		start := cpuTime(t)
		done := 0
		for ; done < requests && cpuTime(t)-start <= bound; done++ {
			if st, n := drain(t, c, srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", tag); st != http.StatusIMUsed || n != int64(len(first.body)) {
				t.Fatalf("delta request: status %d, %d bytes; want 226 and %d", st, n, len(first.body))
			}
		}
		if spent := cpuTime(t) - start; done == requests && spent <= bound {
			deltas = min(deltas, spent)
		} else {
			t.Logf("a run of delta requests cost %v of CPU after %d of %d requests", spent, done, requests)
		}
	}
	t.Logf("a %d-byte file, a %d-byte delta: %d plain GETs %v of CPU; the first delta request %v (the delta computed)",
		len(full.body), len(first.body), requests, plain, computed)
	if deltas > bound {
		t.Fatalf("%d delta requests cost more than twice the CPU of %d plain GETs (%v) in each of %d runs", requests, requests, plain, trials)
	}
	t.Logf("%d delta requests %v of CPU: %.3f x the plain GETs", requests, deltas, float64(deltas)/float64(plain))
}

// TestDeltaWorkBounded: 64 clients, each holding a different earlier
// revision of a file that changed 64 times, ask for their delta at once.
// Every one is answered at once, 226 or 200, and correctly; at most
// MaxComputations deltas are computed at a time, within the in-flight
// bound; a client answered 200 that asks again gets its delta, and
// every delta is computed once.
func TestDeltaWorkBounded(t *testing.T) {
	const clients, maxComputations = 64, 3
	codec := newCountedJSON(2 * time.Millisecond)
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(codec)
	const maxInFlight = 1 << 30 // room for many more computations than 3
	s, err := wirehttp.New(reg, wirehttp.Options{MaxInFlightBytes: maxInFlight, ErrorLog: log.New(io.Discard, "", 0),
		Delta: wirehttp.DeltaOptions{MaxComputations: maxComputations, MaxDeltas: 16}})
	if err != nil {
		t.Fatal(err)
	}
	file := testsupport.LargeTraversal(60)
	var sw swapped
	srv := httptest.NewServer(&sw)
	defer srv.Close()
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: time.Minute}

	held := make([]answer, clients) // client i holds revision i
	for i := range held {
		sw.set(s.Static(revision(file, i)))
		if held[i] = fetchIM(t, c, "GET", srv.URL, "A-IM", wirehttp.DeltaIM); held[i].status != 200 {
			t.Fatalf("revision %d: status %d", i, held[i].status)
		}
	}
	sw.set(s.Static(revision(file, clients)))
	full := fetchIM(t, c, "GET", srv.URL).body
	want, err := cjson.Decode(full)
	if err != nil {
		t.Fatal(err)
	}
	// What one computation is charged: two decodes and the delta.
	charge := int64(2*wirehttp.DecodeOverhead + wirehttp.DecodeFactor*2*(len(full)+64) + len(full))

	var peak atomic.Int64 // the most InFlightBytes seen
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if n := s.InFlightBytes(); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Microsecond):
			}
		}
	}()

	pending := make([]int, clients) // the clients without their delta
	for i := range pending {
		pending[i] = i
	}
	rounds := 0
	for len(pending) > 0 && rounds < clients {
		rounds++
		answers := make([]answer, len(pending))
		var ready, wg sync.WaitGroup
		ready.Add(1)
		for k, i := range pending {
			wg.Go(func() {
				ready.Wait()
				answers[k] = fetchIM(t, c, "GET", srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", held[i].header.Get("ETag"))
			})
		}
		ready.Done()
		wg.Wait()
		var left []int
		deltas := 0
		for k, i := range pending {
			if err := patchedEquals(answers[k], held[i].body, full, want); err != nil {
				t.Fatalf("round %d, client %d: %v", rounds, i, err)
			}
			if answers[k].status == http.StatusOK {
				left = append(left, i)
			} else {
				deltas++
			}
		}
		t.Logf("round %d: %d clients, %d deltas (226), %d full answers (200)", rounds, len(pending), deltas, len(left))
		pending = left
	}
	close(stop)
	<-sampled
	if len(pending) > 0 {
		t.Errorf("after %d rounds, %d clients still get no delta", rounds, len(pending))
	}
	if most := codec.most.Load(); most > maxComputations {
		t.Errorf("%d decodes at once: more than %d delta computations ran at once", most, maxComputations)
	}
	if got, want := codec.decodes.Load(), int64(2*clients); got != want {
		t.Errorf("%d decodes, want %d: each of the %d deltas computed once", got, want, clients)
	}
	if p := peak.Load(); p > maxComputations*charge || p > maxInFlight {
		t.Errorf("in flight at most %d bytes, past %d computations of %d bytes each", p, maxComputations, charge)
	}
	if n, _ := s.ComputedDeltaStats(); n > 16 {
		t.Errorf("%d computed deltas kept, bound 16", n)
	}
	t.Logf("%d rounds; at most %d decodes at once, %d in all; in flight at most %.1f MiB (bound %.1f MiB)",
		rounds, codec.most.Load(), codec.decodes.Load(), mib(peak.Load()), mib(maxInFlight))
}

// TestDeltaComputedOnce: clients holding the same base ask for its delta
// at once, and again: it is computed once. So is a decision to send the
// full answer (a delta not worth it).
func TestDeltaComputedOnce(t *testing.T) {
	const clients = 16
	file := testsupport.LargeTraversal(60)
	for _, tc := range []struct {
		name       string
		next       *wire.GraphResponse
		wantStatus int
	}{
		{"delta", revision(file, 1), http.StatusIMUsed},
		{"not worth it", testsupport.ADRTraversal(10, 40), http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			codec := newCountedJSON(20 * time.Millisecond) // a computation lasts 40 ms or more
			reg, err := wire.NewRegistry(wire.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			reg.Register(codec)
			s, err := wirehttp.New(reg, wirehttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
			if err != nil {
				t.Fatal(err)
			}
			var sw swapped
			sw.set(s.Static(file))
			srv := httptest.NewServer(&sw)
			defer srv.Close()
			tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: clients}
			defer tr.CloseIdleConnections()
			c := &http.Client{Transport: tr, Timeout: time.Minute}
			held := fetchIM(t, c, "GET", srv.URL, "A-IM", wirehttp.DeltaIM)
			sw.set(s.Static(tc.next))
			full := fetchIM(t, c, "GET", srv.URL).body
			want, err := cjson.Decode(full)
			if err != nil {
				t.Fatal(err)
			}
			for round := range 2 {
				answers := make([]answer, clients)
				var wg sync.WaitGroup
				for i := range answers {
					wg.Go(func() {
						answers[i] = fetchIM(t, c, "GET", srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", held.header.Get("ETag"))
					})
				}
				wg.Wait()
				for i, a := range answers {
					if a.status != tc.wantStatus {
						t.Fatalf("round %d, client %d: status %d, want %d", round, i, a.status, tc.wantStatus)
					}
					if err := patchedEquals(a, held.body, full, want); err != nil {
						t.Fatalf("round %d, client %d: %v", round, i, err)
					}
				}
			}
			if n := codec.decodes.Load(); n != 2 {
				t.Errorf("%d decodes for %d requests, want 2: one computation", n, 2*clients)
			}
		})
	}
}
