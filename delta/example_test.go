package delta_test

import (
	"fmt"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	_ "github.com/graphwire/graphwire/codecs/json" // registers "json"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

func Example() {
	user := func(id int64, name string) wire.Node {
		return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("username", wire.String(name))}}
	}
	base := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{user(1, "ada"), user(2, "bob")}}
	next := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{user(1, "ada"), user(3, "cy")}}
	d, _ := delta.Diff(base, next)
	b, _ := delta.EncodeWith(nil, "json", d)
	fmt.Printf("%s\n", b)

	got, err := delta.Patch(base, d)
	fmt.Println(err, wire.Equal(got, next, wire.Exact))

	_, err = delta.Patch(next, d)
	fmt.Println(err != nil)
	// Output:
	// {"graphwire_delta":"203004089359334169011691857763966469077","nodes_removed":[1],"nodes_added":[1],"content":{"nodes":[{"type":"User","id":"3","username":"cy"}]}}
	// <nil> true
	// true
}

func ExampleChoose() {
	base := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}
	bytesOf := func(d *delta.Delta) (int, error) {
		b, err := delta.EncodeWith(nil, "json", d)
		return len(b), err
	}
	fullOf := func(r *wire.GraphResponse) (int, error) {
		b, err := jsoncodec.AppendEncode(nil, r)
		return len(b), err
	}
	choice, _, _ := delta.Choose(base, base, 0, bytesOf, fullOf)
	fmt.Println(choice)
	next := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 1}}}
	choice, _, _ = delta.Choose(base, next, 0, bytesOf, fullOf)
	fmt.Println(choice) // the delta repeats the header and adds its check: not worth it
	// Output:
	// unchanged
	// full
}

func ExampleSession() {
	ada := wire.Node{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}}
	mr := wire.Node{Type: "MergeRequest", ID: 7, Properties: []wire.Property{wire.Prop("title", wire.String("Fix"))}}
	first := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{ada}}
	second := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{ada, mr},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "MergeRequest", ToID: 7, Type: "AUTHORED"}}}

	writer, _ := delta.NewSession(delta.SessionLimits{})
	reader, _ := delta.NewSession(delta.SessionLimits{})
	for _, r := range []*wire.GraphResponse{first, second} {
		refs := writer.Mark(r) // a document names these nodes as sent earlier
		sent := *r
		sent.Nodes = append([]wire.Node(nil), r.Nodes...)
		for _, i := range refs {
			sent.Nodes[i] = wire.Node{Type: r.Nodes[i].Type, ID: r.Nodes[i].ID}
		}
		got, err := reader.Resolve(&sent, refs, delta.Fingerprint(r))
		fmt.Println(refs, err, wire.Equal(got, r, wire.Exact))
	}
	// Output:
	// [] <nil> true
	// [0] <nil> true
}
