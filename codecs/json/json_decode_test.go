package json_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestDecodeBeyond2To53 is the case JavaScript readers get wrong: an id and
// a property one above 2^53 keep every digit through decode and encode.
func TestDecodeBeyond2To53(t *testing.T) {
	const in = `{"format_version":"1.2.0","query_type":"traversal","nodes":[{"type":"Project","id":"9007199254740993","big":9007199254740993,"neg":-9007199254740993}],` +
		`"edges":[{"from":"Project","from_id":"9007199254740993","to":"Project","to_id":"-9007199254740993","type":"FORKED_FROM"}]}`
	r := decodeCanonical(t, []byte(in))
	n := r.Nodes[0]
	if n.ID != 9007199254740993 {
		t.Errorf("id = %d", n.ID)
	}
	if v, _ := n.Get("big"); v.Kind() != wire.KindInt || v.Int() != 9007199254740993 {
		t.Errorf("big = %v", v)
	}
	if v, _ := n.Get("neg"); v.Kind() != wire.KindInt || v.Int() != -9007199254740993 {
		t.Errorf("neg = %v", v)
	}
	if e := r.Edges[0]; e.FromID != 9007199254740993 || e.ToID != -9007199254740993 {
		t.Errorf("edge ids = %d, %d", e.FromID, e.ToID)
	}
}

func TestDecodeNumbers(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		lit  string
		want wire.Value
	}{
		{"0", wire.Int(0)},
		{"-0", wire.Int(0)},
		{"1", wire.Int(1)},
		{"-1", wire.Int(-1)},
		{"9223372036854775807", wire.Int(math.MaxInt64)},
		{"-9223372036854775808", wire.Int(math.MinInt64)},
		{"1.0", wire.Float(1)},
		{"1.5", wire.Float(1.5)},
		{"0.0", wire.Float(0)},
		{"-0.0", wire.Float(negZero)},
		{"1e2", wire.Float(100)},
		{"1E2", wire.Float(100)},
		{"1e+21", wire.Float(1e21)},
		{"1e-7", wire.Float(1e-7)},
		{"5e-324", wire.Float(5e-324)},
		{"9223372036854775808.0", wire.Float(9223372036854775808.0)},
		{"1e-400", wire.Float(0)}, // underflows to zero, as ParseFloat does
		{"0.1", wire.Float(0.1)},
		{"12345678901234567890e-10", wire.Float(1234567890.1234567890)},
	}
	for _, tc := range tests {
		r, err := decodeJSON([]byte(doc(`{"type":"T","id":"1","n":` + tc.lit + `}`)))
		if err != nil {
			t.Errorf("%s: %v", tc.lit, err)
			continue
		}
		got, _ := r.Nodes[0].Get("n")
		if !got.Equal(tc.want) {
			t.Errorf("%s decodes to %v, want %v", tc.lit, got, tc.want)
		}
	}
}

func TestDecodeStrings(t *testing.T) {
	tests := []struct {
		name, lit, want string
	}{
		{"plain", `"abc"`, "abc"},
		{"escapes", `"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{"unicode escape", `"\u00e9\u00E9"`, "éé"},
		{"nul escape", `"\u0000"`, "\x00"},
		{"surrogate pair", `"\ud83d\ude00"`, "😀"},
		{"lone high surrogate", `"\ud83dx"`, "\ufffdx"},
		{"lone low surrogate", `"\ude00"`, "\ufffd"},
		{"high surrogate then non-surrogate escape", `"\ud83d\u0041"`, "\ufffdA"},
		{"two high surrogates", `"\ud83d\ud83d\ude00"`, "\ufffd😀"},
		{"raw UTF-8", `"日本語 😀"`, "日本語 😀"},
		{"invalid byte", "\"a\xffb\"", "a\ufffdb"},
		{"invalid byte after an escape", "\"\\n\xff\"", "\n\ufffd"},
		{"DEL raw", "\"\x7f\"", "\x7f"},
		{"U+2028 raw", "\"\u2028\"", "\u2028"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := decodeJSON([]byte(doc(`{"type":"T","id":"1","s":` + tc.lit + `}`)))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := r.Nodes[0].Get("s")
			if got.Kind() != wire.KindString || got.Text() != tc.want {
				t.Errorf("%s decodes to %v, want %q", tc.lit, got, tc.want)
			}
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name, in string
		want     *wire.GraphResponse
	}{
		{"whitespace everywhere", " \t\r\n{ \"query_type\" : \"search\" , \"format_version\":\"\"," +
			"\n\"edges\" : [ ] , \"nodes\" : [ { \"id\" : \"1\" , \"type\" : \"T\" , \"a\" : [ 1 , null ] } ] } \n\t ",
			&wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{
				wire.Prop("a", wire.ListOf(wire.Int(1), wire.Null())),
			}}}}},
		{"properties around type and id keep their order", doc(`{"z":1,"type":"T","m":2,"id":"5","a":3}`),
			&wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{{Type: "T", ID: 5, Properties: []wire.Property{
				wire.Prop("z", wire.Int(1)), wire.Prop("m", wire.Int(2)), wire.Prop("a", wire.Int(3)),
			}}}}},
		{"escaped key", doc(`{"type":"T","id":"1","\u006bey":true}`),
			&wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{
				wire.Prop("key", wire.Bool(true)),
			}}}}},
		{"negative and zero ids", doc(`{"type":"T","id":"-0"},{"type":"T","id":"-42"}`),
			&wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{{Type: "T", ID: 0}, {Type: "T", ID: -42}}}},
		{"search query type", `{"format_version":"1.2.0","query_type":"search","nodes":[],"edges":[]}`,
			&wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}},
		{"every optional list present and empty", `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"columns":[],"group_columns":[],"rows":[]}`,
			&wire.GraphResponse{FormatVersion: "1", QueryType: wire.Aggregation, Columns: []wire.Column{}, GroupColumns: []wire.GroupColumn{}, Rows: []wire.Row{}}},
		{"node reference with empty properties", `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"rows":[{"u":{"properties":{},"id":"3","type":"U"}}]}`,
			&wire.GraphResponse{FormatVersion: "1", QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "u", Node: &wire.Node{Type: "U", ID: 3}}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := decodeJSON([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := wiretest.Diff(tc.want, r, wire.Exact); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeErrors: every kind of bad input gives a *wire.DecodeError at
// the byte where the problem is, with a message saying what.
func TestDecodeErrors(t *testing.T) {
	node := func(s string) string { return doc(s) }
	const ok = `{"format_version":"1.2.0","query_type":"traversal","nodes":[],"edges":[]}`
	agg := func(rest string) string {
		return `{"format_version":"1.2.0","query_type":"aggregation","nodes":[],"edges":[]` + rest + `}`
	}
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	// The offset of the first node's body in doc(...).
	nodeAt := len(doc(""))
	nodeAt -= len(`],"edges":[]}`)

	tests := []struct {
		name   string
		in     string
		offset int    // -1: do not check the offset
		substr string // in the message
	}{
		// Syntax.
		{"empty input", "", 0, "expected response object, found end of input"},
		{"only whitespace", " \n", 2, "end of input"},
		{"array at the top", "[]", 0, "expected response object, found array"},
		{"string at the top", `"x"`, 0, "found string"},
		{"null at the top", "null", 0, "found null"},
		{"byte order mark twice", "\ufeff\ufeff" + ok, 3, "byte 0xef"},
		{"unterminated string", `{"format_version":"1.2`, 22, "unterminated string"},
		{"control character in string", "{\"format_version\":\"a\nb\"", 20, "control character 0xa"},
		{"invalid escape", `{"format_version":"\x"`, 19, `invalid escape \x`},
		{"short unicode escape", `{"format_version":"\u12"}`, 19, `invalid escape: \u needs four hex digits`},
		{"missing colon", `{"format_version" "1"}`, 18, "expected ':'"},
		{"missing comma", `{"format_version":"1" "query_type":"search"}`, 22, "expected ',' or '}'"},
		{"trailing comma in object", `{"format_version":"1",}`, 22, "expected object key"},
		{"trailing comma in array", node(`{"type":"T","id":"1","l":[1,]}`), nodeAt + 28, "a value"},
		{"single quotes", `{'format_version':'1'}`, 1, "expected object key"},
		{"unquoted key", `{format_version:"1"}`, 1, "expected object key"},
		{"leading zero", node(`{"type":"T","id":"1","n":01}`), nodeAt + 26, "expected ',' or '}'"},
		{"plus sign", node(`{"type":"T","id":"1","n":+1}`), nodeAt + 25, "a value"},
		{"bare minus", node(`{"type":"T","id":"1","n":-}`), nodeAt + 26, "digit"},
		{"dot without digits", node(`{"type":"T","id":"1","n":1.}`), nodeAt + 27, "digit"},
		{"exponent without digits", node(`{"type":"T","id":"1","n":1e}`), nodeAt + 27, "digit"},
		{"hex number", node(`{"type":"T","id":"1","n":0x1F}`), nodeAt + 26, "expected ',' or '}'"},
		{"NaN literal", node(`{"type":"T","id":"1","n":NaN}`), nodeAt + 25, "a value"},
		{"Infinity literal", node(`{"type":"T","id":"1","n":Infinity}`), nodeAt + 25, "a value"},
		{"literal typo", node(`{"type":"T","id":"1","n":nul}`), nodeAt + 25, "a value"},
		{"true prefix", node(`{"type":"T","id":"1","n":truex}`), nodeAt + 29, "expected ',' or '}'"},
		{"float out of range", node(`{"type":"T","id":"1","n":1e400}`), nodeAt + 25, "out of float64 range"},

		// Trailing data.
		{"trailing data", ok + "x", len(ok), "unexpected data after the response"},
		{"second document", ok + ok, len(ok), "unexpected data after the response"},
		{"trailing comma", ok + " ,", len(ok) + 1, "unexpected data after the response"},
		{"trailing NUL", ok + "\x00", len(ok), "byte 0x0"},

		// Nesting.
		{"10,000-deep lists in a property", node(`{"type":"T","id":"1","l":` + deep + `}`), nodeAt + 25 + 32, "lists nested more than 32 deep"},
		{"10,000-deep lists in a row", agg(`,"rows":[{"c":` + deep + `}]}`), -1, "lists nested more than 32 deep"},
		{"10,000-deep lists at the top", deep, 0, "expected response object"},
		{"10,000-deep objects at the top", strings.Repeat(`{"a":`, 10000), 1, "unknown top-level field \"a\""},
		{"deep objects in a property", node(`{"type":"T","id":"1","o":` + strings.Repeat(`{"a":`, 10000) + `}`), nodeAt + 25, "found object"},

		// Top level.
		{"unknown top-level field", `{"format_version":"1.2.0","extra":1}`, 26, `unknown top-level field "extra"`},
		{"top-level field in another case", `{"Format_Version":"1.2.0"}`, 1, "unknown top-level field"},
		{"duplicate top-level field", `{"nodes":[],"nodes":[]}`, 12, `duplicate field "nodes"`},
		{"missing nodes", `{"format_version":"1","query_type":"search","edges":[]}`, 55, `missing required field "nodes"`},
		{"missing edges", `{"format_version":"1","query_type":"search","nodes":[]}`, 55, `missing required field "edges"`},
		{"missing query_type", `{"format_version":"1","nodes":[],"edges":[]}`, 44, `missing required field "query_type"`},
		{"missing format_version", `{"query_type":"search","nodes":[],"edges":[]}`, 45, `missing required field "format_version"`},
		{"empty object", `{}`, 2, "missing required field"},
		{"unknown query type", `{"query_type":"graph"}`, 14, `query_type: expected one of`},
		{"query type in another case", `{"query_type":"Traversal"}`, 14, `found "Traversal"`},

		// Wrong types.
		{"format_version a number", `{"format_version":1}`, 18, "expected a string for format_version, found number"},
		{"format_version null", `{"format_version":null}`, 18, "found null"},
		{"query_type a number", `{"query_type":1}`, 14, "found number"},
		{"nodes an object", `{"nodes":{}}`, 9, "expected nodes array, found object"},
		{"nodes null", `{"nodes":null}`, 9, "expected nodes array, found null"},
		{"edges a string", `{"edges":"[]"}`, 9, "expected edges array, found string"},
		{"node an array", `{"nodes":[[]]}`, 10, "expected node object, found array"},
		{"node type a number", node(`{"type":1,"id":"1"}`), nodeAt + 8, "a string for node type"},
		{"node type null", node(`{"type":null,"id":"1"}`), nodeAt + 8, "found null"},
		{"property an object", node(`{"type":"T","id":"1","p":{}}`), nodeAt + 25, `"p": expected a value`},
		{"columns an object", agg(`,"columns":{}`), -1, "expected columns array"},
		{"column name a number", agg(`,"columns":[{"name":1,"function":"count"}]`), -1, "a string for column name"},
		{"column target null", agg(`,"columns":[{"name":"n","function":"count","target":null}]`), -1, "a string for column target"},
		{"group kind unknown", agg(`,"group_columns":[{"name":"u","kind":"edge","node":"u"}]`), -1, `expected "node" or "property", found "edge"`},
		{"group kind a bool", agg(`,"group_columns":[{"name":"u","kind":true,"node":"u"}]`), -1, "a string for group column kind"},
		{"rows an object", agg(`,"rows":{}`), -1, "expected rows array"},
		{"row an array", agg(`,"rows":[[1]]`), -1, "expected row object, found array"},
		{"node reference an array in properties", agg(`,"rows":[{"u":{"type":"U","id":"1","properties":[]}}]`), -1, "expected properties object, found array"},
		{"node reference property an object", agg(`,"rows":[{"u":{"type":"U","id":"1","properties":{"a":{}}}}]`), -1, "found object"},
		{"edge depth a string", `{"edges":[{"depth":"1"}]}`, 19, "an integer for edge depth"},
		{"edge depth a float", `{"edges":[{"depth":1.0}]}`, 19, "edge depth: expected an integer, found 1.0"},
		{"edge step an exponent", `{"edges":[{"step":1e2}]}`, 18, "expected an integer, found 1e2"},
		{"pagination an array", `{"pagination":[]}`, 14, "expected pagination object"},
		{"has_more a string", `{"pagination":{"has_more":"true"}}`, 26, "boolean for pagination has_more"},
		{"has_more a number", `{"pagination":{"has_more":1}}`, 26, "boolean"},
		{"total_rows a float", `{"pagination":{"has_more":true,"total_rows":1.0}}`, 44, "expected an integer, found 1.0"},

		// Ids.
		{"id a number", node(`{"type":"T","id":1}`), nodeAt + 17, "expected a decimal string for node id, found number"},
		{"id not numeric", node(`{"type":"T","id":"x1"}`), nodeAt + 17, `node id: expected a decimal int64 string, found "x1"`},
		{"id empty", node(`{"type":"T","id":""}`), nodeAt + 17, `found ""`},
		{"id with a space", node(`{"type":"T","id":" 1"}`), nodeAt + 17, `found " 1"`},
		{"id with a plus", node(`{"type":"T","id":"+1"}`), nodeAt + 17, `found "+1"`},
		{"id with a leading zero", node(`{"type":"T","id":"01"}`), nodeAt + 17, `found "01"`},
		{"id a float", node(`{"type":"T","id":"1.0"}`), nodeAt + 17, `found "1.0"`},
		{"id in exponent form", node(`{"type":"T","id":"1e3"}`), nodeAt + 17, `found "1e3"`},
		{"id escaped digits", node(`{"type":"T","id":"\u0031"}`), nodeAt + 17, `found "1"`},
		{"id beyond int64", node(`{"type":"T","id":"9223372036854775808"}`), nodeAt + 17, `found "9223372036854775808"`},
		{"id below int64", node(`{"type":"T","id":"-9223372036854775809"}`), nodeAt + 17, "expected a decimal int64 string"},
		{"id far too long", node(`{"type":"T","id":"` + strings.Repeat("9", 100) + `"}`), nodeAt + 17, "expected a decimal int64 string"},
		{"from_id not numeric", `{"edges":[{"from_id":"abc"}]}`, 21, `edge from_id: expected a decimal int64 string, found "abc"`},
		{"to_id a number", `{"edges":[{"to_id":5}]}`, 19, "a decimal string for edge to_id"},
		{"node reference id not numeric", agg(`,"rows":[{"u":{"type":"U","id":"u1","properties":{}}}]`), -1, `node reference id: expected a decimal int64 string, found "u1"`},

		// Integers beyond int64 name their field.
		{"property beyond int64", node(`{"type":"T","id":"1","stars":9223372036854775808}`), nodeAt + 29, `"stars": integer 9223372036854775808 is out of int64 range`},
		{"property below int64", node(`{"type":"T","id":"1","stars":-9223372036854775809}`), nodeAt + 29, `"stars": integer -9223372036854775809 is out of int64 range`},
		{"list element beyond int64", node(`{"type":"T","id":"1","l":[1,99999999999999999999]}`), nodeAt + 28, `"l": integer 99999999999999999999 is out of int64 range`},
		{"row cell beyond int64", agg(`,"rows":[{"count":18446744073709551616}]`), -1, `"count": integer 18446744073709551616 is out of int64 range`},
		{"depth beyond int64", `{"edges":[{"depth":9223372036854775808}]}`, 19, "edge depth: integer 9223372036854775808 is out of int64 range"},
		{"total_rows beyond int64", `{"pagination":{"total_rows":9223372036854775808}}`, 28, "pagination total_rows: integer 9223372036854775808 is out of int64 range"},

		// Nodes and other objects.
		{"node without type", node(`{"id":"1"}`), nodeAt, `node: missing "type"`},
		{"node without id", node(`{"type":"T"}`), nodeAt, `node: missing "id"`},
		{"empty node", node(`{}`), nodeAt, "node: missing"},
		{"duplicate node type", node(`{"type":"T","type":"U","id":"1"}`), nodeAt + 12, `duplicate field "type"`},
		{"duplicate node id", node(`{"type":"T","id":"1","id":"2"}`), nodeAt + 21, `duplicate field "id"`},
		{"duplicate property", node(`{"type":"T","id":"1","a":1,"a":2}`), nodeAt + 27, `duplicate property "a"`},
		{"edge without from", `{"edges":[{"from_id":"1","to":"T","to_id":"2","type":"R"}]}`, 10, `edge: missing "from"`},
		{"edge without type", `{"edges":[{"from":"T","from_id":"1","to":"T","to_id":"2"}]}`, 10, `edge: missing "type"`},
		{"unknown edge field", `{"edges":[{"weight":1}]}`, 11, `edge: unknown field "weight"`},
		{"duplicate edge field", `{"edges":[{"to":"a","to":"b"}]}`, 20, `edge: duplicate field "to"`},
		{"column without function", agg(`,"columns":[{"name":"n"}]`), -1, `column: missing "function"`},
		{"unknown column field", agg(`,"columns":[{"name":"n","function":"count","alias":"x"}]`), -1, `column: unknown field "alias"`},
		{"group column without node", agg(`,"group_columns":[{"name":"u","kind":"node"}]`), -1, `group column: missing "node"`},
		{"unknown group column field", agg(`,"group_columns":[{"name":"u","kind":"node","node":"u","x":1}]`), -1, `group column: unknown field "x"`},
		{"duplicate row cell", agg(`,"rows":[{"c":1,"c":2}]`), -1, `row: duplicate cell "c"`},
		{"node reference without properties", agg(`,"rows":[{"u":{"type":"U","id":"1"}}]`), -1, `node reference: missing "properties"`},
		{"node reference without id", agg(`,"rows":[{"u":{"type":"U","properties":{}}}]`), -1, `node reference: missing "id"`},
		{"node reference unknown field", agg(`,"rows":[{"u":{"type":"U","id":"1","properties":{},"x":1}}]`), -1, `node reference: unknown field "x"`},
		{"node reference flattened", agg(`,"rows":[{"u":{"type":"U","id":"1","name":"x"}}]`), -1, `node reference: unknown field "name"`},
		{"node reference property named id", agg(`,"rows":[{"u":{"type":"U","id":"1","properties":{"id":2}}}]`), -1, `node reference: property named "id"`},
		{"node reference property named type", agg(`,"rows":[{"u":{"type":"U","id":"1","properties":{"type":"V"}}}]`), -1, `node reference: property named "type"`},
		{"node reference duplicate property", agg(`,"rows":[{"u":{"type":"U","id":"1","properties":{"a":1,"a":1}}}]`), -1, `duplicate property "a"`},
		{"pagination without total_rows", `{"pagination":{"has_more":true}}`, 14, "pagination: neither total_rows (schema v2) nor truncated (schema v5)"},
		{"unknown pagination field", `{"pagination":{"page":2}}`, 15, `pagination: unknown field "page"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			de := checkDecodeFails(t, tc.name, []byte(tc.in))
			if de == nil {
				return
			}
			if tc.offset >= 0 && de.Offset != int64(tc.offset) {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, de)
			}
			if !strings.Contains(de.Msg, tc.substr) {
				t.Errorf("message %q, want it to contain %q", de.Msg, tc.substr)
			}
		})
	}
}

// TestDecodeManyKeys: objects with many keys decode, and a duplicate among
// them is found wherever it is (the check switches from comparisons to a
// map past a few keys).
func TestDecodeManyKeys(t *testing.T) {
	for _, n := range []int{1, 15, 16, 17, 5000} {
		var props, cells strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				props.WriteByte(',')
				cells.WriteByte(',')
			}
			props.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
			cells.WriteString(`"c` + strconv.Itoa(i) + `":{"type":"T","id":"1","properties":{` + props.String() + `}}`)
		}
		good := doc(`{"type":"T","id":"1",` + props.String() + `}`)
		r, err := decodeJSON([]byte(good))
		if err != nil {
			t.Fatalf("%d properties: %v", n, err)
		}
		if got := len(r.Nodes[0].Properties); got != n {
			t.Errorf("%d properties decoded as %d", n, got)
		}
		if v, _ := r.Nodes[0].Get("k" + strconv.Itoa(n-1)); v.Int() != int64(n-1) {
			t.Errorf("last property = %v", v)
		}
		for _, dup := range []int{0, n / 2, n - 1} {
			key := `"k` + strconv.Itoa(dup) + `"`
			bad := doc(`{"type":"T","id":"1",` + props.String() + `,` + key + `:true}`)
			de := checkDecodeFails(t, "duplicate "+key, []byte(bad))
			if want := int64(len(bad) - len(key+`:true}],"edges":[]}`)); de != nil && de.Offset != want {
				t.Errorf("%d properties, duplicate %s: offset %d, want %d", n, key, de.Offset, want)
			}
			// The same in a node reference's properties.
			bad = `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"rows":[{"u":{"type":"T","id":"1","properties":{` +
				props.String() + `,` + key + `:1}}}]}`
			if de := checkDecodeFails(t, "node reference duplicate "+key, []byte(bad)); de != nil && !strings.Contains(de.Msg, "duplicate property") {
				t.Errorf("message %q", de.Msg)
			}
		}
		if n > 100 {
			continue // cells each holding n properties would be n² bytes
		}
		rows := `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"rows":[{` + cells.String() + `}]}`
		r, err = decodeJSON([]byte(rows))
		if err != nil {
			t.Fatalf("%d cells: %v", n, err)
		}
		if len(r.Rows[0]) != n || len(r.Rows[0][n-1].Node.Properties) != n {
			t.Errorf("%d cells decoded as %d", n, len(r.Rows[0]))
		}
		bad := `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"rows":[{` + cells.String() + `,"c0":1}]}`
		if de := checkDecodeFails(t, "duplicate cell", []byte(bad)); de != nil && !strings.Contains(de.Msg, `duplicate cell "c0"`) {
			t.Errorf("message %q", de.Msg)
		}
	}
}

const pageHead = `{"format_version":"5.0.1","query_type":"traversal","nodes":[],"edges":[],"pagination":`

// TestPaginationShapes: both schemas' pagination objects decode to the
// fields they hold and encode back byte for byte, keys in canonical order.
func TestPaginationShapes(t *testing.T) {
	tests := []struct {
		name string
		json string
		want wire.Pagination
	}{
		{"v2", `{"has_more":true,"total_rows":4312}`, wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)}},
		{"v2 last page", `{"has_more":false,"total_rows":0}`, wire.Pagination{TotalRows: wire.Some[int64](0)}},
		{"v5 with a cursor", `{"has_more":true,"truncated":true,"next_cursor":"eyJoIjoiYWQyMTczMWM5MTZm"}`,
			wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("eyJoIjoiYWQyMTczMWM5MTZm")}},
		{"v5 exhausted", `{"has_more":false,"truncated":false}`, wire.Pagination{Truncated: wire.Some(false)}},
		{"v5 truncated without more", `{"has_more":false,"truncated":true}`, wire.Pagination{Truncated: wire.Some(true)}},
		{"v5 empty cursor", `{"has_more":true,"truncated":false,"next_cursor":""}`,
			wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("")}},
		{"v5 awkward cursor", `{"has_more":true,"truncated":false,"next_cursor":"a b\"c\n☃\u0001"}`,
			wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("a b\"c\n☃\x01")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := decodeCanonical(t, []byte(pageHead+tc.json+"}"))
			if diff := cmp.Diff(&tc.want, r.Pagination); diff != "" {
				t.Errorf("decoded pagination (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPaginationKeyOrder: any key order is read; canonical order is
// written.
func TestPaginationKeyOrder(t *testing.T) {
	r, err := decodeJSON([]byte(pageHead + `{"next_cursor":"c","truncated":false,"has_more":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := encodeJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	want := pageHead + `{"has_more":true,"truncated":false,"next_cursor":"c"}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

// TestPaginationRefused: what neither schema allows is an error at the key
// that makes the mix, or at the object when a required field is missing.
func TestPaginationRefused(t *testing.T) {
	obj := len(pageHead) // offset of the pagination object
	tests := []struct {
		name   string
		json   string
		offset int
		substr string
	}{
		{"has_more alone", `{"has_more":true}`, obj, "pagination: neither total_rows (schema v2) nor truncated (schema v5)"},
		{"empty", `{}`, obj, `pagination: missing "has_more"`},
		{"v2 without has_more", `{"total_rows":3}`, obj, `pagination: missing "has_more"`},
		{"v5 without has_more", `{"truncated":true}`, obj, `pagination: missing "has_more"`},
		{"total_rows and truncated", `{"has_more":true,"total_rows":3,"truncated":false}`, obj + 32, "total_rows (schema v2) together with truncated (schema v5)"},
		{"truncated then total_rows", `{"has_more":true,"truncated":false,"total_rows":3}`, obj + 35, "total_rows (schema v2) together with truncated (schema v5)"},
		{"total_rows and next_cursor", `{"has_more":true,"total_rows":3,"next_cursor":"c"}`, obj + 32, "total_rows (schema v2) together with next_cursor (schema v5)"},
		{"next_cursor without truncated", `{"has_more":true,"next_cursor":"c"}`, obj + 17, "next_cursor without truncated (schema v5 requires truncated)"},
		{"all four", `{"has_more":true,"total_rows":3,"truncated":true,"next_cursor":"c"}`, obj + 32, "together with truncated"},
		{"truncated a string", `{"has_more":true,"truncated":"true"}`, obj + 29, "expected boolean for pagination truncated, found string"},
		{"truncated null", `{"has_more":true,"truncated":null}`, obj + 29, "expected boolean for pagination truncated, found null"},
		{"next_cursor null", `{"has_more":true,"truncated":true,"next_cursor":null}`, obj + 48, `expected a string for pagination next_cursor, found null`},
		{"next_cursor a number", `{"has_more":true,"truncated":true,"next_cursor":7}`, obj + 48, `expected a string for pagination next_cursor, found number`},
		{"duplicate truncated", `{"has_more":true,"truncated":true,"truncated":false}`, obj + 34, `pagination: duplicate field "truncated"`},
		{"duplicate next_cursor", `{"has_more":true,"truncated":true,"next_cursor":"a","next_cursor":"b"}`, obj + 52, `pagination: duplicate field "next_cursor"`},
		{"v2 field misspelt", `{"has_more":true,"total":3}`, obj + 17, `pagination: unknown field "total"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			de := checkDecodeFails(t, tc.name, []byte(pageHead+tc.json+"}"))
			if de == nil {
				return
			}
			if de.Offset != int64(tc.offset) {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, de)
			}
			if !strings.Contains(de.Msg, tc.substr) {
				t.Errorf("message %q, want it to contain %q", de.Msg, tc.substr)
			}
		})
	}
}

// TestPaginationEncodeRefused: the encoder refuses the paginations the
// decoder rejects, writing nothing.
func TestPaginationEncodeRefused(t *testing.T) {
	for _, p := range []wire.Pagination{
		{HasMore: true},
		{TotalRows: wire.Some[int64](1), Truncated: wire.Some(false)},
		{TotalRows: wire.Some[int64](1), NextCursor: wire.Some("c")},
		{HasMore: true, NextCursor: wire.Some("c")},
	} {
		r := &wire.GraphResponse{QueryType: wire.Traversal, Pagination: &p}
		out, err := jsoncodec.AppendEncode([]byte("x"), r)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || ee.Path != "pagination" || ee.Msg != p.Check().Error() {
			t.Errorf("%+v: error %v, want a *wire.EncodeError at pagination saying %q", p, err, p.Check())
		}
		if string(out) != "x" {
			t.Errorf("%+v: wrote %q", p, out)
		}
	}
}

// TestPaginationExactRoundTrip: v2 and v5 paginations of generated
// responses come back exactly.
func TestPaginationExactRoundTrip(t *testing.T) {
	for i, p := range []wire.Pagination{
		{HasMore: true, TotalRows: wire.Some[int64](-1 << 63)},
		{HasMore: false, Truncated: wire.Some(true), NextCursor: wire.Some("\x00\x1f\x7f 😀 \"q\" \\")},
	} {
		r := &wire.GraphResponse{FormatVersion: "5.0.1", QueryType: wire.Aggregation, Pagination: &p}
		out, err := encodeJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decodeJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := wiretest.Diff(r, d, wire.Exact); diff != "" {
			t.Errorf("case %d (-want +got):\n%s", i, diff)
		}
	}
}

// TestJSONLongSequences: lists, properties and rows long enough to be
// sized from the rest of their text decode as they always did, and a
// long list whose rest is separators, not elements, is refused with its
// error having allocated no more than the bound.
func TestJSONLongSequences(t *testing.T) {
	items := make([]wire.Value, 300)
	props := make([]wire.Property, 300)
	rows := make([]wire.Row, 300)
	for i := range items {
		items[i] = wire.ListOf(wire.Int(int64(i)), wire.String(`a,"]`))
		props[i] = wire.Prop("k"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26), wire.Int(int64(i)))
		rows[i] = wire.Row{{Name: "n", Value: wire.Int(int64(i))}}
	}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Nodes:   []wire.Node{{Type: "T", ID: 1, Properties: append(props, wire.Prop("l", wire.ListOf(items...)))}},
		Edges:   []wire.Edge{},
		Columns: []wire.Column{{Name: "n", Function: "count"}}, Rows: rows}
	data, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsoncodec.DecodeWithin(data, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got, cmp.AllowUnexported(wire.Value{})); diff != "" {
		t.Errorf("decoded differs (-want +got):\n%s", diff)
	}

	if testing.Short() || presizeRace {
		t.Skip("a large input; heap figures under the race detector mean nothing")
	}
	head := `{"format_version":"1","query_type":"search","edges":[],"nodes":[{"type":"T","id":"1","l":[` + strings.Repeat("0,", 100)
	text := head + strings.Repeat(",", 8<<20) + "0]}]}"
	var derr error
	fp := wiretest.Measure(func() { _, derr = jsoncodec.DecodeWithin([]byte(text), wire.Limits{MaxElements: 16 << 20}) })
	var de *wire.DecodeError
	if !errors.As(derr, &de) || de.Offset != int64(len(head)) {
		t.Errorf("%v, want a *wire.DecodeError at offset %d", derr, len(head))
	}
	// All it allocates, not only its sampled peak: the count of a rest
	// that holds no elements must not size anything.
	if bound := wiretest.DecodeMemoryBound(len(text)); fp.TotalAlloc > bound {
		t.Errorf("allocated %d decoding %d bytes, more than %d", fp.TotalAlloc, len(text), bound)
	}
	t.Logf("%d bytes: %v", len(text), fp)
}
