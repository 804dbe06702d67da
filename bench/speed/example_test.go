package speed_test

import (
	"fmt"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/speed"
)

func Example() {
	var cases []corpus.Case
	for _, c := range corpus.Generate() {
		if c.Name == "traversal_s" {
			cases = append(cases, c)
		}
	}
	rep, err := speed.Run(cases, speed.Options{Budget: time.Millisecond, Codecs: []string{"json"}})
	if err != nil {
		panic(err)
	}
	for _, m := range rep.Measurements {
		// m.NsPerOp, m.MBPerSec, m.AllocsPerOp and m.Speedup vary by machine.
		fmt.Println(m.Case, m.Codec, m.Op, m.Bytes)
	}
	// Output:
	// traversal_s encoding/json encode 2018
	// traversal_s encoding/json decode 2018
	// traversal_s json encode 2018
	// traversal_s json decode 2018
}
