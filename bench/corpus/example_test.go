package corpus_test

import (
	"fmt"

	"github.com/graphwire/graphwire/bench/corpus"
)

func Example() {
	for _, c := range corpus.Generate() {
		if c.Name == corpus.ADRCase {
			fmt.Println(c.Name, c.Response.QueryType)
			fmt.Println(corpus.Summary(c.Response))
		}
	}
	// Output:
	// traversal_adr_50u_200mr traversal
	// 200 MergeRequest, 50 User; 200 edges
}
