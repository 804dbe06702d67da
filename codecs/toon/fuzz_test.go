package toon_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
)

// FuzzDecodeGraph: Decode never panics; invalid input gives a one-line
// *wire.DecodeError with a line inside the input and no response; valid
// input gives a response that encodes, round-trips (numbers by value) and
// whose encoding is a fixed point. The seed corpus is
// testdata/fuzz/FuzzDecodeGraph plus the encodings of the layout cases.
func FuzzDecodeGraph(f *testing.F) {
	for _, tc := range layoutCases {
		b, err := toon.Encode(tc.r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("format_version: x\nquery_type: search\nnodes[1]:\n  - U[1]:\n      - id: 1\nnode_order[1]: 0"))
	f.Add([]byte("format_version: x\nquery_type: aggregation\nrows[1]:\n  - [1]:\n    - u:\n        type: T\n        id: 9223372036854775807"))
	f.Add([]byte("format_version: x\nquery_type: traversal\nnodes:\n  A[1]{id}:\n    1\nnode_order[1]: 5"))
	f.Add([]byte("format_version: x\nquery_type: traversal\nedges[1|]{from|from_id|to|to_id|type|step}:\n  A|1|B|2|R|null"))
	f.Add([]byte(""))
	f.Add([]byte("format_version: x\nquery_type: traversal\nnodes: {}\nedges: []\npagination:\n  has_more: true\n  truncated: true\n  next_cursor: \"a b\\n\""))
	f.Fuzz(checkGraphDecode)
}
