package wirestore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/testsupport/redistore"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// waitEmpty waits until the server's expired keys are gone (Redis drops
// them in its background cycle), failing after two minutes.
func waitEmpty(t *testing.T, srv *testsupport.RedisServer) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); srv.Keys(0) != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d keys left two minutes on", srv.Keys(0))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestRedisStore(t *testing.T) {
	ctx := context.Background()
	srv := testsupport.StartRedis(t)
	r := redistore.Open(t, srv, 5*time.Second)
	if _, err := r.Get(ctx, "k"); !errors.Is(err, wirestore.ErrNotFound) {
		t.Fatalf("Get of a key never set: %v, want ErrNotFound", err)
	}
	value := []byte("a value\x00with any bytes\r\n")
	if err := r.Set(ctx, "k", value, time.Minute); err != nil {
		t.Fatal(err)
	}
	got, err := r.Get(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(value, got); diff != "" {
		t.Fatalf("Get (-want +got):\n%s", diff)
	}
	if ttl := srv.Command("PTTL", "k"); !strings.HasPrefix(ttl, ":") || ttl == ":-1" {
		t.Fatalf("PTTL of a value Set with a time to live: %q", ttl)
	}
	if err := r.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Get(ctx, "k"); !errors.Is(err, wirestore.ErrNotFound) {
		t.Fatalf("Get after Delete: %v", err)
	}
	if err := r.Set(ctx, "big", make([]byte, wirestore.DefaultMaxValueBytes+1), time.Minute); !errors.Is(err, wirestore.ErrTooLarge) {
		t.Fatalf("Set past MaxValueBytes: %v, want ErrTooLarge", err)
	}
	for i := range 20 {
		if err := r.Set(ctx, fmt.Sprint("short", i), value, 300*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Keys(0); n != 20 {
		t.Fatalf("DBSIZE %d, want 20", n)
	}
	waitEmpty(t, srv)
	if _, err := r.Get(ctx, "short0"); !errors.Is(err, wirestore.ErrNotFound) {
		t.Fatalf("Get once the time to live passed: %v", err)
	}
}

func TestOpen(t *testing.T) {
	st, err := wirestore.Open("memory")
	if _, ok := st.(*wirestore.Memory); err != nil || !ok {
		t.Fatalf("Open(memory) = %T, %v", st, err)
	}
	st, err = wirestore.Open("redis://user:secret@127.0.0.1:6390/3")
	r, ok := st.(*wirestore.Redis)
	if err != nil || !ok {
		t.Fatalf("Open(redis://…) = %T, %v", st, err)
	}
	defer r.Close()
	o := r.Options()
	if o.Addr != "127.0.0.1:6390" || o.DB != 3 || o.Username != "user" || o.Password != "secret" || o.Timeout != wirestore.DefaultTimeout {
		t.Fatalf("Open(redis://…) options %+v", o)
	}
	for _, bad := range []string{"", "mem", "http://x:1", "redis://", "redis://h:1/0?pool_size=1000", "redis://u:secret@h:1/x", "redis://u:secret@h:1/0#f"} {
		if _, err := wirestore.Open(bad); err == nil {
			t.Errorf("Open(%q): no error", bad)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q): the error shows the password: %v", bad, err)
		}
	}
}

// IDPrefix is how much of a real id a guessed one keeps.
const IDPrefix = 11

// corpusResponses are responses of the benchmark corpus of at most max
// nodes each, at least one node.
func corpusResponses(max int) []*wire.GraphResponse {
	var out []*wire.GraphResponse
	for _, c := range corpus.Generate() {
		if n := len(c.Response.Nodes); n > 0 && n <= max {
			out = append(out, c.Response)
		}
	}
	return out
}

// TestRedisSessions: a conversation through Sessions on Redis, every
// request on a new Redis client (another replica), gives the bytes of one
// session kept in memory; the server holds each session under its hashed
// key, nothing a client sent is a key, and the sessions expire.
func TestRedisSessions(t *testing.T) {
	ctx := context.Background()
	srv := testsupport.StartRedis(t)
	g, err := codecs.NewRegistry(codecs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lim := delta.SessionLimits{MaxNodes: 60}
	o := wirestore.SessionOptions{Limits: lim, Namespace: "svc", Idle: time.Second}
	replicas := make([]*wirestore.Sessions, 3)
	for i := range replicas {
		if replicas[i], err = wirestore.NewSessions(redistore.Open(t, srv, 5*time.Second), o); err != nil {
			t.Fatal(err)
		}
	}
	responses := corpusResponses(40)
	ids := []string{replicas[0].NewID(), replicas[1].NewID()}
	for k, id := range ids {
		local, _ := delta.NewSession(lim)
		refs := 0
		for i, r := range responses[:min(12, len(responses))] {
			ss := replicas[(i+k)%len(replicas)]
			sess, err := ss.Load(ctx, id)
			if i > 0 && err != nil {
				t.Fatalf("session %d, request %d: Load: %v", k, i, err)
			}
			want, _, _ := local.Encode(g, "goon", r)
			got, _, err := sess.Encode(g, "goon", r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, got) {
				t.Fatalf("session %d, request %d: the stored session wrote another text than one in memory", k, i)
			}
			refs += bytes.Count(got, []byte("sent_earlier"))
			if err := ss.Save(ctx, id, sess); err != nil {
				t.Fatal(err)
			}
		}
		if refs == 0 {
			t.Fatalf("session %d: no response with references", k)
		}
	}
	keys := strings.Fields(srv.Command("KEYS", "*"))
	keyForm := regexp.MustCompile(`^svc:session:[0-9a-f]{64}$`)
	for _, k := range keys {
		if !keyForm.MatchString(k) {
			t.Fatalf("key %q is not svc:session:<sha-256>", k)
		}
		for _, id := range ids {
			if strings.Contains(k, id) {
				t.Fatalf("an id is part of key %q", k)
			}
		}
	}
	if len(keys) != len(ids) {
		t.Fatalf("keys %q, want one for each of %d sessions", keys, len(ids))
	}
	if n := srv.Keys(0); n != len(ids) {
		t.Fatalf("DBSIZE %d, want %d sessions", n, len(ids))
	}
	// Forged, guessed and 1 MB ids are new sessions, each with nothing of
	// the others', and leave no key.
	forged := []string{replicas[0].NewID(), ids[0][:IDPrefix] + strings.Repeat("A", wirestore.IDLength-IDPrefix),
		strings.Repeat("A", 1<<20), "svc:session:" + strings.Repeat("0", 64), "*"}
	for _, id := range forged {
		sess, err := replicas[1].Load(ctx, id)
		if !errors.Is(err, wirestore.ErrUnknownSession) {
			t.Fatalf("Load of a forged id (%d bytes): %v, want ErrUnknownSession", len(id), err)
		}
		if refs := sess.References(responses[0]); len(refs) != 0 {
			t.Fatalf("a forged id reached another's session: references %v", refs)
		}
	}
	if n := srv.Keys(0); n != len(ids) {
		t.Fatalf("DBSIZE %d after forged ids, want %d", n, len(ids))
	}
	waitEmpty(t, srv)
	if _, err := replicas[0].Load(ctx, ids[0]); !errors.Is(err, wirestore.ErrUnknownSession) {
		t.Fatalf("Load of an expired session: %v, want ErrUnknownSession", err)
	}
}

// TestRedisOutage: with the server stopped, then frozen (it hangs), every
// call fails with a *StoreError before the outage ends, the sessions
// degrade to empty ones, no goroutine is left behind; with the server
// back, calls work again by themselves.
func TestRedisOutage(t *testing.T) {
	ctx := context.Background()
	srv := testsupport.StartRedis(t)
	const timeout = 50 * time.Millisecond
	st := redistore.Open(t, srv, timeout)
	ss, err := wirestore.NewSessions(st, wirestore.SessionOptions{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	id := ss.NewID()
	sess, _ := ss.Load(ctx, id)
	sess.Mark(corpusResponses(40)[0])
	if err := ss.Save(ctx, id, sess); err != nil {
		t.Fatal(err)
	}
	goroutines := runtime.NumGoroutine()
	for _, outage := range []struct {
		name       string
		begin, end func()
	}{
		{"stopped", srv.Stop, srv.Start},
		{"frozen", srv.Freeze, srv.Thaw},
	} {
		outage.begin()
		var slowest time.Duration
		for i := range 20 {
			start := time.Now()
			sess, err := ss.Load(ctx, id)
			var se *wirestore.StoreError
			if !errors.As(err, &se) {
				t.Fatalf("%s: Load %d: %v, want a *StoreError", outage.name, i, err)
			}
			if n, _ := sess.Len(); n != 0 {
				t.Fatalf("%s: Load during the outage gave %d nodes", outage.name, n)
			}
			if err := st.Set(ctx, "k", []byte("v"), time.Minute); !errors.As(err, &se) {
				t.Fatalf("%s: Set %d: %v, want a *StoreError", outage.name, i, err)
			}
			slowest = max(slowest, time.Since(start))
		}
		// Two calls of a 50ms timeout: a call that waited on the server
		// (stopped: none; frozen: for ever) would pass any bound; this
		// one leaves room for a loaded machine.
		t.Logf("%s: the slowest Load and Set took %v together (timeout %v each)", outage.name, slowest, timeout)
		if slowest > 40*timeout {
			t.Fatalf("%s: a Load and a Set took %v, with a timeout of %v each", outage.name, slowest, timeout)
		}
		outage.end()
		// Calls fail on connections the outage broke, and until the
		// client's pool dials again (it tries once a second), then work.
		ok := 0
		for deadline := time.Now().Add(30 * time.Second); ok < 5; time.Sleep(20 * time.Millisecond) {
			if err := st.Set(ctx, "k", []byte("v"), time.Minute); err == nil {
				ok++
			} else if ok > 0 {
				t.Fatalf("%s: after calls worked again, Set failed: %v", outage.name, err)
			} else if time.Now().After(deadline) {
				t.Fatalf("%s: calls did not work again within 30s of the outage's end: %v", outage.name, err)
			}
		}
		if _, err := ss.Load(ctx, id); !errors.Is(err, wirestore.ErrUnknownSession) && err != nil {
			t.Fatalf("%s: Load after the outage: %v", outage.name, err)
		}
	}
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	if n := runtime.NumGoroutine(); n > goroutines+5 {
		t.Fatalf("%d goroutines after the outages, %d before", n, goroutines)
	}
}
