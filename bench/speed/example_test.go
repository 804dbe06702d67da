package speed_test

import (
	"fmt"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/speed"
)

func Example() {
	c, _ := corpus.Find(corpus.Generate(), "lean/traversal_s")
	rep, err := speed.Run([]corpus.Case{c}, speed.Options{Budget: time.Millisecond, Codecs: []string{"json"}})
	if err != nil {
		panic(err)
	}
	for _, m := range rep.Measurements {
		// m.NsPerOp, m.MBPerSec, m.AllocsPerOp and m.Speedup vary by machine;
		// MB/s is always over the canonical JSON's size.
		fmt.Println(m.Case, m.Codec, m.Op, m.CanonicalBytes)
	}
	// Output:
	// lean/traversal_s encoding/json encode 1755
	// lean/traversal_s encoding/json decode 1755
	// lean/traversal_s encoding/json-any encode 1755
	// lean/traversal_s encoding/json-any decode 1755
	// lean/traversal_s goccy/go-json encode 1755
	// lean/traversal_s goccy/go-json decode 1755
	// lean/traversal_s bytedance/sonic encode 1755
	// lean/traversal_s bytedance/sonic decode 1755
	// lean/traversal_s json encode 1755
	// lean/traversal_s json decode 1755
}
