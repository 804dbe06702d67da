package json_test

import (
	"fmt"
	"math"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

func Example() {
	resp := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Aggregation,
		Columns:       []wire.Column{{Name: "n", Function: "count", Target: wire.Some("u")}},
		GroupColumns:  []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")}},
		Rows: []wire.Row{{
			{Name: "u", Node: &wire.Node{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ana"))}}},
			{Name: "n", Value: wire.Int(3)},
		}},
	}
	b, err := json.Encode(resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))

	back, err := json.Decode(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(wire.Equal(resp, back, wire.Exact))
	// Output:
	// {"format_version":"1.2.0","query_type":"aggregation","nodes":[],"edges":[],"columns":[{"name":"n","function":"count","target":"u"}],"group_columns":[{"name":"u","kind":"node","node":"u","entity":"User"}],"rows":[{"u":{"type":"User","id":"1","properties":{"username":"ana"}},"n":3}]}
	// true
}

func ExampleAppendFloat() {
	for _, f := range []float64{1, math.Copysign(0, -1), 1e21, 5e-324, 1e-7, 0.000001, 2.5} {
		fmt.Println(string(json.AppendFloat(nil, f)))
	}
	// Output:
	// 1.0
	// -0.0
	// 1e+21
	// 5e-324
	// 1e-7
	// 0.000001
	// 2.5
}

func ExampleDecode_error() {
	_, err := json.Decode([]byte(`{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"x1"}],"edges":[]}`))
	fmt.Println(err)
	// Output:
	// json: offset 77: node id: expected a decimal int64 string, found "x1"
}
