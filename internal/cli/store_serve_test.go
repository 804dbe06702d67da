package cli_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// TestStoreUsage: a -store that is not a store URL is a usage error of
// serve and of mcp, which do not echo the URL (it may hold a password).
func TestStoreUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "-store", "mysql://127.0.0.1:3306"},
		{"serve", "-store", "redis://127.0.0.1:6379/0?pool=1"},
		{"serve", "-store", ""},
		{"mcp", "-store", "mysql://user:secret@127.0.0.1:3306", "x.json"},
	} {
		res := run("", args...)
		if res.code != 2 || res.stdout != "" || !strings.Contains(res.stderr, "-store") || strings.Contains(res.stderr, "secret") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error naming -store", args, res.code, res.stdout, res.stderr)
		}
	}
}

// adrVersions are the text-heavy ADR case and a copy of it with a
// property added to one node: an answer and its re-query after an edit.
func adrVersions() (v1, v2 *wire.GraphResponse) {
	for _, c := range testsupport.Generated() {
		if c.Profile == corpus.TextHeavy && c.Name == corpus.ADRCase {
			v1 = c.Response
		}
	}
	v2 = wiretest.Clone(v1)
	n := &v2.Nodes[len(v2.Nodes)/3]
	n.Properties = append(n.Properties, wire.Property{Key: "reviewed", Value: wire.Bool(true)})
	return v1, v2
}

// writeResponseFile writes r in json to file: written then renamed, so
// that a server never reads half a file, and a new modification time
// tells it the file changed.
func writeResponseFile(t *testing.T, file string, r *wire.GraphResponse) {
	t.Helper()
	b, err := wire.EncodeWith("json", r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file+".tmp", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(file+".tmp", file); err != nil {
		t.Fatal(err)
	}
}

// alternating is a RoundTripper that sends each request to the next of
// hosts in turn, as a round-robin load balancer in front of replicas.
type alternating struct {
	mu    sync.Mutex
	hosts []string
	n     int
	seen  []int // status of each answer
}

func (a *alternating) RoundTrip(req *http.Request) (*http.Response, error) {
	a.mu.Lock()
	host := a.hosts[a.n%len(a.hosts)]
	a.n++
	a.mu.Unlock()
	r := req.Clone(req.Context())
	r.URL.Host, r.Host = host, host
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		a.mu.Lock()
		a.seen = append(a.seen, res.StatusCode)
		a.mu.Unlock()
	}
	return res, err
}

// TestServeReplicasShareRedis: two "wirebench serve -watch -store
// redis://…" processes serve one file; a Client with deltas and a session
// whose requests alternate between them gets each answer right, keeps the
// session the first process issued, and after the file changes gets a 226
// from the process that never served the base.
func TestServeReplicasShareRedis(t *testing.T) {
	srv := testsupport.StartRedis(t)
	bin := testsupport.Wirebench(t)
	file := filepath.Join(t.TempDir(), "adr.json")
	v1, v2 := adrVersions()
	write := func(r *wire.GraphResponse) { t.Helper(); writeResponseFile(t, file, r) }
	write(v1)
	var hosts []string
	var procs []func()
	for range 2 {
		cmd, lines, base := startServe(t, bin, "", "-addr", "127.0.0.1:0", "-watch", "-store", srv.URL(), file)
		hosts = append(hosts, strings.TrimPrefix(base, "http://"))
		procs = append(procs, func() { stopServe(t, cmd, lines, syscall.SIGTERM) })
	}
	lb := &alternating{hosts: hosts}
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "toon", Deltas: true, Session: true, HTTP: &http.Client{Transport: lb}})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(want *wire.GraphResponse) {
		t.Helper()
		got, err := c.Get(context.Background(), "http://replicas/adr")
		if err != nil {
			t.Fatal(err)
		}
		c, _ := wire.Lookup("toon")
		b, _ := c.AppendEncode(nil, want)
		held, _ := c.Decode(b)
		if diff := wiretest.Diff(held, got, wire.Exact); diff != "" {
			t.Fatalf("(-file as toon carries it +got):\n%s", diff)
		}
	}
	ask(v1) // process 0: 200, the base kept in Redis
	write(v2)
	ask(v2) // process 1: 226 against the base process 0 served
	ask(v2) // process 0: 304
	for _, stop := range procs {
		stop()
	}
	want := []int{http.StatusOK, http.StatusIMUsed, http.StatusNotModified}
	if diff := cmp.Diff(want, lb.seen); diff != "" {
		t.Errorf("answers by status (-want +got):\n%s", diff)
	}
	if keys := srv.Command("KEYS", "graphwire:*"); !strings.Contains(keys, "graphwire:session:") || !strings.Contains(keys, "graphwire:"+wirehttp.BaseKind+":") {
		t.Errorf("Redis holds no session or no base of the service:\n%s", keys)
	}
}
