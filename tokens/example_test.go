package tokens_test

import (
	"fmt"

	"github.com/graphwire/graphwire/tokens"
)

func Example() {
	text := []byte(`42 iid=101 state=merged title="Fix auth bug"`)
	for _, name := range tokens.Names() {
		c, err := tokens.Get(name)
		if err != nil {
			panic(err)
		}
		n, err := c.Count(text)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-6s %2d estimate=%v\n", c.Name(), n, c.Estimate())
	}
	// Output:
	// o200k  13 estimate=false
	// cl100k 13 estimate=false
	// chars  12 estimate=true
	// words  14 estimate=true
}
