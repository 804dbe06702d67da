package wire_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// A Decoder reads json responses one after another from one stream, as
// encoding/json.Decoder reads values, and says io.EOF at the end. An
// error is the codec's, its offset counted from the stream's start.
func ExampleDecoder() {
	stream := strings.NewReader(`{"format_version":"1","query_type":"search","nodes":[{"type":"User","id":"1"}],"edges":[]}
{"format_version":"1","query_type":"search","nodes":[{"type":"User","id":"2"},{"type":"User","id":"3"}],"edges":[]}
{"format_version":"1","query_type":"walk","nodes":[],"edges":[]}`)
	d, err := wire.DefaultRegistry().NewDecoder("json", stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		r, err := d.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(len(r.Nodes), "nodes; stream offset", d.InputOffset())
	}
	// Output:
	// 1 nodes; stream offset 90
	// 2 nodes; stream offset 206
	// json: offset 242: query_type: expected one of traversal, search, neighbors, path_finding, aggregation, found "walk"
}
