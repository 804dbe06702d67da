package graphwire_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
)

// The README's MCP example, verbatim between the markers.

// README-mcp:begin

// newMCPServer serves the tool query_graph, whose handler runs the
// service's own query; wiremcp writes each answer in the format the call
// asks for (goon by default), within its token budget, and in the
// conversation of the MCP session: references and deltas.
func newMCPServer(query func(ctx context.Context, q string) (*wire.GraphResponse, error)) (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "graph", Version: "1.0.0"}, nil)
	svc, err := wiremcp.New(srv, wiremcp.Options{}) // nil registry: wire.DefaultRegistry()
	if err != nil {
		return nil, err
	}
	err = svc.AddTool(wiremcp.Tool{
		Name:        "query_graph",
		Description: "Runs a graph query over the code graph.",
		Input: &jsonschema.Schema{Type: "object", Required: []string{"query"},
			Properties: map[string]*jsonschema.Schema{"query": {Type: "string"}}},
		Handler: func(ctx context.Context, args json.RawMessage) (*wire.GraphResponse, error) {
			var a struct {
				Query string `json:"query"`
			}
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return query(ctx, a.Query) // an error is the model's tool error
		},
	})
	return srv, err
}

// mcpHandler serves srv over streamable HTTP; srv.Run(ctx,
// &mcp.StdioTransport{}) serves it over stdio instead.
func mcpHandler(srv *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: wiremcp.DefaultIdleTimeout})
}

// README-mcp:end

// The README's MCP server over loopback HTTP with the Go SDK's client: a
// tool error for an unknown query, the whole answer in goon, the unchanged
// marker when it is asked again, and toon when asked for.
func TestReadmeMCPExample(t *testing.T) {
	cases := map[string]*wire.GraphResponse{}
	for _, c := range corpus.Generate() {
		cases[c.ID()] = c.Response
	}
	srv, err := newMCPServer(func(_ context.Context, q string) (*wire.GraphResponse, error) {
		if r, ok := cases[q]; ok {
			return r, nil
		}
		return nil, fmt.Errorf("no such query %q", q)
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcpHandler(srv))
	defer ts.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text := func(args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_graph", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	if msg, isErr := text(map[string]any{"query": "nope"}); !isErr || !strings.Contains(msg, "no such query") {
		t.Errorf("unknown query: %v %q", isErr, msg)
	}
	q := "lean/traversal_adr_50u_200mr"
	got, _ := text(map[string]any{"query": q})
	want, err := wire.EncodeWith("goon", cases[q])
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("first answer is not the goon of the response:\n%.300s", got)
	}
	if again, _ := text(map[string]any{"query": q}); !strings.HasPrefix(again, "@header\ngraphwire_delta:") || strings.Contains(again, "@nodes") {
		t.Errorf("asked again: not the unchanged marker:\n%.300s", again)
	}
	toon, _ := text(map[string]any{"query": q, "format": "toon", "fresh": true})
	if r, err := wire.DecodeWith("toon", []byte(toon)); err != nil || !wire.Equal(r, cases[q], wire.Exact) {
		t.Errorf("toon: %v", err)
	}
}
