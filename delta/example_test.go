package delta_test

import (
	"fmt"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

func Example() {
	base := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Search,
		Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}},
			{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("username", wire.String("bob"))}},
		},
	}
	next := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Search,
		Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}},
			{Type: "User", ID: 3, Properties: []wire.Property{wire.Prop("username", wire.String("cy"))}},
		},
	}
	d, _ := delta.Diff(base, next)
	b, _ := delta.AppendJSON(nil, d)
	fmt.Printf("%s\n", b)

	got, err := delta.Patch(base, d)
	fmt.Println(err, wire.Equal(got, next, wire.Exact))

	_, err = delta.Patch(next, d)
	fmt.Println(err != nil)
	// Output:
	// {"graphwire_delta":1,"base":"sha256:67b04e64f68430f0fdfa80a54bd3e8effcec82fead63e0ba1644bce9dd6a4257","result":"sha256:c3175eda655f2620ca0ba0b3952b1929918e209f31eb59846f0b13b7a46a5ad1","nodes":{"removed":[{"type":"User","id":"2"}],"added_at":[1]},"content":{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"3","username":"cy"}],"edges":[]}}
	// <nil> true
	// true
}

func ExampleChoose() {
	base := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}
	bytesOf := func(d *delta.Delta) (int, error) {
		b, err := delta.AppendJSON(nil, d)
		return len(b), err
	}
	fullOf := func(r *wire.GraphResponse) (int, error) {
		b, err := wire.AppendJSON(nil, r)
		return len(b), err
	}
	choice, _, _ := delta.Choose(base, base, 0, bytesOf, fullOf)
	fmt.Println(choice)
	next := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 1}}}
	choice, _, _ = delta.Choose(base, next, 0, bytesOf, fullOf)
	fmt.Println(choice) // the delta repeats the header and adds fingerprints: not worth it
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
		refs := writer.Mark(r) // the codec writes these nodes as "sent earlier"
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
