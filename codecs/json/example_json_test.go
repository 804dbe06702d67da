package json_test

import (
	"encoding/json"
	"fmt"

	"github.com/graphwire/graphwire/wire"
)

// A response inside a larger JSON document keeps the canonical rules: the
// float 1.0 stays 1.0, an id beyond 2^53 stays exact (as a string), and
// json.Unmarshal reads it back.
func ExampleGraphResponse_MarshalJSON() {
	r := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 9007199254740993, Properties: []wire.Property{
			wire.Prop("score", wire.Float(1)),
		}}},
		Edges: []wire.Edge{},
	}
	b, err := json.Marshal(map[string]any{"result": r})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))

	var back struct{ Result wire.GraphResponse }
	if err := json.Unmarshal(b, &back); err != nil {
		panic(err)
	}
	fmt.Println(back.Result.Nodes[0].ID, back.Result.Nodes[0].Properties[0].Value)
	// Output:
	// {"result":{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"9007199254740993","score":1.0}],"edges":[]}}
	// 9007199254740993 1.0
}

// A Value reads any JSON scalar or array: an integer is an int, a number
// with a fraction or exponent a float.
func ExampleValue_UnmarshalJSON() {
	var v wire.Value
	if err := json.Unmarshal([]byte(`[1, 1.0, "x", null, [true]]`), &v); err != nil {
		panic(err)
	}
	fmt.Println(v)
	err := json.Unmarshal([]byte(`{"a": 1}`), &v)
	fmt.Println(err)
	// Output:
	// [1,1.0,"x",null,[true]]
	// json: offset 0: "value": expected a value (null, boolean, number, string or array), found object
}

// ValueOf builds a Value from ordinary Go values and refuses what a Value
// cannot hold, saying where.
func ExampleValueOf() {
	v, err := wire.ValueOf([]any{int8(3), uint64(7), float32(0.5), "go", json.Number("12"), []string{"a"}, nil})
	fmt.Println(v, err)

	_, err = wire.ValueOf([]any{1, map[string]int{"a": 1}})
	fmt.Println(err)
	// Output:
	// [3,7,0.5,"go",12,["a"],null] <nil>
	// wire: ValueOf: [1]: unsupported type map[string]int
}
