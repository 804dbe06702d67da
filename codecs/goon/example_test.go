package goon_test

import (
	"fmt"
	"strings"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

func Example() {
	r := &wire.GraphResponse{
		QueryType: wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 5252563, Properties: []wire.Property{
				wire.Prop("username", wire.String("jordan_ng")),
				wire.Prop("name", wire.String("Jordan NG")),
			}},
			{Type: "MergeRequest", ID: 482927048, Properties: []wire.Property{
				wire.Prop("title", wire.String("Fix \"auth\" bug")),
				wire.Prop("iid", wire.Int(18)),
				wire.Prop("merged_at", wire.String("2026-05-08 22:55:58.467450")),
				wire.Prop("draft", wire.Bool(false)),
				wire.Prop("closed_at", wire.Null()),
			}},
		},
		Edges: []wire.Edge{
			{From: "User", FromID: 5252563, To: "MergeRequest", ToID: 482927048, Type: "AUTHORED"},
		},
	}
	text, err := goon.Encode(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(text))

	back, err := goon.Decode(text)
	if err != nil {
		fmt.Println(err)
		return
	}
	mr := back.Nodes[0]
	fmt.Println(mr.Type, mr.ID, mr.Properties)
	// Output:
	// @header
	// query_type:traversal
	// goon_version:1.0.0
	// nodes:2
	// edges:1
	// @nodes
	// MergeRequest(1):
	// 482927048 iid=18 draft=false merged_at=2026-05-08T22:55:58.467450 title="Fix \"auth\" bug"
	// User(1):
	// 5252563 name="Jordan NG" username=jordan_ng
	// @edges
	// AUTHORED(1):
	// User:5252563 --> MergeRequest:482927048
	// MergeRequest 482927048 [{iid 18} {draft false} {merged_at "2026-05-08T22:55:58.467450"} {title "Fix \"auth\" bug"}]
}

// Truncated text keeps a breadcrumb with its original length, and reads back
// as written: the kept text with its "...", and the breadcrumb as the
// property body_len, which the encoder writes after the text again.
func Example_truncation() {
	r := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{
		{Type: "Note", ID: 7, Properties: []wire.Property{wire.Prop("body", wire.String(strings.Repeat("ab ", 100)))}},
	}}
	text, _ := goon.Encode(r)
	line := strings.Split(string(text), "\n")[7]
	fmt.Println(line[:16], "...", line[len(line)-22:])

	back, _ := goon.Decode(text)
	body, bodyLen := back.Nodes[0].Properties[0], back.Nodes[0].Properties[1]
	again, _ := goon.Encode(back)
	fmt.Println(len(body.Value.Text()), body.Value.Text()[192:], bodyLen.Key, bodyLen.Value.Int(), string(again) == string(text))
	// Output:
	// 7 body="ab ab ab ... ab ab..." body_len=300
	// 200 ab ab... body_len 300 true
}

func ExampleDecode_error() {
	_, err := goon.Decode([]byte("@header\nquery_type:traversal\ngoon_version:1.0.0\nnodes:1\nedges:0\n@nodes\n1 username=alice\n@edges\n"))
	fmt.Println(err)
	// Output:
	// goon: line 7: a node row before its Type(n): group
}

// The codec answers to "goon" and "llm" in the wire registry.
func Example_registry() {
	r := &wire.GraphResponse{QueryType: wire.Aggregation,
		Columns: []wire.Column{{Name: "total", Function: "count"}},
		Rows:    []wire.Row{{{Name: "total", Value: wire.Int(2347)}}},
	}
	text, _ := wire.EncodeWith("llm", r)
	fmt.Print(string(text))
	// Output:
	// @header
	// query_type:aggregation
	// goon_version:1.0.0
	// nodes:0
	// edges:0
	// rows:1
	// aggregations:total(count)
	// @nodes
	// @edges
	// @rows
	// total=2347
}

// A document: a response with the nodes its reader holds as references,
// its header fields at the top of @header.
func ExampleCodec_AppendDocument() {
	c := goon.Default()
	header := []delta.Field{
		{Name: delta.FieldSentEarlier, Text: "User 2"},
		{Name: delta.FieldSentEarlierAt, Ints: []int{1}},
	}
	content := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{
		{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("name", wire.String("ada"))}},
	}}
	text, err := c.AppendDocument(nil, header, content)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(text))
	back, _, err := c.DecodeDocument(text)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s=%q %s=%v\n", back[0].Name, back[0].Text, back[1].Name, back[1].Ints)
	// Output:
	// @header
	// sent_earlier:"User 2"
	// sent_earlier_at:1
	// query_type:search
	// @nodes
	// User(1):
	// 1 name=ada
	// sent_earlier="User 2" sent_earlier_at=[1]
}
