package wirestore_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/testsupport/redistore"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// The 10,000 sessions of the bound tests each remember boundNodes nodes.
const (
	boundSessions = 10_000
	boundNodes    = 50
)

// saveSessions saves boundSessions sessions, each after one response of
// boundNodes nodes of its own, from 8 goroutines, and returns the bytes
// of their states.
func saveSessions(t *testing.T, ss *wirestore.Sessions) int64 {
	return saveSessionsN(t, ss, boundSessions)
}

// saveSessionsN is saveSessions of n sessions.
func saveSessionsN(t *testing.T, ss *wirestore.Sessions, n int) int64 {
	t.Helper()
	ctx := context.Background()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int64
	)
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 8 {
				nodes := make([]wire.Node, boundNodes)
				for k := range nodes {
					nodes[k] = userNode(int64(i*boundNodes+k), "user"+strconv.Itoa(k))
				}
				sess, _ := delta.NewSession(ss.Options().Limits)
				sess.Mark(response(nodes...))
				if err := ss.Save(ctx, ss.NewID(), sess); err != nil {
					t.Errorf("Save %d: %v", i, err)
					return
				}
				mu.Lock()
				total += int64(len(sess.AppendState(nil)))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return total
}

// redisBound is the documented Redis memory of a session whose state is
// state bytes: the state rounded up by the allocator (at most a quarter
// more) and RedisKeyOverhead of key and bookkeeping.
func redisBound(state int64) int64 { return state + state/4 + wirestore.RedisKeyOverhead }

// TestRedisTenThousandSessions: 10,000 sessions of 50 nodes each take
// Redis memory (INFO memory's used_memory) within the documented bound,
// and once their idle time passes they leave no key.
func TestRedisTenThousandSessions(t *testing.T) {
	if testsupport.Race {
		t.Skip("10,000 sessions under the race detector take minutes; the memory is Redis's, measured without it")
	}
	srv := testsupport.StartRedis(t)
	st := redistore.Open(t, srv, 10*time.Second)
	// The sessions must all be saved before the first expires, and the
	// test then waits for them to expire: the idle time is about twice
	// what saving them takes here and now (twice ten times a tenth of
	// them, measured with the connections still to open).
	// The timeout is long: this test is of memory.
	probe, err := wirestore.NewSessions(st, wirestore.SessionOptions{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	saveSessionsN(t, probe, boundSessions/10)
	idle := max(2*time.Second, 20*time.Since(start))
	srv.Command("FLUSHDB")
	ss, err := wirestore.NewSessions(st, wirestore.SessionOptions{Idle: idle, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	before := srv.UsedMemory()
	start = time.Now()
	states := saveSessions(t, ss)
	after := srv.UsedMemory()
	t.Logf("saving %d sessions took %v; idle time %v", boundSessions, time.Since(start), idle.Round(time.Millisecond))
	if n := srv.Keys(0); n != boundSessions {
		t.Fatalf("DBSIZE %d, want %d", n, boundSessions)
	}
	per, state := (after-before)/boundSessions, states/boundSessions
	t.Logf("%d sessions of %d nodes: states of %d bytes each, Redis used_memory %d → %d bytes, %d a session (bound %d)",
		boundSessions, boundNodes, state, before, after, per, redisBound(state))
	if per > redisBound(state) {
		t.Fatalf("Redis holds %d bytes a session, past the documented %d", per, redisBound(state))
	}
	waitEmpty(t, srv)
}

// TestMemoryTenThousandSessions: 10,000 sessions of 50 nodes each in the
// default Memory store hold heap within the bytes the store counts
// (key, state and MemoryEntryOverhead each), which its MaxBytes bounds.
func TestMemoryTenThousandSessions(t *testing.T) {
	if testsupport.Race {
		t.Skip("heap figures mean little under the race detector")
	}
	st := wirestore.NewMemory(wirestore.MemoryOptions{})
	ss, err := wirestore.NewSessions(st, wirestore.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	saveSessions(t, ss)
	runtime.GC()
	runtime.ReadMemStats(&after)
	n, counted := st.Len()
	if n != boundSessions || counted > st.Options().MaxBytes {
		t.Fatalf("the store keeps %d sessions, %d bytes counted (MaxBytes %d)", n, counted, st.Options().MaxBytes)
	}
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d sessions: %d bytes counted, heap grew %d bytes (%s a session)", n, counted, heap, fmt.Sprint(heap/int64(n)))
	if heap > counted+counted/4 {
		t.Fatalf("the heap grew %d bytes for %d counted", heap, counted)
	}
	runtime.KeepAlive(st)
}
