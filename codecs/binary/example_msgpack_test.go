package binary_test

import (
	"bytes"
	"fmt"

	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/wire"
)

// The msgpack codec writes the same positional layout as cbor, here
// streamed to a writer; its media type names the layout and its version.
func Example_msgpack() {
	r := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Search,
		Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("score", wire.Float(1.5))}},
		},
		Edges: []wire.Edge{},
	}
	c := binary.Default(binary.Msgpack)
	var buf bytes.Buffer
	if err := c.EncodeTo(&buf, r); err != nil {
		panic(err)
	}
	// [1, "1.2.0", "search", [["User", 1, "score", 1.5]], []]; 1.5 fits a
	// float32 exactly, so it takes 4 bytes.
	fmt.Printf("%d bytes: % x\n", buf.Len(), buf.Bytes())
	fmt.Println(c.Info().MediaType)

	back, err := c.Decode(buf.Bytes())
	if err != nil {
		panic(err)
	}
	fmt.Println("same response:", wire.Equal(r, back, wire.Exact))
	// Output:
	// 35 bytes: 95 02 a5 31 2e 32 2e 30 a6 73 65 61 72 63 68 91 94 a4 55 73 65 72 01 a5 73 63 6f 72 65 ca 3f c0 00 00 90
	// application/vnd.msgpack; layout=graphwire; version=2
	// same response: true
}
