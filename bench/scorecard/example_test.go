package scorecard_test

import (
	"fmt"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/scorecard"
)

func Example() {
	c, _ := corpus.Find(corpus.Generate(), "text-heavy/traversal_s")
	card, err := scorecard.Build([]corpus.Case{c})
	if err != nil {
		panic(err)
	}
	for i, f := range card.Formats {
		if f.Name == "json" || f.Name == "json-pretty" {
			r := card.Cases[0].Results[i]
			fmt.Printf("%s: %d bytes, %d o200k tokens, round trip %s\n", f.Name, r.Bytes, r.Tokens[0], r.RoundTrip)
		}
	}
	// Output:
	// json: 2018 bytes, 606 o200k tokens, round trip exact
	// json-pretty: 2889 bytes, 938 o200k tokens, round trip exact
}
