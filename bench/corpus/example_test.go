package corpus_test

import (
	"fmt"

	"github.com/graphwire/graphwire/bench/corpus"
)

func Example() {
	for _, c := range corpus.Generate() {
		if c.Name == corpus.ADRCase {
			fmt.Println(c.ID(), c.Response.QueryType)
			fmt.Println(corpus.Summary(c.Response))
		}
	}
	// Output:
	// lean/traversal_adr_50u_200mr traversal
	// 200 MergeRequest, 50 User; 200 edges
	// dated/traversal_adr_50u_200mr traversal
	// 200 MergeRequest, 50 User; 200 edges
	// text-heavy/traversal_adr_50u_200mr traversal
	// 200 MergeRequest, 50 User; 200 edges
}
