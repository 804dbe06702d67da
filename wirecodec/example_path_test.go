package wirecodec_test

import (
	"errors"
	"fmt"
	"math"
	"strings"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wirecodec"

	"github.com/graphwire/graphwire/wire"
)

// Every place the Path documentation names, built as an encoder builds it.
func ExamplePath() {
	score := wirecodec.NodePath(3).Property(0, "score")
	fmt.Println(wirecodec.NodePath(3))
	fmt.Println(wirecodec.NodePath(3).Field("type"))
	fmt.Println(score)
	fmt.Println(wirecodec.NodePath(3).Property(2, "tags").Index(1))
	fmt.Println(wirecodec.NodePath(3).Property(4, "a b"))
	fmt.Println(wirecodec.NodePath(3).Property(5, strings.Repeat("k", wirecodec.MaxPathKeyBytes+1)))
	fmt.Println(wirecodec.NodePath(3).Property(5, "\xff"))
	fmt.Println(wirecodec.RowPath(0).Key(1, "avg"))
	fmt.Println(wirecodec.RowPath(0).Key(0, "g").Property(0, "name"))
	fmt.Println(wirecodec.GroupColumnPath(1).Field("kind"))
	fmt.Println(wirecodec.Path{}.Field("pagination").Field("next_cursor"))
	fmt.Printf("%q\n", wirecodec.Path{}) // the whole response
	// Output:
	// nodes[3]
	// nodes[3].type
	// nodes[3].properties.score
	// nodes[3].properties.tags[1]
	// nodes[3].properties["a b"]
	// nodes[3].properties[5]
	// nodes[3].properties[5]
	// rows[0].avg
	// rows[0].g.properties.name
	// group_columns[1].kind
	// pagination.next_cursor
	// ""
}

// An encoder's error names the place it refuses with a Path: here the
// second element of the list held by the property "scores" of the node at
// index 3, which JSON cannot carry.
func ExampleEncodeError() {
	r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Search}
	for i := range 4 {
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(i), Properties: []wire.Property{
			wire.Prop("name", wire.String("u")),
		}})
	}
	r.Nodes[3].Properties = append(r.Nodes[3].Properties,
		wire.Prop("scores", wire.ListOf(wire.Float(0.5), wire.Float(math.NaN()))))

	_, err := jsoncodec.AppendEncode(nil, r)
	var ee *wire.EncodeError
	if errors.As(err, &ee) {
		fmt.Println(ee.Path)
		fmt.Println(ee.Path == wirecodec.NodePath(3).Property(1, "scores").Index(1).String())
	}
	fmt.Println(err)
	// Output:
	// nodes[3].properties.scores[1]
	// true
	// json: nodes[3].properties.scores[1]: unsupported float value NaN
}
