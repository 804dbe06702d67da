package fit_test

import (
	"fmt"
	"os"

	_ "github.com/graphwire/graphwire/codecs" // the built-in codecs
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
)

// Page through the ADR case (50 users, 200 merge requests, 200 edges) in
// GOON, 2,000 o200k tokens at a time.
func Example() {
	data, err := os.ReadFile("../bench/corpus/text-heavy/traversal_adr_50u_200mr.json")
	if err != nil {
		panic(err)
	}
	resp, err := wire.DecodeWith("json", data)
	if err != nil {
		panic(err)
	}
	cursor := ""
	for {
		res, err := fit.Page(resp, fit.Options{Codec: "goon", Budget: 2000, Cursor: cursor})
		if err != nil {
			panic(err)
		}
		st := res.Stats
		fmt.Printf("tokens=%d nodes=%d edges=%d of %d/%d\n",
			st.PageTokens, st.Nodes.Kept, st.Edges.Kept, st.Nodes.Total, st.Edges.Total)
		if !st.Truncated { // the last page; its pagination is the response's own
			break
		}
		cursor = res.Page.Pagination.NextCursor.V
	}
	// Output:
	// tokens=1993 nodes=65 edges=15 of 250/200
	// tokens=1979 nodes=32 edges=32 of 250/200
	// tokens=1932 nodes=30 edges=30 of 250/200
	// tokens=1967 nodes=31 edges=31 of 250/200
	// tokens=1967 nodes=29 edges=29 of 250/200
	// tokens=1997 nodes=32 edges=32 of 250/200
	// tokens=1898 nodes=31 edges=31 of 250/200
}
