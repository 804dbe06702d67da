package toonvalue_test

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
)

func Example() {
	users := []jsonvalue.Value{}
	for i, name := range []string{"Ada", "Bob"} {
		u := jsonvalue.NewObject(3)
		u.Add("id", jsonvalue.Int(int64(i+1)))
		u.Add("name", name)
		u.Add("admin", i == 0)
		users = append(users, u)
	}
	doc := jsonvalue.NewObject(2)
	doc.Add("users", users)
	doc.Add("tags", []jsonvalue.Value{"graph", "wire", "true"})

	text, err := toonvalue.Marshal(doc, toonvalue.EncodeOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))

	back, err := toonvalue.Unmarshal(text, toonvalue.DecodeOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(jsonvalue.Equal(doc, back))
	// Output:
	// users[2]{id,name,admin}:
	//   1,Ada,true
	//   2,Bob,false
	// tags[3]: graph,wire,"true"
	// true
}

func ExampleFromJSON() {
	text, err := toonvalue.FromJSON([]byte(`{"orders":[{"id":1,"customer":{"name":"Ada","country":"DK"}},{"id":2,"customer":{"name":"Bob","country":"UK"}}],"big":9007199254740993}`), toonvalue.EncodeOptions{Delimiter: toonvalue.Pipe})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))
	// Output:
	// orders[2|]{id|customer{name|country}}:
	//   1|Ada|DK
	//   2|Bob|UK
	// big: 9007199254740993
}

func ExampleUnmarshal_error() {
	_, err := toonvalue.Unmarshal([]byte("items[3]: a,b"), toonvalue.DecodeOptions{})
	fmt.Println(err)
	// Output:
	// toon: line 1, column 11: inline array declares 3 values but has 2
}
