package toon_test

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
)

func ExampleEncode() {
	r := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 1001, Properties: []wire.Property{
				wire.Prop("username", wire.String("ada")), wire.Prop("name", wire.String("Ada Lovelace"))}},
			{Type: "User", ID: 1002, Properties: []wire.Property{
				wire.Prop("username", wire.String("bob")), wire.Prop("name", wire.Null())}},
			{Type: "MergeRequest", ID: 9007199254740993, Properties: []wire.Property{
				wire.Prop("title", wire.String("Fix the cache")),
				wire.Prop("labels", wire.ListOf(wire.String("bug"), wire.String("type::fix")))}},
			{Type: "MergeRequest", ID: 42, Properties: []wire.Property{
				wire.Prop("title", wire.String("true"))}},
		},
		Edges: []wire.Edge{
			{From: "User", FromID: 1001, To: "MergeRequest", ToID: 9007199254740993, Type: "AUTHORED"},
			{From: "User", FromID: 1002, To: "MergeRequest", ToID: 42, Type: "REVIEWED", Depth: wire.Some[int64](1)},
		},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)},
	}
	text, err := toon.Encode(r)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))

	back, err := toon.Decode(text)
	if err != nil {
		panic(err)
	}
	fmt.Println(wire.Equal(r, back, wire.NumbersByValue))
	// Output:
	// format_version: 1.2.0
	// query_type: traversal
	// nodes:
	//   User[2]{id,username,name}:
	//     1001,ada,Ada Lovelace
	//     1002,bob,null
	//   MergeRequest[2]:
	//     - id: 9007199254740993
	//       title: Fix the cache
	//       labels[2]: bug,"type::fix"
	//     - id: 42
	//       title: "true"
	// edges[2]{from,from_id,to,to_id,type,depth}:
	//   User,1001,MergeRequest,9007199254740993,AUTHORED,null
	//   User,1002,MergeRequest,42,REVIEWED,1
	// pagination:
	//   has_more: true
	//   total_rows: 4312
	// true
}

func ExampleDecode() {
	text := []byte(`format_version: 1.2.0
query_type: aggregation
columns[1]{name,function,target}:
  merged_count,count,u
group_columns[1]{name,kind,node,entity}:
  u,node,u,User
rows[2]{u{type,id,username},merged_count}:
  User,1243277,ghost1,65555
  User,35702613,bot_a,21277`)
	r, err := toon.Decode(text)
	if err != nil {
		panic(err)
	}
	for _, row := range r.Rows {
		u, n := row[0].Node, row[1].Value
		name, _ := u.Get("username")
		fmt.Println(u.Type, u.ID, name.Text(), n.Int())
	}

	_, err = toon.Decode([]byte("format_version: 1.2.0\nquery_type: search\nnodes:\n  User[2]{id,name}:\n    1,Ada\n    two,Bob"))
	fmt.Println(err)
	// Output:
	// User 1243277 ghost1 65555
	// User 35702613 bot_a 21277
	// toon: line 6: nodes.User[1].id: expected an integer, found string "two"
}
