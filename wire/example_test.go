package wire_test

import (
	"errors"
	"fmt"

	_ "github.com/graphwire/graphwire/codecs/json" // registers "json" (alias "raw")
	"github.com/graphwire/graphwire/wire"
)

func ExampleEncodeWith() {
	ana := wire.Node{Type: "User", ID: 9007199254740993, Properties: []wire.Property{
		wire.Prop("username", wire.String("ana")), wire.Prop("score", wire.Float(1))}}
	mr := wire.Node{Type: "MergeRequest", ID: 42, Properties: []wire.Property{wire.Prop("iid", wire.Int(7))}}
	resp := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{ana, mr},
		Edges: []wire.Edge{{From: ana.Type, FromID: ana.ID, To: mr.Type, ToID: mr.ID, Type: "AUTHORED"}}}
	b, err := wire.EncodeWith("json", resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	// Output:
	// {"format_version":"1.2.0","query_type":"traversal","nodes":[{"type":"User","id":"9007199254740993","username":"ana","score":1.0},{"type":"MergeRequest","id":"42","iid":7}],"edges":[{"from":"User","from_id":"9007199254740993","to":"MergeRequest","to_id":"42","type":"AUTHORED"}]}
}

func ExampleDecodeWith() {
	data := []byte(`{"format_version":"1.2.0","query_type":"traversal",
		"nodes":[{"type":"User","id":"9007199254740993","username":"ana","score":1.0,"stars":3}],
		"edges":[]}`)
	resp, err := wire.DecodeWith("raw", data) // names and aliases, any case
	if err != nil {
		fmt.Println(err)
		return
	}
	n := resp.Nodes[0]
	fmt.Println(n.Type, n.ID)
	for _, p := range n.Properties {
		fmt.Printf("%s: %v (%v)\n", p.Key, p.Value, p.Value.Kind())
	}

	// Bad input is a *wire.DecodeError that says where.
	_, err = wire.DecodeWith("json", []byte(`{"format_version":"1.2.0","query_type":"graph"}`))
	var de *wire.DecodeError
	if errors.As(err, &de) {
		fmt.Println(de.Codec, de.Offset)
	}
	fmt.Println(err)
	// Output:
	// User 9007199254740993
	// username: "ana" (string)
	// score: 1.0 (float)
	// stars: 3 (int)
	// json 39
	// json: offset 39: query_type: expected one of traversal, search, neighbors, path_finding, aggregation, found "graph"
}

func ExampleList() {
	for _, info := range wire.List() {
		fmt.Printf("%s %v %s\n", info.Name, info.Aliases, info.MediaType)
	}
	_, err := wire.Lookup("yaml")
	fmt.Println(err)
	fmt.Println(errors.Is(err, wire.ErrUnknownCodec))
	// Output:
	// json [raw] application/json
	// wire: unknown codec "yaml" (have: json (raw))
	// true
}
