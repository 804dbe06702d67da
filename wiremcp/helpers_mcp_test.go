package wiremcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
	"github.com/graphwire/graphwire/wiremcp/wiremcptest"
)

// textFormats are the built-in text codecs every test calls.
var textFormats = []string{"json", "goon", "toon", "gcf"}

// graph is a service's data: users, and merge requests authored by them,
// whose state moves on with each edit.
type graph struct {
	mu    sync.Mutex
	edits int
}

// mergeRequests answers the tool "merge_requests": the merge requests of
// the users from..to, with their authors.
func (g *graph) mergeRequests(from, to int64) *wire.GraphResponse {
	g.mu.Lock()
	edits := g.edits
	g.mu.Unlock()
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for u := from; u <= to; u++ {
		n, err := wire.NodeOf("User", u, map[string]any{"username": fmt.Sprintf("user%d", u), "state": "active"})
		if err != nil {
			panic(err)
		}
		r.Nodes = append(r.Nodes, n)
		for k := int64(0); k < 4; k++ {
			id := u*100 + k
			state := "opened"
			if (id+int64(edits))%7 < int64(edits) {
				state = "merged"
			}
			mr, err := wire.NodeOf("MergeRequest", id, map[string]any{
				"title": fmt.Sprintf("Fix the %d-th flaky test of the %s pipeline", id, []string{"build", "deploy", "lint"}[id%3]),
				"state": state, "draft": id%5 == 0, "score": float64(id) / 4,
			})
			if err != nil {
				panic(err)
			}
			r.Nodes = append(r.Nodes, mr)
			r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: u, To: "MergeRequest", ToID: id, Type: "AUTHORED"})
		}
	}
	return r
}

func (g *graph) edit() {
	g.mu.Lock()
	g.edits++
	g.mu.Unlock()
}

// mrArgs are the tool's own arguments.
type mrArgs struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

var mrSchema = &jsonschema.Schema{Type: "object", Required: []string{"from", "to"},
	Properties: map[string]*jsonschema.Schema{
		"from": {Type: "integer", Description: "first user id"},
		"to":   {Type: "integer", Description: "last user id"},
	}}

// newService returns an MCP server with the tool merge_requests over g.
func newService(t testing.TB, g *graph, opts wiremcp.Options) (*mcp.Server, *wiremcp.Service) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "graph", Version: "1"}, nil)
	svc, err := wiremcp.New(srv, opts)
	if err != nil {
		t.Fatal(err)
	}
	err = svc.AddTool(wiremcp.Tool{Name: "merge_requests", Description: "The merge requests of a range of users.",
		Input: mrSchema,
		Handler: func(ctx context.Context, args json.RawMessage) (*wire.GraphResponse, error) {
			var a mrArgs
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			if a.To < a.From || a.To-a.From > 1000 {
				return nil, fmt.Errorf("from..to must be at most 1000 users")
			}
			return g.mergeRequests(a.From, a.To), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return srv, svc
}

// connect runs srv over in-memory transports and returns a client session.
func connect(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) wiremcptest.Answer {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	a, err := wiremcptest.ReadResult(res)
	if err != nil {
		t.Fatalf("%s %v: %v (%+v)", tool, args, err, a)
	}
	return a
}

func newReader(t testing.TB) *wiremcptest.Reader {
	t.Helper()
	rd, err := wiremcptest.NewReader(nil, delta.SessionLimits{MaxBytes: wiremcp.DefaultSessionBytes})
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

func read(t testing.TB, rd *wiremcptest.Reader, call string, a wiremcptest.Answer) *wire.GraphResponse {
	t.Helper()
	r, err := rd.Read(call, a)
	if err != nil {
		t.Fatalf("%v\n%.400s", err, a.Text)
	}
	return r
}

// carried is r as a client of format holds it.
func carried(t testing.TB, format string, r *wire.GraphResponse) *wire.GraphResponse {
	t.Helper()
	out, err := wiremcptest.Carried(nil, format, r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func countTokens(t testing.TB, text string) int {
	t.Helper()
	c, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.Count([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// newServiceOrErr is wiremcp.New on a new server.
func newServiceOrErr(opts wiremcp.Options) (*wiremcp.Service, error) {
	return wiremcp.New(mcp.NewServer(&mcp.Implementation{Name: "graph", Version: "1"}, nil), opts)
}
