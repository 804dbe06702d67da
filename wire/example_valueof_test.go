package wire_test

import (
	"errors"
	"fmt"
	"time"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/wire"
)

// Role is a type with a text form: ValueOf and NodeOf use its MarshalText,
// as encoding/json does.
type Role int

func (r Role) MarshalText() ([]byte, error) {
	return []byte([...]string{"guest", "member", "admin"}[r]), nil
}

// Audit is embedded in User: its fields count as User's.
type Audit struct {
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated,omitzero"`
}

// User is a service's own type, tagged for encoding/json.
type User struct {
	ID     int64    `json:"-"` // the node's id, passed to NodeOf
	Name   string   `json:"name"`
	Email  string   `json:"email,omitempty"`
	Role   Role     `json:"role"`
	Groups []string `json:"groups"`
	Audit
	password string
}

// printNode prints a response holding n in canonical JSON.
func printNode(n wire.Node, err error) {
	if err != nil {
		fmt.Println(err)
		return
	}
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{n}}
	b, err := jsoncodec.AppendEncode(nil, r)
	fmt.Println(string(b), err)
}

// NodeOf builds a node from a struct tagged for encoding/json: the same
// names, the same order, the same values encoding/json would write.
func ExampleNodeOf() {
	u := User{ID: 7, Name: "Ada", Role: 2, Groups: []string{"eng"}, password: "x",
		Audit: Audit{Created: time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)}}
	printNode(wire.NodeOf("User", u.ID, u))

	// A field that would be named "id" is refused, naming the field.
	type row struct {
		ID   int64 `json:"id"`
		Name string
	}
	_, err := wire.NodeOf("User", 7, row{7, "Ada"})
	var ve *wire.ValueOfError
	fmt.Println(errors.As(err, &ve), ve.Field)
	// Output:
	// {"format_version":"1","query_type":"search","nodes":[{"type":"User","id":"7","name":"Ada","role":"admin","groups":["eng"],"created":"2025-03-01T09:30:00Z"}],"edges":[]} <nil>
	// true ID
}

// NodeOf builds a node from a map; its properties come in sorted key
// order, so the node is the same whatever Go's map order.
func ExampleNodeOf_map() {
	printNode(wire.NodeOf("Repo", 12, map[string]any{
		"stars":    1200,
		"name":     "graphwire",
		"archived": false,
		"score":    0.5,
		"topics":   []string{"graphs", "go"},
	}))
	// Output:
	// {"format_version":"1","query_type":"search","nodes":[{"type":"Repo","id":"12","archived":false,"name":"graphwire","score":0.5,"stars":1200,"topics":["graphs","go"]}],"edges":[]} <nil>
}

// A time.Time gives the RFC 3339 string encoding/json writes, with the
// fraction of a second it has and its zone offset.
func ExampleValueOf_time() {
	for _, t := range []time.Time{
		time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC),
		time.Date(2025, 3, 1, 9, 30, 0, 250_000_000, time.FixedZone("CET", 3600)),
	} {
		v, err := wire.ValueOf(t)
		fmt.Println(v, err)
	}
	_, err := wire.ValueOf(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println(err)
	// Output:
	// "2025-03-01T09:30:00Z" <nil>
	// "2025-03-01T09:30:00.25+01:00" <nil>
	// wire: ValueOf: time.Time has no RFC 3339 form: Time.MarshalText: year outside of range [0,9999]
}

// A type with a MarshalText method gives its text as a string, in a list
// too; a MarshalJSON method, when there is one, comes first, as in
// encoding/json.
func ExampleValueOf_textMarshaler() {
	v, err := wire.ValueOf([]Role{0, 2})
	fmt.Println(v, err)
	b, err := v.MarshalJSON()
	fmt.Println(string(b), err)
	// Output:
	// ["guest","admin"] <nil>
	// ["guest","admin"] <nil>
}

// A nil slice gives null and an empty one an empty list, as encoding/json
// writes them; NodeOf keeps the difference, omitempty drops both.
func ExampleValueOf_nilSlice() {
	var none []string
	v, _ := wire.ValueOf(none)
	e, _ := wire.ValueOf([]string{})
	fmt.Println(v, e)

	type tags struct {
		Nil   []string `json:"nil"`
		Empty []string `json:"empty"`
		Omit  []string `json:"omit,omitempty"`
	}
	n, err := wire.NodeOf("T", 1, tags{Empty: []string{}, Omit: []string{}})
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{n}}
	b, _ := jsoncodec.AppendEncode(nil, r)
	fmt.Println(string(b), err)
	// Output:
	// null []
	// {"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","nil":null,"empty":[]}],"edges":[]} <nil>
}
