package cli_test

import (
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

// The bounds README ("Replicas") and wirestore's doc ("Bounds") give for
// a replica of "wirebench serve -store redis://…": its RSS stays within
// its RSS once it served its first request plus rssPerReplica, whatever
// the number of sessions (their state is in Redis); Redis takes at most
// a session's state rounded up by a quarter plus RedisKeyOverhead per
// session.
const rssPerReplica = 48 << 20

// redisFixed is what Redis takes besides the sessions: its key table's
// growth, client buffers.
const redisFixed = 2 << 20

// rssResponse is the answer every session asks for: 10 users and their
// merge requests, 50 nodes.
func rssResponse(t *testing.T) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for u := int64(1); u <= 10; u++ {
		n, err := wire.NodeOf("User", u, map[string]any{"username": fmt.Sprintf("user%d", u)})
		if err != nil {
			t.Fatal(err)
		}
		r.Nodes = append(r.Nodes, n)
		for k := int64(0); k < 4; k++ {
			mr, err := wire.NodeOf("MergeRequest", u*100+k, map[string]any{"title": fmt.Sprintf("Fix flaky test %d", u*100+k), "state": "opened"})
			if err != nil {
				t.Fatal(err)
			}
			r.Nodes = append(r.Nodes, mr)
			r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: u, To: "MergeRequest", ToID: u*100 + k, Type: "AUTHORED"})
		}
	}
	return r
}

// TestReplicaRSSTenThousandSessions: three "wirebench serve -store
// redis://…" processes behind round-robin; 10,000 sessions, each opened
// on one replica and used again on the next. Each replica's RSS stays
// within its bound, as after 2,500 sessions; Redis holds one key per
// session, each with a time to live, within its bound. Then three
// replicas with a short -idle on another database: once their sessions
// are idle past it, no key is left.
func TestReplicaRSSTenThousandSessions(t *testing.T) {
	if testsupport.Race {
		t.Skip("memory figures mean little under the race detector")
	}
	srv := testsupport.StartRedis(t)
	bin := testsupport.Wirebench(t)
	file := filepath.Join(t.TempDir(), "mrs.json")
	resp := rssResponse(t)
	writeResponseFile(t, file, resp)
	rs := startRSSReplicas(t, bin, srv.URL(), time.Hour, file)
	for i := range 3 { // every replica: its first request
		if _, err := rs.get(""); err != nil {
			t.Fatalf("replica %d: %v", i, err)
		}
	}
	start, memStart := rs.rss(t), srv.UsedMemory()
	began := time.Now()
	renewed := rs.sessions(t, 2_500)
	quarter := rs.rss(t)
	renewed += rs.sessions(t, 7_500)
	took := time.Since(began)
	end, memEnd := rs.rss(t), srv.UsedMemory()
	sess, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := sess.Encode(nil, "toon", resp); err != nil {
		t.Fatal(err)
	}
	state := int64(len(sess.AppendState(nil)))
	perSession := state*5/4 + wirestore.RedisKeyOverhead
	t.Logf("%d sessions over 3 replicas in %v (load %s); %d answered in a new session by the next replica (a store call past its timeout)",
		rs.opened, took.Round(time.Millisecond), loadAverage(), renewed)
	if renewed > rs.opened/100 {
		t.Errorf("%d of %d sessions were not found by the next replica", renewed, rs.opened)
	}
	for i := range rs.pids {
		t.Logf("replica %d: RSS %.1f MiB after its first request, %.1f MiB after 2,500 sessions, %.1f MiB after 10,000", i, mib(start[i]), mib(quarter[i]), mib(end[i]))
		if end[i] > start[i]+rssPerReplica {
			t.Errorf("replica %d: RSS %.1f MiB, past %.1f + %d MiB", i, mib(end[i]), mib(start[i]), rssPerReplica>>20)
		}
	}
	keys := srv.Keys(0)
	keyspace := srv.Command("INFO", "keyspace")
	t.Logf("redis: %d keys (%s), used_memory %.2f → %.2f MB, %d B a session (state %d B; bound %d B a session + %d MiB)",
		keys, strings.TrimSpace(keyspace[strings.Index(keyspace, "db0:"):]), float64(memStart)/1e6, float64(memEnd)/1e6,
		(memEnd-memStart)/int64(rs.opened), state, perSession, redisFixed>>20)
	// A session whose save took past the timeout under load is deleted
	// (its next request opens another): at most 1% of them.
	if keys < rs.opened-rs.opened/100 || keys > rs.opened+renewed || !strings.Contains(keyspace, fmt.Sprintf("db0:keys=%d,expires=%d,", keys, keys)) {
		t.Errorf("%d keys for %d sessions, or a key without a time to live: %s", keys, rs.opened, keyspace)
	}
	if memEnd-memStart > int64(rs.opened)*perSession+redisFixed {
		t.Errorf("Redis grew %d B, past the bound of %d B a session and %d MiB", memEnd-memStart, perSession, redisFixed>>20)
	}

	// Idle past -idle: every session expired.
	const idle = 2 * time.Second
	short := startRSSReplicas(t, bin, strings.TrimSuffix(srv.URL(), "/0")+"/1", idle, file)
	short.sessions(t, 1_000)
	n := srv.Keys(1)
	deadline := time.Now().Add(idle + 10*time.Second)
	for left := n; ; left = srv.Keys(1) {
		if left == 0 || time.Now().After(deadline) {
			t.Logf("%d sessions with -idle %v: %d keys, %d left after it", short.opened, idle, n, left)
			if n == 0 || left != 0 {
				t.Errorf("%d keys of %d sessions left past their idle time", left, n)
			}
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// rssReplicas are "wirebench serve" processes, asked in turn.
type rssReplicas struct {
	hosts  []string
	pids   []int
	tr     *http.Transport
	next   atomic.Uint64
	opened int
}

// startRSSReplicas starts three "wirebench serve -store store -idle idle
// file" processes, stopped (SIGTERM, a clean exit) when the test ends.
func startRSSReplicas(t *testing.T, bin, store string, idle time.Duration, file string) *rssReplicas {
	t.Helper()
	rs := &rssReplicas{tr: &http.Transport{MaxIdleConnsPerHost: 16}}
	t.Cleanup(rs.tr.CloseIdleConnections)
	for range 3 {
		cmd, lines, base := startServe(t, bin, "", "-addr", "127.0.0.1:0", "-store", store, "-idle", idle.String(), file)
		rs.hosts = append(rs.hosts, strings.TrimPrefix(base, "http://"))
		rs.pids = append(rs.pids, cmd.Process.Pid)
		drained := make(chan []string, 1)
		go func() { // a replica blocks on a full stderr (its access log) otherwise
			var all []string
			for l := range lines {
				all = append(all, l)
			}
			drained <- all
		}()
		t.Cleanup(func() {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Error(err)
			}
			select {
			case all := <-drained:
				if err := cmd.Wait(); err != nil || all[len(all)-1] != "wirebench serve: stopped" {
					t.Errorf("replica exit: %v; last lines %q", err, all[max(0, len(all)-3):])
				}
			case <-time.After(20 * time.Second):
				t.Error("a replica did not stop within 20 s")
			}
		})
	}
	return rs
}

// get asks the next replica for /mrs in toon in session, and returns the
// session its answer is in.
func (rs *rssReplicas) get(session string) (string, error) {
	host := rs.hosts[rs.next.Add(1)%uint64(len(rs.hosts))]
	req, _ := http.NewRequest(http.MethodGet, "http://"+host+"/mrs", nil)
	req.Header.Set("Accept", "text/toon")
	req.Header.Set(wirehttp.SessionHeader, session)
	res, err := rs.tr.RoundTrip(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d", res.StatusCode)
	}
	return res.Header.Get(wirehttp.SessionHeader), nil
}

// rss is each replica's VmRSS.
func (rs *rssReplicas) rss(t *testing.T) []int64 {
	t.Helper()
	var out []int64
	for _, pid := range rs.pids {
		b, ok := testsupport.ProcStatus(pid, "VmRSS")
		if !ok {
			t.Fatalf("no VmRSS for %d", pid)
		}
		out = append(out, b)
	}
	return out
}

// sessions opens n sessions, 16 at a time: each asks for a new one, then
// again with the id it was given, on the next replica, which answers in
// it unless its store call took past wirestore.DefaultTimeout (100 ms;
// then it opens a new session, which is right, and is counted in moved).
// Any other failure fails the test.
func (rs *rssReplicas) sessions(t *testing.T, n int) (renewed int) {
	t.Helper()
	var wg sync.WaitGroup
	var failed, other atomic.Int64
	var once sync.Once
	work := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			for range work {
				id, err := rs.get(wirehttp.SessionNew)
				if err == nil && !wirestore.WellFormed(id) {
					err = fmt.Errorf("session id %q", id)
				}
				if err == nil {
					var again string
					if again, err = rs.get(id); err == nil && again != id {
						other.Add(1)
					}
				}
				if err != nil {
					failed.Add(1)
					once.Do(func() { t.Errorf("a session: %v", err) })
				}
			}
		})
	}
	for range n {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	rs.opened += n
	if failed.Load() > 0 {
		t.Fatalf("%d of %d sessions failed", failed.Load(), n)
	}
	return int(other.Load())
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// loadAverage is the first field of /proc/loadavg.
func loadAverage() string {
	out, err := exec.Command("cat", "/proc/loadavg").Output()
	if err != nil {
		return "?"
	}
	return strings.Fields(string(out))[0]
}
