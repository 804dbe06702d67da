package wirehttp_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/testsupport/redistore"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

// redisInfo returns the integer field of INFO section (used_memory of
// "memory", keys and expires of db0 in "keyspace").
func redisInfo(t *testing.T, srv *testsupport.RedisServer, section, field string) int64 {
	t.Helper()
	for line := range strings.SplitSeq(srv.Command("INFO", section), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if db, ok := strings.CutPrefix(line, "db0:"); ok && section == "keyspace" {
			for kv := range strings.SplitSeq(db, ",") {
				if v, ok := strings.CutPrefix(kv, field+"="); ok {
					n, _ := strconv.ParseInt(v, 10, 64)
					return n
				}
			}
		}
	}
	return 0 // an empty keyspace has no db0 line
}

// TestReplicasTenThousandSessions: 10,000 sessions opened through three
// replicas sharing a redis-server, each answered 50 nodes with A-IM (so
// bases are kept too) and abandoned: Redis holds each session within
// the documented bound (its state, a quarter more, RedisKeyOverhead),
// every key has a time to live, none longer than the idle time; the
// replicas' live heap grows by less than 8 MiB, where the 10,000 states
// alone are 20 MB: the process keeps nothing per session.
func TestReplicasTenThousandSessions(t *testing.T) {
	if testsupport.Race {
		t.Skip("heap figures under the race detector mean nothing")
	}
	const sessions, workers = 10_000, 8
	srv := testsupport.StartRedis(t)
	idle := 10 * time.Minute // long beside the seconds the requests take, even on a loaded machine; nothing waits it out
	rs := startReplicas(t, 3, redistore.Open(t, srv, redisTimeout), wirestore.SessionOptions{Namespace: "bound", Idle: idle})
	data := sessionResponse(50)
	rs.set("a", data)
	sess, _ := delta.NewSession(delta.SessionLimits{})
	if _, _, err := sess.Encode(wire.DefaultRegistry(), "json", data); err != nil {
		t.Fatal(err)
	}
	state := int64(len(sess.AppendState(nil)))

	url := rs.url + "/q/a"
	tr := &http.Transport{MaxIdleConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	ask := func() string {
		status, h, _ := get(t, client, http.MethodGet, url, "Accept", "application/json", "A-IM", wirehttp.DeltaIM, wirehttp.SessionHeader, wirehttp.SessionNew)
		if status != http.StatusOK {
			t.Errorf("status %d", status)
		}
		return h.Get(wirehttp.SessionHeader)
	}
	ask() // warm up: connections, pools, the base
	before, heapBefore := redisInfo(t, srv, "memory", "used_memory"), liveHeap()
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[string]bool{}
	for range workers {
		wg.Go(func() {
			for range sessions / workers {
				id := ask()
				mu.Lock()
				ids[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	after, heapAfter := redisInfo(t, srv, "memory", "used_memory"), liveHeap()
	keys, expires := redisInfo(t, srv, "keyspace", "keys"), redisInfo(t, srv, "keyspace", "expires")
	per, bound := (after-before)/sessions, state+state/4+wirestore.RedisKeyOverhead
	t.Logf("%d sessions in %v: %d keys (%d with a time to live); Redis used_memory %d -> %d bytes, %d a session (state %d bytes, bound %d); live heap %d -> %d bytes",
		sessions, took, keys, expires, before, after, per, state, bound, heapBefore, heapAfter)
	if len(ids) != sessions {
		t.Errorf("%d distinct ids for %d new sessions", len(ids), sessions)
	}
	if took > idle/2 || keys < sessions {
		t.Fatalf("%d keys after %v: the sessions began to expire before they were counted", keys, took)
	}
	if n := rs.errors.n.Load(); n != 0 {
		t.Errorf("%d store failures logged", n)
	}
	if keys != expires {
		t.Errorf("%d keys, %d with a time to live", keys, expires)
	}
	if per > bound {
		t.Errorf("Redis holds %d bytes a session, past the documented %d", per, bound)
	}
	if heapAfter > heapBefore && heapAfter-heapBefore > 8<<20 {
		t.Errorf("the replicas' live heap grew %d bytes for sessions kept in Redis", heapAfter-heapBefore)
	}
	// Every key goes once idle has passed: the longest time to live left,
	// read in one scan of the keyspace rather than waited out.
	longest := srv.Command("EVAL", `"local m = -1 for _, k in ipairs(redis.call('KEYS', '*')) do m = math.max(m, redis.call('PTTL', k)) end return m"`, "0")
	if ms, err := strconv.ParseInt(strings.TrimPrefix(longest, ":"), 10, 64); err != nil || ms <= 0 || time.Duration(ms)*time.Millisecond > idle {
		t.Errorf("longest time to live %q, want one of at most %v", longest, idle)
	}
}
