package wiretest

import (
	"math"

	"github.com/graphwire/graphwire/wire"
)

// FixedResponses returns small hand-built responses that every built-in
// codec carries: a traversal, an aggregation, a path_finding result and an
// empty search, between them every value kind, optional field and
// pagination schema.
func FixedResponses() []*wire.GraphResponse {
	return []*wire.GraphResponse{
		{
			FormatVersion: "1.2.0",
			QueryType:     wire.Traversal,
			Nodes: []wire.Node{
				{Type: "User", ID: 1, Properties: []wire.Property{
					wire.Prop("username", wire.String("alice")),
					wire.Prop("name", wire.String("Alice \"A\" Liddell\nline two")),
					wire.Prop("score", wire.Float(941.131772070606)),
					wire.Prop("weight", wire.Float(2)),
					wire.Prop("iid", wire.Int(9007199254740993)),
					wire.Prop("draft", wire.Bool(true)),
					wire.Prop("labels", wire.ListOf(wire.String("bug"), wire.Int(-7), wire.Float(0.5), wire.Bool(false))),
					wire.Prop("created_at", wire.String("2026-05-08 22:55:58.467450")),
					wire.Prop("state", wire.String("true")),
				}},
				{Type: "MergeRequest", ID: math.MaxInt64, Properties: []wire.Property{
					wire.Prop("title", wire.String("Fix ünïcödé 😀, commas | pipes")),
					wire.Prop("iid", wire.Int(42)),
				}},
				{Type: "Project", ID: math.MinInt64},
			},
			Edges: []wire.Edge{
				{From: "User", FromID: 1, To: "MergeRequest", ToID: math.MaxInt64, Type: "AUTHORED"},
				{From: "MergeRequest", FromID: math.MaxInt64, To: "Project", ToID: math.MinInt64, Type: "IN_PROJECT", Depth: wire.Some[int64](2)},
			},
			Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](1234)},
		},
		{
			FormatVersion: "1.2.0",
			QueryType:     wire.Aggregation,
			Nodes:         []wire.Node{},
			Edges:         []wire.Edge{},
			GroupColumns: []wire.GroupColumn{
				{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")},
				{Name: "state", Kind: wire.GroupByProperty, Node: "mr", Property: wire.Some("state")},
			},
			Columns: []wire.Column{
				{Name: "merged_count", Function: "count", Target: wire.Some("mr")},
				{Name: "avg_score", Function: "avg", Target: wire.Some("mr"), Property: wire.Some("score")},
				{Name: "names", Function: "collect", Target: wire.Some("mr"), Property: wire.Some("title")},
			},
			Rows: []wire.Row{
				{
					{Name: "u", Node: &wire.Node{Type: "User", ID: 7, Properties: []wire.Property{wire.Prop("username", wire.String("bob"))}}},
					{Name: "state", Value: wire.String("merged")},
					{Name: "merged_count", Value: wire.Int(12)},
					{Name: "avg_score", Value: wire.Float(3.25)},
					{Name: "names", Value: wire.ListOf(wire.String("a"), wire.String("b c"))},
				},
				{
					{Name: "u", Node: &wire.Node{Type: "User", ID: 8, Properties: []wire.Property{}}},
					{Name: "state", Value: wire.Null()},
					{Name: "merged_count", Value: wire.Int(0)},
					{Name: "avg_score", Value: wire.Float(-0.125)},
					{Name: "names", Value: wire.ListOf()},
				},
			},
			Pagination: &wire.Pagination{TotalRows: wire.Some[int64](2)},
		},
		{
			FormatVersion: "1.2.0",
			QueryType:     wire.PathFinding,
			Nodes: []wire.Node{
				{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("alice"))}},
				{Type: "Group", ID: 2, Properties: []wire.Property{wire.Prop("full_path", wire.String("gitlab-org/a.b"))}},
				{Type: "Project", ID: 3},
			},
			Edges: []wire.Edge{
				{From: "User", FromID: 1, To: "Group", ToID: 2, Type: "MEMBER_OF", PathID: wire.Some[int64](0), Step: wire.Some[int64](0)},
				{From: "Group", FromID: 2, To: "Project", ToID: 3, Type: "CONTAINS", PathID: wire.Some[int64](0), Step: wire.Some[int64](1)},
			},
			Pagination: &wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("page 2: \"after\" ☃")},
		},
		{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{}, Edges: []wire.Edge{}},
	}
}
