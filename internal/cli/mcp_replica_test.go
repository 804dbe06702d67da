package cli_test

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/internal/testsupport"
)

// startMCPReplicas starts three "wirebench mcp -http 127.0.0.1:0 args..."
// processes and a round-robin proxy in front of them, and returns the
// proxy's endpoint.
func startMCPReplicas(t *testing.T, bin string, args ...string) string {
	t.Helper()
	var targets []*url.URL
	for range 3 {
		u, err := url.Parse(startMCP(t, bin, args...))
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, u)
	}
	var next atomic.Uint64
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	ps := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(targets[next.Add(1)%3]); pr.Out.URL.Path = "/mcp" },
		Transport: tr, ErrorLog: log.New(io.Discard, "", 0),
	})
	t.Cleanup(ps.Close)
	return ps.URL + "/mcp"
}

// TestMCPReplicasGoClient: three "wirebench mcp -http -watch -store
// redis://…" processes behind round-robin, each request of the Go SDK's
// client on the next one: the 10-call conversation of one process, the
// same answers, references, deltas and unchanged markers.
func TestMCPReplicasGoClient(t *testing.T) {
	srv := testsupport.StartRedis(t)
	bin := testsupport.Wirebench(t)
	dir, data := mcpFiles(t)
	endpoint := startMCPReplicas(t, bin, "-watch", "-store", srv.URL(), dir)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcpConversation(t, goClient{cs}, dir, data)
	if err := cs.Close(); err != nil {
		t.Errorf("closing: %v", err)
	}
	if keys := srv.Command("KEYS", "graphwire:mcp-answer:*"); !strings.Contains(keys, "graphwire:mcp-answer:") {
		t.Errorf("Redis holds no kept answer:\n%s", keys)
	}
}

// TestMCPReplicasNodeClient: the npm SDK's client, over the same three
// replicas.
func TestMCPReplicasNodeClient(t *testing.T) {
	mcpTestdata(t)
	srv := testsupport.StartRedis(t)
	bin := testsupport.Wirebench(t)
	dir, data := mcpFiles(t)
	endpoint := startMCPReplicas(t, bin, "-watch", "-store", srv.URL(), dir)
	mcpConversation(t, startNodeClient(t, "http", endpoint), dir, data)
}
