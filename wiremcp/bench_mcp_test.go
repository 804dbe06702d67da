package wiremcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
)

// BenchmarkCall prices one tool call of text-heavy/traversal_l against
// one encoding of it: a conversation's first call, a repeat of an
// unchanged result, a repeat after one node changed, and a page of 4,000
// tokens.
func BenchmarkCall(b *testing.B) {
	c, ok := corpus.Find(corpus.Generate(), "text-heavy/traversal_l")
	if !ok {
		b.Fatal("no case text-heavy/traversal_l")
	}
	resp := c.Response
	edited := *resp
	edited.Nodes = append([]wire.Node(nil), resp.Nodes...)
	edited.Nodes[3].Properties = append([]wire.Property{{Key: "edited", Value: wire.Bool(true)}}, edited.Nodes[3].Properties...)
	for _, format := range []string{"goon", "toon", "json"} {
		b.Run(format+"/encode", func(b *testing.B) {
			for b.Loop() {
				if _, err := wire.EncodeWith(format, resp); err != nil {
					b.Fatal(err)
				}
			}
		})
		srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		svc, err := New(srv, Options{})
		if err != nil {
			b.Fatal(err)
		}
		current := resp
		tool := Tool{Name: "t", Handler: func(context.Context, json.RawMessage) (*wire.GraphResponse, error) { return current, nil }}
		schema, err := (&jsonschema.Schema{Type: "object"}).Resolve(nil)
		if err != nil {
			b.Fatal(err)
		}
		call := func(b *testing.B, session *mcp.ServerSession, args string, want string) {
			res := svc.call(context.Background(), tool, schema, &mcp.CallToolRequest{Session: session, Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(args)}})
			if got := res.Meta[MetaKey].(map[string]any)["answer"]; got != want {
				b.Fatalf("%s, want %s", got, want)
			}
		}
		args := `{"format":"` + format + `"}`
		b.Run(format+"/first-call", func(b *testing.B) {
			for b.Loop() {
				call(b, &mcp.ServerSession{}, args, AnswerFull)
			}
		})
		b.Run(format+"/repeat-unchanged", func(b *testing.B) {
			s := &mcp.ServerSession{}
			call(b, s, args, AnswerFull)
			for b.Loop() {
				call(b, s, args, AnswerUnchanged)
			}
		})
		b.Run(format+"/repeat-changed", func(b *testing.B) {
			s := &mcp.ServerSession{}
			for b.Loop() {
				b.StopTimer()
				current = resp
				call(b, s, `{"format":"`+format+`","fresh":true}`, AnswerFull)
				current = &edited
				b.StartTimer()
				call(b, s, args, AnswerDelta)
			}
		})
		current = resp
		b.Run(format+"/page-4000", func(b *testing.B) {
			for b.Loop() {
				call(b, &mcp.ServerSession{}, `{"format":"`+format+`","budget":4000}`, AnswerPage)
			}
		})
	}
}
