package wiremcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
)

// FuzzCallArguments: whatever the arguments of a call, the answer is
// either the tool's result or one short tool error, never a panic; the
// tool runs only for arguments that pass the checks.
func FuzzCallArguments(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"n":3}`, `{"n":3,"format":"toon","budget":40}`, `{"n":3,"budget":0}`, `{"n":"x"}`,
		`{"n":3,"cursor":"AgAAAAAAAAAAAAAAAAAAAA","budget":100}`, `{"n":3,"format":"cbor"}`, `{"n":3,"fresh":true}`,
		`[1,2]`, `null`, `{"n":3,"format":null,"budget":null}`, `{"n":1e400}`, `{"n":3,"extra":{"a":[1,2,{"b":null}]}}`,
		`{"n":"` + strings.Repeat("A", 5000) + `"}`, `{"n":3,"format":"` + strings.Repeat("é", 3000) + `"}`,
	} {
		f.Add([]byte(seed))
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil)
	svc, err := New(srv, Options{})
	if err != nil {
		f.Fatal(err)
	}
	input, err := json.Marshal(map[string]any{"type": "object", "required": []string{"n"},
		"properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 0, "maximum": 50}}})
	if err != nil {
		f.Fatal(err)
	}
	tool := Tool{Name: "nodes", Handler: func(_ context.Context, args json.RawMessage) (*wire.GraphResponse, error) {
		var a struct{ N int }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search}
		for i := range a.N {
			n, err := wire.NodeOf("T", int64(i), map[string]any{"name": strings.Repeat("x", i)})
			if err != nil {
				return nil, err
			}
			r.Nodes = append(r.Nodes, n)
		}
		return r, nil
	}}
	if err := json.Unmarshal(input, &tool.Input); err != nil {
		f.Fatal(err)
	}
	schema, err := tool.Input.Resolve(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		res := svc.call(context.Background(), tool, schema, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "nodes", Arguments: args}})
		if len(res.Content) != 1 {
			t.Fatalf("%d contents", len(res.Content))
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			if len(text) > 400 || !utf8.ValidString(text) {
				t.Errorf("error of %d bytes: %.500q", len(text), text)
			}
			return
		}
		if res.Meta[MetaKey] == nil {
			t.Errorf("a result without %s in _meta", MetaKey)
		}
	})
}
