package codecs_test

import (
	"fmt"
	"math"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
)

// One blank import registers every built-in codec; Info says what each
// keeps on a round trip and whether it is text.
func Example() {
	for _, info := range wire.DefaultRegistry().List() {
		kind := "text"
		if info.Binary {
			kind = "binary"
		}
		fmt.Printf("%-7s %-6s %-16s %s\n", info.Name, kind, info.Fidelity, info.MediaType)
	}
	// Output:
	// cbor    binary exact            application/cbor; layout=graphwire; version=2
	// gcf     text   numbers-by-value application/vnd.gcf+text
	// goon    text   lossy            text/x-goon; version=1.0.0
	// json    text   exact            application/json
	// msgpack binary exact            application/vnd.msgpack; layout=graphwire; version=2
	// toon    text   numbers-by-value text/toon
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// Every built-in streams: EncodeTo writes the encoding to an io.Writer as
// it is produced, after checking the response, so an error means nothing
// was written.
func Example_stream() {
	r := &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}},
			{Type: "Project", ID: 7, Properties: []wire.Property{wire.Prop("stars", wire.Int(42))}},
		},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "Project", ToID: 7, Type: "OWNS"}},
	}
	for _, info := range wire.List() {
		var w countingWriter
		if err := wire.DefaultRegistry().EncodeTo(info.Name, &w, r); err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d bytes\n", info.Name, w.n)
	}

	// JSON cannot carry a NaN: the error comes before any byte is written.
	r.Nodes[1].Properties = append(r.Nodes[1].Properties, wire.Prop("ratio", wire.Float(math.NaN())))
	var w countingWriter
	err := wire.DefaultRegistry().EncodeTo("json", &w, r)
	fmt.Printf("%v (%d bytes written)\n", err, w.n)
	// Output:
	// cbor: 68 bytes
	// gcf: 213 bytes
	// goon: 155 bytes
	// json: 223 bytes
	// msgpack: 67 bytes
	// toon: 179 bytes
	// json: nodes[1].properties.ratio: unsupported float value NaN (0 bytes written)
}
