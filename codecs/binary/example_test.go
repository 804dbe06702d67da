package binary_test

import (
	"bytes"
	"fmt"

	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/wire"
)

func Example() {
	r := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}},
			{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("username", wire.String("bob"))}},
		},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 2, Type: "FOLLOWS"}},
	}
	b, err := wire.EncodeWith("cbor", r)
	if err != nil {
		panic(err)
	}
	// [2, "1.2.0", "traversal", [["User", 1, "username", "ada"], [1, 2, 2, "bob"]],
	//  [[1, 1, 1, 2, "FOLLOWS"]]]: "User" is table entry 1, "username" entry 2.
	fmt.Printf("%d bytes: % x\n", len(b), b)

	back, err := wire.DecodeWith("cbor", b)
	if err != nil {
		panic(err)
	}
	fmt.Println("same response:", wire.Equal(r, back, wire.Exact))

	// The same layout in msgpack, streamed to a writer; the media type
	// names the layout and its version.
	mp := binary.Default(binary.Msgpack)
	var buf bytes.Buffer
	if err := mp.EncodeTo(&buf, r); err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes: % x\n", buf.Len(), buf.Bytes())
	fmt.Println(mp.Info().MediaType)

	// Hostile bytes: an array that claims 2^32 elements.
	_, err = binary.Decode(binary.CBOR, []byte{0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0})
	fmt.Println(err)
	// Output:
	// 61 bytes: 85 02 65 31 2e 32 2e 30 69 74 72 61 76 65 72 73 61 6c 82 84 64 55 73 65 72 01 68 75 73 65 72 6e 61 6d 65 63 61 64 61 84 01 02 02 63 62 6f 62 81 85 01 01 01 02 67 46 4f 4c 4c 4f 57 53
	// same response: true
	// 61 bytes: 95 02 a5 31 2e 32 2e 30 a9 74 72 61 76 65 72 73 61 6c 92 94 a4 55 73 65 72 01 a8 75 73 65 72 6e 61 6d 65 a3 61 64 61 94 01 02 02 a3 62 6f 62 91 95 01 01 01 02 a7 46 4f 4c 4c 4f 57 53
	// application/vnd.msgpack; layout=graphwire; version=2
	// cbor: offset 0: array of 4294967296 items exceeds the limit of 1048576
}
