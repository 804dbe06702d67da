package wire_test

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// The types below exercise encoding/json's struct rules.

type Base struct {
	Created time.Time `json:"created"`
	Owner   string    `json:"owner,omitempty"`
	Hidden  string    `json:"name"` // hidden by the outer struct's "name"
}

type Extra struct {
	Score float64
	Rank  int `json:"rank,string"`
}

type audit struct { // unexported, embedded: its exported fields count
	Editor string `json:"editor"`
	secret string
}

type Project struct {
	ID        int64  `json:"-"`
	Name      string `json:"name"`
	Stars     uint16 `json:"stars"`
	Private   bool   `json:"private,omitempty"`
	Tags      []string
	Empty     []string        `json:"empty"`
	Labels    []string        `json:"labels,omitempty"`
	Level     level           `json:"level"`
	Parent    *int64          `json:"parent"`
	Due       time.Time       `json:"due,omitzero"`
	Window    *time.Time      `json:"window,omitzero"`
	Ratio     float32         `json:"ratio,string"`
	Flag      *bool           `json:"flag,string"`
	Quoted    string          `json:"quoted,string"`
	NumStr    json.Number     `json:"numstr,string"`
	NilQuoted *int            `json:"nilq,string"`
	LevelStr  level           `json:"levelstr,string"` // a MarshalText method ignores the string option
	Any       any             `json:"any"`
	Number    json.Number     `json:"number"`
	Raw       json.RawMessage `json:"raw"`
	Stamp     *ptrText        `json:"stamp"`
	Base                      // flattened
	*Extra                    // flattened when not nil
	audit                     // flattened though unexported
	internal  int
	Omitted   string `json:"omitted,omitempty"`
	ZeroCount int    `json:",omitzero"`
}

func sampleProject() Project {
	seven := int64(7)
	yes := true
	return Project{
		ID:       42,
		Name:     "graphwire",
		Stars:    120,
		Tags:     nil,
		Empty:    []string{},
		Level:    2,
		Parent:   &seven,
		Ratio:    0.25,
		Flag:     &yes,
		Quoted:   `a<b`,
		NumStr:   "12",
		internal: 1,
		Any:      []any{1, "x"},
		Number:   "12.50",
		Raw:      json.RawMessage(`[1, 2.0]`),
		Stamp:    &ptrText{"s"},
		Base:     Base{Created: when, Hidden: "hidden"},
		Extra:    &Extra{Score: 1, Rank: 9},
		audit:    audit{Editor: "ada", secret: "x"},
		Omitted:  "",
	}
}

func TestNodeOfStruct(t *testing.T) {
	p := sampleProject()
	got, err := wire.NodeOf("Project", p.ID, &p)
	if err != nil {
		t.Fatal(err)
	}
	want := wire.Node{Type: "Project", ID: 42, Properties: []wire.Property{
		wire.Prop("name", wire.String("graphwire")),
		wire.Prop("stars", wire.Int(120)),
		wire.Prop("Tags", wire.Null()),
		wire.Prop("empty", wire.ListOf()),
		wire.Prop("level", wire.String("high")),
		wire.Prop("parent", wire.Int(7)),
		wire.Prop("ratio", wire.String("0.25")),
		wire.Prop("flag", wire.String("true")),
		wire.Prop("quoted", wire.String(`"a\u003cb"`)),
		wire.Prop("numstr", wire.String("12")),
		wire.Prop("nilq", wire.Null()),
		wire.Prop("levelstr", wire.String("low")),
		wire.Prop("any", wire.ListOf(wire.Int(1), wire.String("x"))),
		wire.Prop("number", wire.Float(12.5)),
		wire.Prop("raw", wire.ListOf(wire.Int(1), wire.Float(2))),
		wire.Prop("stamp", wire.String("<s>")),
		wire.Prop("created", wire.String("2025-06-30T12:00:00.5Z")),
		wire.Prop("Score", wire.Float(1)),
		wire.Prop("rank", wire.String("9")),
		wire.Prop("editor", wire.String("ada")),
	}}
	if d := cmp.Diff(want, got, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("NodeOf (-want +got):\n%s", d)
	}

	// By value, through an interface and a pointer to a pointer: the same.
	pp := &p
	for _, in := range []any{p, any(&p), &pp} {
		again, err := wire.NodeOf("Project", p.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, again, wiretest.CmpOptions(wire.Exact)); d != "" {
			t.Fatalf("NodeOf(%T) (-want +got):\n%s", in, d)
		}
	}

	// omitzero, omitempty and a nil embedded pointer.
	p.Extra, p.Due, p.Private, p.Labels, p.ZeroCount = nil, when, true, []string{"l"}, 5
	got, err = wire.NodeOf("Project", 1, p)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for _, pr := range got.Properties {
		keys = append(keys, pr.Key)
	}
	wantKeys := []string{"name", "stars", "private", "Tags", "empty", "labels", "level", "parent", "due", "ratio", "flag", "quoted", "numstr", "nilq", "levelstr", "any", "number", "raw", "stamp", "created", "editor", "ZeroCount"}
	if d := cmp.Diff(wantKeys, keys); d != "" {
		t.Fatalf("keys (-want +got):\n%s", d)
	}
}

// jsonObject decodes the JSON object b into its keys in order and its
// values, numbers as json.Number.
func jsonObject(t rapid.TB, b []byte) ([]string, map[string]any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var keys []string
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("encoding/json wrote %s: not an object", b)
	}
	vals := map[string]any{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		k := tok.(string)
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
		vals[k] = v
	}
	return keys, vals
}

// sameAsJSON reports how v differs from j, a value encoding/json wrote
// and decoded with UseNumber, or "": an int must be the same integer, a
// float the same float64 (encoding/json writes 1.0 as 1), a list the same
// items.
func sameAsJSON(v wire.Value, j any) string {
	switch v.Kind() {
	case wire.KindNull:
		if j == nil {
			return ""
		}
	case wire.KindBool:
		if b, ok := j.(bool); ok && b == v.Bool() {
			return ""
		}
	case wire.KindString:
		if s, ok := j.(string); ok && s == v.Text() {
			return ""
		}
	case wire.KindInt:
		if n, ok := j.(json.Number); ok {
			if i, err := strconv.ParseInt(string(n), 10, 64); err == nil && i == v.Int() {
				return ""
			}
		}
	case wire.KindFloat:
		if n, ok := j.(json.Number); ok {
			if f, err := strconv.ParseFloat(string(n), 64); err == nil && math.Float64bits(f) == math.Float64bits(v.Float()) {
				return ""
			}
		}
	case wire.KindList:
		if l, ok := j.([]any); ok && len(l) == len(v.List()) {
			for i, x := range v.List() {
				if d := sameAsJSON(x, l[i]); d != "" {
					return "[" + strconv.Itoa(i) + "]" + d
				}
			}
			return ""
		}
	}
	return fmt.Sprintf(": %v (%s), encoding/json %#v", v, v.Kind(), j)
}

// NodeOf names and values the properties as encoding/json writes the
// same Go value as an object: same keys, same order, same values.
func TestNodeOfMatchesEncodingJSON(t *testing.T) {
	p := sampleProject()
	q := sampleProject()
	q.Extra, q.Due, q.Private, q.Labels, q.Window = nil, when, true, []string{"l"}, &when
	type inner struct{ A, B int }
	type shadow struct {
		inner
		B string `json:"B"`
	}
	for _, tc := range []struct {
		name string
		in   any
	}{
		{"struct", &p},
		{"struct, omitted fields, nil embedded pointer", &q},
		{"shadowed embedded field", shadow{inner{1, 2}, "b"}},
		{"map[string]any", map[string]any{"b": 1, "a": []string{"x"}, "c": nil, "ä": 2.5, "B": true, "": "empty", "t": when}},
		{"map[int]string", map[int]string{10: "ten", 9: "nine", -1: "minus"}},
		{"map[uint8]bool", map[uint8]bool{2: true, 10: false}},
		{"map[level]int", map[level]int{0: 1, 2: 3}},
		{"map[upper]int", map[upper]int{"go": 1}}, // a string kind is its string, not its text
		{"map with interface keys", map[encoding.TextMarshaler]int{level(2): 1, upper("a"): 3}},
		{"map of TextMarshaler values", map[string]level{"x": 2}},
		{"map of nil slices", map[string][]int{"nil": nil, "empty": {}}},
		{"MarshalJSON props", rawJSON(`{"z":1,"a":[2.5,"s"]}`)},
		{"empty struct", struct{}{}},
		{"tag names encoding/json refuses fall back to the Go name", stringStruct(`json:"a\"b"`, `json:"a\\b"`, `json:"ok-name_1.$"`)},
		{"tag with options only", stringStruct(`json:",omitempty"`, `json:""`)},
	} {
		t.Run(tc.name, func(t *testing.T) { nodeOfMatchesJSON(t, tc.in) })
	}
}

// nodeOfMatchesJSON checks that NodeOf gives props the keys, in order,
// and the values encoding/json writes for it.
func nodeOfMatchesJSON(t rapid.TB, props any) {
	t.Helper()
	b, err := json.Marshal(props)
	if err != nil {
		t.Fatal(err)
	}
	wantKeys, vals := jsonObject(t, b)
	n, err := wire.NodeOf("T", 1, props)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range n.Properties {
		keys = append(keys, p.Key)
		if d := sameAsJSON(p.Value, vals[p.Key]); d != "" {
			t.Errorf("property %q%s\nencoding/json: %s", p.Key, d, b)
		}
	}
	if d := cmp.Diff(wantKeys, keys); d != "" {
		t.Fatalf("keys (-encoding/json +NodeOf):\n%s\nencoding/json: %s", d, b)
	}
}

// Where NodeOf departs from encoding/json on purpose, it says so instead of
// losing data.
func TestNodeOfDepartsFromEncodingJSON(t *testing.T) {
	// Two tagged fields of one name: encoding/json drops both silently.
	two := twoTagged()
	b, err := json.Marshal(two)
	if err != nil || string(b) != `{}` {
		t.Fatalf("encoding/json wrote %s, %v", b, err)
	}
	if _, err := wire.NodeOf("T", 1, two); err == nil {
		t.Fatal("NodeOf accepted two fields named name")
	}

	// A MarshalText on the pointer, in a field reached through a value:
	// encoding/json writes the struct's fields, NodeOf uses the method.
	type holder struct{ P ptrText }
	b, err = json.Marshal(holder{ptrText{"a"}})
	if err != nil || string(b) != `{"P":{}}` {
		t.Fatalf("encoding/json wrote %s, %v", b, err)
	}
	n, err := wire.NodeOf("T", 1, holder{ptrText{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]wire.Property{wire.Prop("P", wire.String("<a>"))}, n.Properties, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestNodeOfMap(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want []wire.Property
	}{
		{"sorted bytewise", map[string]any{"b": 1, "B": 2, "a": 3.5, "ä": "x", "a1": nil}, []wire.Property{
			wire.Prop("B", wire.Int(2)), wire.Prop("a", wire.Float(3.5)), wire.Prop("a1", wire.Null()), wire.Prop("b", wire.Int(1)), wire.Prop("ä", wire.String("x")),
		}},
		{"integer keys sort as text", map[int64]bool{10: true, 9: false, -3: true}, []wire.Property{
			wire.Prop("-3", wire.Bool(true)), wire.Prop("10", wire.Bool(true)), wire.Prop("9", wire.Bool(false)),
		}},
		{"TextMarshaler keys", map[level]string{0: "a", 3: "b"}, []wire.Property{
			wire.Prop("high", wire.String("b")), wire.Prop("low", wire.String("a")),
		}},
		{"pointer-receiver TextMarshaler keys", map[ptrText]int{{"k"}: 1}, []wire.Property{wire.Prop("<k>", wire.Int(1))}},
		{"interface keys", map[interface{ MarshalText() ([]byte, error) }]int{level(2): 1, nil: 2, upper("a"): 3}, []wire.Property{
			wire.Prop("", wire.Int(2)), wire.Prop("A", wire.Int(3)), wire.Prop("high", wire.Int(1)),
		}},
		{"nil map", map[string]int(nil), nil},
		{"empty map", map[string]int{}, nil},
		{"pointer to map", &map[string][]int{"n": nil, "e": {}}, []wire.Property{wire.Prop("e", wire.ListOf()), wire.Prop("n", wire.Null())}},
		{"nil", nil, nil},
		{"nil pointer", (*Project)(nil), nil},
		{"MarshalJSON object, in order written", rawJSON(` {"z": 1, "a": 1.0} `), []wire.Property{wire.Prop("z", wire.Int(1)), wire.Prop("a", wire.Float(1))}},
		{"MarshalJSON null", rawJSON(`null`), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := wire.NodeOf("T", 1, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, n.Properties, wiretest.CmpOptions(wire.Exact)); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
	// The same map gives the same node every time, whatever Go's map order.
	m := map[string]int{}
	for i := range 100 {
		m["k"+strconv.Itoa(i)] = i
	}
	first, err := wire.NodeOf("T", 1, m)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := wire.NodeOf("T", 1, m)
		if d := cmp.Diff(first, again, wiretest.CmpOptions(wire.Exact)); d != "" {
			t.Fatalf("not deterministic (-first +again):\n%s", d)
		}
	}
}

type withID struct {
	ID   int64 `json:"id"`
	Name string
}

type withType struct {
	Kind string `json:"type"`
}

// twoTagged returns a struct { First, Second string } with both fields
// tagged json:"name", built at run time since vet rightly refuses such a
// type in source.
func twoTagged() any {
	return stringStruct(`json:"name"`, `json:"name"`)
}

// stringStruct returns a struct value with one string field per tag,
// named First, Second..., holding "a", "b"...
func stringStruct(tags ...reflect.StructTag) any {
	names := []string{"First", "Second", "Third"}
	var fs []reflect.StructField
	for i, tag := range tags {
		fs = append(fs, reflect.StructField{Name: names[i], Type: reflect.TypeFor[string](), Tag: tag})
	}
	v := reflect.New(reflect.StructOf(fs)).Elem()
	for i := range tags {
		v.Field(i).SetString(string(rune('a' + i)))
	}
	return v.Interface()
}

type Left struct{ Shared }
type Right struct{ Shared }
type Shared struct{ Note string }

type diamond struct {
	Left
	Right
}

type nested struct {
	Name  string
	Inner struct{ A int } `json:"inner"`
}

type listOfMaps struct {
	Tags []any `json:"tags"`
}

// event embeds time.Time, and with it its MarshalJSON: encoding/json
// writes an event as a time string.
type event struct {
	time.Time
	Name string
}

type badText struct {
	When time.Time `json:"when"`
}

func TestNodeOfRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want wire.ValueOfError
		text string // Error()
	}{
		{"field named id", withID{1, "x"}, wire.ValueOfError{Func: "NodeOf", Path: "id", Field: "ID", Type: "int64",
			Msg: `a field named "id": the node's own id, not a property; tag the field json:"-" and pass its value to NodeOf`},
			`wire: NodeOf: id (field ID): a field named "id": the node's own id, not a property; tag the field json:"-" and pass its value to NodeOf`},
		{"field named type", &withType{"x"}, wire.ValueOfError{Func: "NodeOf", Path: "type", Field: "Kind", Type: "string",
			Msg: `a field named "type": the node's own type, not a property; tag the field json:"-" and pass its value to NodeOf`}, ""},
		{"two fields, one name", twoTagged(), wire.ValueOfError{Func: "NodeOf", Path: "name", Field: "First", Type: "string",
			Msg: `duplicate property "name": also field Second`},
			`wire: NodeOf: name (field First): duplicate property "name": also field Second`},
		{"one type embedded twice", diamond{}, wire.ValueOfError{Func: "NodeOf", Path: "Note", Field: "Left.Shared.Note", Type: "string",
			Msg: `duplicate property "Note": also field Right.Shared.Note`}, ""},
		{"map key id", map[string]int{"a": 1, "id": 2}, wire.ValueOfError{Func: "NodeOf", Path: "id", Type: "map[string]int",
			Msg: `a map key named "id": the node's own id, not a property`}, `wire: NodeOf: id: a map key named "id": the node's own id, not a property`},
		{"map[string]any key type", map[string]any{"type": "x"}, wire.ValueOfError{Func: "NodeOf", Path: "type", Type: "map[string]interface {}",
			Msg: `a map key named "type": the node's own type, not a property`}, ""},
		{"map keys with one text", map[level]int{2: 1, 3: 2}, wire.ValueOfError{Func: "NodeOf", Path: "high", Type: "map[wire_test.level]int",
			Msg: `two map keys named "high"`}, ""},
		{"map key type", map[float64]int{1: 1}, wire.ValueOfError{Func: "NodeOf", Type: "map[float64]int",
			Msg: "map key type float64: want a string, an integer or an encoding.TextMarshaler"}, ""},
		{"struct field holding a struct", nested{}, wire.ValueOfError{Func: "NodeOf", Path: "inner", Field: "Inner", Type: "struct { A int }",
			Msg: "unsupported type struct { A int }"}, `wire: NodeOf: inner (field Inner): unsupported type struct { A int }`},
		{"map in a list field", listOfMaps{Tags: []any{"a", map[string]int{}}}, wire.ValueOfError{Func: "NodeOf", Path: "tags[1]", Field: "Tags", Type: "map[string]int",
			Msg: "unsupported type map[string]int"}, `wire: NodeOf: tags[1] (field Tags): unsupported type map[string]int`},
		{"map value", map[string]any{"m": map[string]int{}}, wire.ValueOfError{Func: "NodeOf", Path: "m", Type: "map[string]int",
			Msg: "unsupported type map[string]int"}, `wire: NodeOf: m: unsupported type map[string]int`},
		{"uint64 too big", map[string]uint64{"n": math.MaxUint64}, wire.ValueOfError{Func: "NodeOf", Path: "n", Type: "uint64",
			Msg: "18446744073709551615 (uint64) is above the int64 range"}, ""},
		{"time out of range", badText{time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC)}, wire.ValueOfError{Func: "NodeOf", Path: "when", Field: "When", Type: "time.Time",
			Msg: "time.Time has no RFC 3339 form"}, ""},
		{"props a string", "x", wire.ValueOfError{Func: "NodeOf", Type: "string",
			Msg: "props of type string: want a struct, a map or a pointer to one"}, `wire: NodeOf: props of type string: want a struct, a map or a pointer to one`},
		{"props a slice", []int{1}, wire.ValueOfError{Func: "NodeOf", Type: "[]int",
			Msg: "props of type []int: want a struct, a map or a pointer to one"}, ""},
		{"props a TextMarshaler", level(1), wire.ValueOfError{Func: "NodeOf", Type: "wire_test.level",
			Msg: "props of type wire_test.level has a MarshalText method: its text is a string, not properties"}, ""},
		{"props a time.Time", when, wire.ValueOfError{Func: "NodeOf", Type: "time.Time",
			Msg: "MarshalJSON of time.Time wrote no object of properties"}, ""},
		{"MarshalJSON promoted from time.Time", event{Name: "launch"}, wire.ValueOfError{Func: "NodeOf", Type: "wire_test.event",
			Msg: "MarshalJSON of wire_test.event wrote no object of properties (the method of embedded field Time; give that field a name)"}, ""},
		{"MarshalJSON object with id", rawJSON(`{"id":1}`), wire.ValueOfError{Func: "NodeOf", Type: "wire_test.rawJSON",
			Msg: "MarshalJSON of wire_test.rawJSON wrote no object of properties"}, ""},
		{"MarshalJSON object with a repeated key", rawJSON(`{"a":1,"a":2}`), wire.ValueOfError{Func: "NodeOf", Type: "wire_test.rawJSON",
			Msg: "MarshalJSON of wire_test.rawJSON wrote no object of properties"}, ""},
		{"MarshalJSON object and more", rawJSON(`{} 1`), wire.ValueOfError{Func: "NodeOf", Type: "wire_test.rawJSON",
			Msg: "MarshalJSON of wire_test.rawJSON wrote no object of properties"}, ""},
		{"MarshalJSON fails", failing{}, wire.ValueOfError{Func: "NodeOf", Type: "wire_test.failing",
			Msg: "MarshalJSON of wire_test.failing failed"}, `wire: NodeOf: MarshalJSON of wire_test.failing failed: cannot marshal`},
		{"pointer cycle", selfLoop(), wire.ValueOfError{Func: "NodeOf", Type: "wire_test.loop",
			Msg: "props: pointers nested deeper than 32"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := wire.NodeOf("T", 1, tc.in)
			var ve *wire.ValueOfError
			if !errors.As(err, &ve) {
				t.Fatalf("NodeOf = %v, %v; want a *wire.ValueOfError", n, err)
			}
			got := *ve
			got.Err = nil
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("error (-want +got):\n%s", d)
			}
			if tc.text != "" && err.Error() != tc.text {
				t.Fatalf("Error() = %q\nwant      %q", err.Error(), tc.text)
			}
			if d := cmp.Diff(wire.Node{}, n, wiretest.CmpOptions(wire.Exact)); d != "" {
				t.Fatalf("a node on error: %v", n)
			}
		})
	}
	// The error of a refused type is the same on every call, and a caller
	// changing it does not change the next.
	_, err1 := wire.NodeOf("T", 1, twoTagged())
	err1.(*wire.ValueOfError).Msg = "changed"
	_, err2 := wire.NodeOf("T", 1, twoTagged())
	if !strings.Contains(err2.Error(), "duplicate property") {
		t.Fatalf("second call: %v", err2)
	}
	// A method's error is reachable with errors.Is.
	if _, err := wire.NodeOf("T", 1, failing{}); !errors.Is(err, errFailing) {
		t.Fatalf("errors.Is(%v, errFailing) = false", err)
	}
}

// A node built by NodeOf goes through the canonical JSON and back.
func TestNodeOfRoundTrip(t *testing.T) {
	p := sampleProject()
	n, err := wire.NodeOf("Project", p.ID, p)
	if err != nil {
		t.Fatal(err)
	}
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{n}, Edges: []wire.Edge{}}
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := jsoncodec.DecodeWithin(b, wire.Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if d := cmp.Diff(r, back, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}

// Many goroutines building nodes of new types at once agree (run with
// -race).
func TestNodeOfConcurrent(t *testing.T) {
	p := sampleProject()
	want, err := wire.NodeOf("Project", 1, p)
	if err != nil {
		t.Fatal(err)
	}
	type fresh struct {
		A int `json:"a"`
		B []string
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 8 {
		wg.Go(func() {
			for range 50 {
				got, err := wire.NodeOf("Project", 1, p)
				if err != nil {
					errs <- err.Error()
					return
				}
				if d := cmp.Diff(want, got, wiretest.CmpOptions(wire.Exact)); d != "" {
					errs <- d
					return
				}
				if _, err := wire.NodeOf("F", 2, fresh{A: 1}); err != nil {
					errs <- err.Error()
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func BenchmarkNodeOf(b *testing.B) {
	type user struct {
		Name    string    `json:"name"`
		Email   string    `json:"email"`
		Age     int       `json:"age"`
		Score   float64   `json:"score"`
		Tags    []string  `json:"tags"`
		Created time.Time `json:"created"`
		Admin   bool      `json:"admin,omitempty"`
	}
	u := user{"Ada", "ada@example.com", 36, 0.93, []string{"math", "engines"}, when, false}
	b.Run("struct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := wire.NodeOf("User", 1, &u); err != nil {
				b.Fatal(err)
			}
		}
	})
	m := map[string]any{"name": u.Name, "email": u.Email, "age": u.Age, "score": u.Score, "tags": u.Tags, "created": u.Created}
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := wire.NodeOf("User", 1, m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json-struct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(&u); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// goValue draws an ordinary Go value that ValueOf accepts: scalars of
// several Go types, times, TextMarshalers, nil and empty slices, nested
// []any.
func goValue(t *rapid.T, depth int) any {
	choices := 12
	if depth >= 3 {
		choices = 10 // no more lists
	}
	switch rapid.IntRange(0, choices-1).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.Int64().Draw(t, "int64")
	case 3:
		return rapid.Uint32().Draw(t, "uint32")
	case 4:
		f := rapid.Float64().Draw(t, "float64")
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0
		}
		return f
	case 5:
		return rapid.Float32Range(-1e30, 1e30).Draw(t, "float32")
	case 6:
		return rapid.String().Draw(t, "string")
	case 7:
		return time.Unix(rapid.Int64Range(-62135596800+86400, 253402300799-86400).Draw(t, "sec"), rapid.Int64Range(0, 999_999_999).Draw(t, "nsec")).
			In(time.FixedZone("", 60*rapid.IntRange(-18*60, 18*60).Draw(t, "offset")))
	case 8:
		return level(rapid.IntRange(0, 3).Draw(t, "level"))
	case 9:
		return rapid.SampledFrom([][]string{nil, {}, {"a", "<b>"}}).Draw(t, "strings")
	default:
		n := rapid.IntRange(0, 4).Draw(t, "len")
		l := make([]any, n)
		for i := range l {
			l[i] = goValue(t, depth+1)
		}
		return l
	}
}

// For any map of ordinary Go values, NodeOf gives the keys and values
// encoding/json writes.
func TestNodeOfMatchesEncodingJSONProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := map[string]any{}
		for range rapid.IntRange(0, 8).Draw(t, "props") {
			k := rapid.String().Draw(t, "key")
			if k == "type" || k == "id" {
				continue
			}
			m[k] = goValue(t, 0)
		}
		nodeOfMatchesJSON(t, m)
	})
}
