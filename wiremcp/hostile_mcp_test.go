package wiremcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wiremcp"
)

// countingService is newService whose handler counts its calls.
func countingService(t *testing.T) (*mcp.ClientSession, *atomic.Int64) {
	t.Helper()
	g := &graph{}
	var calls atomic.Int64
	srv := mcp.NewServer(&mcp.Implementation{Name: "graph", Version: "1"}, nil)
	svc, err := wiremcp.New(srv, wiremcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = svc.AddTool(wiremcp.Tool{Name: "merge_requests", Input: mrSchema,
		Handler: func(ctx context.Context, args json.RawMessage) (*wire.GraphResponse, error) {
			calls.Add(1)
			var a mrArgs
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return g.mergeRequests(a.From, a.To), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, srv), &calls
}

// Each bad call is a tool error that says what to change, quotes at most
// a short excerpt of what it was given, and runs nothing of the tool.
func TestHostileCalls(t *testing.T) {
	cs, calls := countingService(t)
	huge := strings.Repeat("A", 1<<20)
	for _, tc := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"1 MB cursor", map[string]any{"cursor": huge, "budget": 1000}, []string{"bad cursor", "next_cursor"}},
		{"cursor of another length", map[string]any{"cursor": "abc", "budget": 1000}, []string{"bad cursor"}},
		{"cursor without budget", map[string]any{"cursor": "AgAAAAAAAAAAAAAAAAAAAA"}, []string{"pass budget too"}},
		{"unknown format", map[string]any{"format": "xml"}, []string{`unknown format "xml"`, "gcf, goon (llm), json (raw), toon"}},
		{"1 MB format", map[string]any{"format": huge}, []string{"unknown format", "json (raw)"}},
		{"binary format", map[string]any{"format": "cbor"}, []string{"cbor is binary", "goon (llm)"}},
		{"format not a string", map[string]any{"format": 3}, []string{"format must be a string"}},
		{"budget 0", map[string]any{"budget": 0}, []string{"budget must be a whole number of o200k tokens from 1", "left out"}},
		{"budget -5", map[string]any{"budget": -5}, []string{"budget must be"}},
		{"budget 1.5", map[string]any{"budget": 1.5}, []string{"budget must be"}},
		{"budget 1e30", map[string]any{"budget": 1e30}, []string{"budget must be"}},
		{"fresh not a bool", map[string]any{"fresh": "yes"}, []string{"fresh must be true or false"}},
		{"own argument missing", map[string]any{"from": 1}, []string{"do not match the tool's input schema"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"from": 1, "to": 3}
			for k, v := range tc.args {
				if v == nil {
					delete(args, k)
				} else {
					args[k] = v
				}
			}
			if tc.name == "own argument missing" {
				delete(args, "to")
			}
			before := calls.Load()
			a := call(t, cs, "merge_requests", args)
			if !a.IsError {
				t.Fatalf("no tool error: %s %.200s", a.Kind, a.Text)
			}
			for _, w := range tc.want {
				if !strings.Contains(a.Text, w) {
					t.Errorf("error %q does not say %q", a.Text, w)
				}
			}
			if len(a.Text) > 300 {
				t.Errorf("error of %d bytes: %.400s", len(a.Text), a.Text)
			}
			if calls.Load() != before {
				t.Errorf("the tool ran for a bad call")
			}
		})
	}
	// A budget below the next page is refused with the least that works.
	a := call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 3, "budget": 5})
	if !a.IsError || !strings.Contains(a.Text, "budget 5 is too small: the next page needs") {
		t.Fatalf("budget 5: %+v", a)
	}
	var min int
	if _, err := fmt.Sscanf(a.Text[strings.Index(a.Text, "needs ")+len("needs "):], "%d", &min); err != nil {
		t.Fatal(err)
	}
	a = call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 3, "budget": min})
	if a.IsError || a.Kind != wiremcp.AnswerPage {
		t.Errorf("the minimum budget %d gives %+v", min, a)
	}
}

// A 1 MB cursor costs no more memory than any decode of its size.
func TestHugeCursorMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector inflates memory")
	}
	cs, _ := countingService(t)
	huge := strings.Repeat("A", 1<<20)
	args := map[string]any{"from": 1, "to": 3, "budget": 1000, "cursor": huge}
	var a struct{ isError bool }
	fp := wiretest.Measure(func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "merge_requests", Arguments: args})
		if err != nil {
			t.Error(err)
			return
		}
		a.isError = res.IsError
	})
	t.Logf("1 MB cursor: %v", fp)
	if !a.isError {
		t.Error("no tool error")
	}
	if bound := uint64(16<<20 + 16<<20); fp.PeakHeap > bound {
		t.Errorf("peak heap %d bytes for a 1 MB cursor, bound %d (16 x input + 16 MiB)", fp.PeakHeap, bound)
	}
}

// 10,000 MCP sessions over streamable HTTP, each opened, calling the tool
// once and abandoned: the service remembers at most MaxSessions
// conversations, within their byte bounds, and the heap stays within
// what the SDK's own sessions and those bounds hold.
func TestAbandonedSessions(t *testing.T) {
	n := 10_000
	if testing.Short() || testsupport.Race {
		n = 1_000
	}
	const sdkTimeout = 3 * time.Second
	g := &graph{}
	srv, svc := newService(t, g, wiremcp.Options{Sessions: wiremcp.SessionLimits{MaxSessions: 64}})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: sdkTimeout})
	ts := httptest.NewServer(h)
	defer ts.Close()
	client := ts.Client()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	fp := wiretest.Measure(func() {
		for i := range n {
			id := openSession(t, client, ts.URL)
			res := post(t, client, ts.URL, id, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"merge_requests","arguments":{"from":%d,"to":%d}}}`, i%50, i%50+5))
			if !strings.Contains(res, `"answer":"full"`) {
				t.Fatalf("session %d: %.300s", i, res)
			}
		}
	})
	elapsed := time.Since(start)
	st := svc.Stats()
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d sessions abandoned in %v: %+v; peak heap %.1f MiB, live heap after +%.1f MiB (%.1f KiB a session, the SDK's sessions included)",
		n, elapsed.Round(time.Millisecond), st, float64(fp.PeakHeap)/(1<<20), float64(live)/(1<<20), float64(live)/float64(n)/1024)
	if st.Sessions != 64 || st.Bases != 64 {
		t.Errorf("%d conversations with %d answers kept, want the bound, 64 and 64", st.Sessions, st.Bases)
	}
	if st.NodeBytes > 64*wiremcp.DefaultSessionBytes || st.BaseBytes > 64*wiremcp.DefaultMaxBaseBytes {
		t.Errorf("%+v past the bounds", st)
	}
	// What the service keeps is bounded by its conversations; the SDK keeps
	// each HTTP session until its SessionTimeout, then forgets it.
	time.Sleep(sdkTimeout + time.Second)
	runtime.GC()
	runtime.ReadMemStats(&after)
	settled := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("live heap %.1f MiB above the start once the SDK's sessions timed out", float64(settled)/(1<<20))
	if bound := st.NodeBytes + st.BaseBytes + 16<<20; !testsupport.Race && settled > bound {
		t.Errorf("live heap %d bytes above the start after the SDK's timeout, bound %d (what the conversations count + 16 MiB)", settled, bound)
	}
}

// openSession initializes an MCP session over streamable HTTP and returns
// its Mcp-Session-Id.
func openSession(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"abandoner","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck // the status says it
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %s, session %q", resp.Status, id)
	}
	post(t, c, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return id
}

// post sends one JSON-RPC message in the session and returns the answer.
func post(t *testing.T, c *http.Client, url, session, body string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, bufio.NewReader(resp.Body)); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s: %s", resp.Status, b.String())
	}
	return b.String()
}
