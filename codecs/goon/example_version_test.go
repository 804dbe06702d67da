package goon_test

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
)

// A codec that stamps GKG's current goon_version, serving a schema v5
// page with its cursor.
func ExampleNew_version() {
	c, err := goon.New(goon.Options{Version: "4.0.1"})
	if err != nil {
		panic(err)
	}
	r := &wire.GraphResponse{
		QueryType: wire.Traversal,
		Nodes:     []wire.Node{{Type: "MR", ID: 1, Properties: []wire.Property{wire.Prop("iid", wire.Int(42))}}},
		Pagination: &wire.Pagination{HasMore: true, Truncated: wire.Some(true),
			NextCursor: wire.Some("eyJoIjoiYWQyMTczMWM5MTZm")},
	}
	out, err := c.AppendEncode(nil, r)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Info().MediaType)
	fmt.Print(string(out))

	_, err = goon.New(goon.Options{Version: "5.0.0"})
	fmt.Println(err)
	// Output:
	// text/x-goon; version=4.0.1
	// @header
	// query_type:traversal
	// goon_version:4.0.1
	// nodes:1
	// edges:0
	// has_more:true
	// truncated:true
	// next_cursor:eyJoIjoiYWQyMTczMWM5MTZm
	// @nodes
	// MR(1):
	// 1 iid=42
	// @edges
	// goon: Options.Version "5.0.0" is not a version Decode reads (MAJOR.MINOR.PATCH, major 1 to 4)
}
