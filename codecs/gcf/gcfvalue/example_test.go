package gcfvalue_test

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

func ExampleFromJSON() {
	text, err := gcfvalue.FromJSON([]byte(`{"service":"api","hosts":[{"name":"web-1","cpu":0.5},{"name":"web-2","cpu":0.75,"tags":["canary"]}]}`), gcfvalue.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(text))
	// Output:
	// GCF profile=generic
	// service=api
	// ## hosts [2]{name,cpu,tags}
	// web-1|0.5|~
	// @1 web-2|0.75|^
	// .tags [1]: canary
}

func ExampleUnmarshal() {
	v, err := gcfvalue.Unmarshal([]byte("GCF profile=generic\n## rows [2]{id,note}\n9007199254740993|-\n2|\"42\"\n"))
	if err != nil {
		panic(err)
	}
	js, _ := jsonvalue.Append(nil, v)
	fmt.Println(string(js))
	_, err = gcfvalue.Unmarshal([]byte("GCF profile=generic\n## rows [3]{id}\n1\n"))
	fmt.Println(err)
	// Output:
	// {"rows":[{"id":9007199254740993,"note":null},{"id":2,"note":"42"}]}
	// gcf: line 2, column 9: the array declares 3 items and holds 1: count_mismatch
}
