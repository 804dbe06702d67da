package wire_test

import (
	"fmt"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/wire"
)

// An aggregation response: "for each project p and each state of its
// merge requests mr, count the merge requests, sum their notes and collect
// their labels". Each group column and each metric column names a cell of
// every row; a node-kind group cell holds a node of type Entity, a
// property-kind one the value of Node's Property.
func ExampleGroupColumn() {
	project := &wire.Node{Type: "Project", ID: 273584, Properties: []wire.Property{wire.Prop("name", wire.String("cli"))}}
	r := &wire.GraphResponse{
		FormatVersion: "1.0",
		QueryType:     wire.Aggregation,
		GroupColumns: []wire.GroupColumn{
			{Name: "p", Kind: wire.GroupByNode, Node: "p", Entity: wire.Some("Project")},
			{Name: "mr_state", Kind: wire.GroupByProperty, Node: "mr", Property: wire.Some("state")},
		},
		Columns: []wire.Column{
			{Name: "total", Function: "count"},
			{Name: "mr_count", Function: "count", Target: wire.Some("mr")},
			{Name: "notes", Function: "sum", Target: wire.Some("mr"), Property: wire.Some("user_notes_count")},
			{Name: "labels", Function: "collect", Target: wire.Some("mr"), Property: wire.Some("labels")},
		},
		Rows: []wire.Row{
			{
				{Name: "p", Node: project},
				{Name: "mr_state", Value: wire.String("merged")},
				{Name: "total", Value: wire.Int(3708)},
				{Name: "mr_count", Value: wire.Int(3708)},
				{Name: "notes", Value: wire.Int(103824)},
				{Name: "labels", Value: wire.ListOf(wire.String("bug"), wire.String("ux"))},
			},
			{
				{Name: "p", Node: project},
				{Name: "mr_state", Value: wire.String("opened")},
				{Name: "total", Value: wire.Int(804)},
				{Name: "mr_count", Value: wire.Int(804)},
				{Name: "notes", Value: wire.Int(13668)},
				{Name: "labels", Value: wire.ListOf()},
			},
		},
	}

	// What each descriptor says, read from its fields.
	for _, g := range r.GroupColumns {
		switch g.Kind {
		case wire.GroupByNode:
			fmt.Printf("group %s: the %s node bound to %s\n", g.Name, g.Entity.V, g.Node)
		case wire.GroupByProperty:
			fmt.Printf("group %s: the value of %s.%s\n", g.Name, g.Node, g.Property.V)
		}
	}
	for _, c := range r.Columns {
		arg := "*"
		if c.Target.Valid {
			arg = c.Target.V
			if c.Property.Valid {
				arg += "." + c.Property.V
			}
		}
		fmt.Printf("metric %s: %s(%s)\n", c.Name, c.Function, arg)
	}

	// Each row is one group: its cells are named by the columns.
	for i, row := range r.Rows {
		fmt.Printf("row %d:", i)
		for _, c := range row {
			if c.Node != nil {
				fmt.Printf(" %s=%s:%d", c.Name, c.Node.Type, c.Node.ID)
				continue
			}
			fmt.Printf(" %s=%v", c.Name, c.Value)
		}
		fmt.Println()
	}

	// The descriptors as canonical JSON writes them.
	b, err := jsoncodec.AppendEncode(nil, &wire.GraphResponse{QueryType: wire.Aggregation, Columns: r.Columns[2:3], GroupColumns: r.GroupColumns})
	fmt.Println(string(b), err)
	// Output:
	// group p: the Project node bound to p
	// group mr_state: the value of mr.state
	// metric total: count(*)
	// metric mr_count: count(mr)
	// metric notes: sum(mr.user_notes_count)
	// metric labels: collect(mr.labels)
	// row 0: p=Project:273584 mr_state="merged" total=3708 mr_count=3708 notes=103824 labels=["bug","ux"]
	// row 1: p=Project:273584 mr_state="opened" total=804 mr_count=804 notes=13668 labels=[]
	// {"format_version":"","query_type":"aggregation","nodes":[],"edges":[],"columns":[{"name":"notes","function":"sum","target":"mr","property":"user_notes_count"}],"group_columns":[{"name":"p","kind":"node","node":"p","entity":"Project"},{"name":"mr_state","kind":"property","node":"mr","property":"state"}]} <nil>
}
