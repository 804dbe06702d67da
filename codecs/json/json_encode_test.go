package json_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wirecodec"

	gojson "encoding/json"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// doc wraps nodes JSON in a response's canonical frame.
func doc(nodes string) string {
	return `{"format_version":"1.2.0","query_type":"traversal","nodes":[` + nodes + `],"edges":[]}`
}

// withProp is a traversal response with one node holding one property.
func withProp(key string, v wire.Value) *wire.GraphResponse {
	return &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Traversal,
		Nodes:         []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop(key, v)}}},
	}
}

func mustEncode(t *testing.T, r *wire.GraphResponse) string {
	t.Helper()
	b, err := encodeJSON(r)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return string(b)
}

func TestEncodeStrings(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello", `"hello"`},
		{"empty", "", `""`},
		{"quote", `say "hi"`, `"say \"hi\""`},
		{"backslash", `a\b`, `"a\\b"`},
		{"slash not escaped", "a/b", `"a/b"`},
		{"newline", "a\nb", `"a\nb"`},
		{"carriage return", "a\rb", `"a\rb"`},
		{"tab", "a\tb", `"a\tb"`},
		{"backspace", "a\bb", `"a\bb"`},
		{"form feed", "a\fb", `"a\fb"`},
		{"nul", "\x00", `"\u0000"`},
		{"other controls lower-case hex", "\x01\x0b\x1a\x1f", `"\u0001\u000b\u001a\u001f"`},
		{"DEL is not a control character here", "\x7f", "\"\x7f\""},
		{"no HTML escaping", "<a href='x'>&amp;</a>", `"<a href='x'>&amp;</a>"`},
		{"U+2028 and U+2029 as UTF-8", "\u2028\u2029", "\"\u2028\u2029\""},
		{"unicode as UTF-8", "héllo 日本語 😀", `"héllo 日本語 😀"`},
		{"BOM kept", "\ufeffx", "\"\ufeffx\""},
		{"U+FFFD kept", "\ufffd", "\"\ufffd\""},
		{"invalid byte", "a\xffb", "\"a\ufffdb\""},
		{"truncated sequence", "a\xc3", "\"a\ufffd\""},
		{"encoded surrogate", "\xed\xa0\x80", "\"\ufffd\ufffd\ufffd\""},
		{"overlong slash", "\xc0\xaf", "\"\ufffd\ufffd\""},
		{"invalid then escape", "\xff\n", "\"\ufffd\\n\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(textwire.JSON.AppendQuoted(nil, tc.in)); got != tc.want {
				t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.want)
			}
			// The same bytes wherever a string is written: values, keys,
			// types and names.
			r := &wire.GraphResponse{
				FormatVersion: tc.in,
				QueryType:     wire.Traversal,
				Nodes:         []wire.Node{{Type: tc.in, ID: 1, Properties: []wire.Property{wire.Prop("k"+tc.in, wire.String(tc.in))}}},
			}
			want := `{"format_version":` + tc.want + `,"query_type":"traversal","nodes":[{"type":` + tc.want +
				`,"id":"1",` + `"k` + tc.want[1:] + `:` + tc.want + `}],"edges":[]}`
			if got := mustEncode(t, r); got != want {
				t.Errorf("Encode:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestEncodeStringsLikeEncodingJSON checks AppendString against
// encoding/json without HTML escaping, which differs only in escaping
// U+2028, U+2029 and the U+FFFD that replaces an invalid byte.
func TestEncodeStringsLikeEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.String(),
			rapid.StringOf(rapid.Map(rapid.IntRange(0, 0x7f), func(i int) rune { return rune(i) })), // ASCII, controls included
			rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }),
		).Draw(t, "s")
		var buf bytes.Buffer
		enc := gojson.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(buf.String(), "\n")
		// Invalid bytes become U+FFFD written as UTF-8 here, escaped there.
		want = strings.NewReplacer(`\\`, `\\`, `\u2028`, "\u2028", `\u2029`, "\u2029", `\ufffd`, "\ufffd").Replace(want)
		got := string(textwire.JSON.AppendQuoted(nil, s))
		if got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json gives %s", s, got, want)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("AppendString(%q) is not valid UTF-8", s)
		}
	})
}

func TestEncodeFloats(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1, "1.0"},
		{-1, "-1.0"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{100, "100.0"},
		{1e20, "100000000000000000000.0"},
		{999999999999999900000, "999999999999999900000.0"},
		{1e21, "1e+21"},
		{-1e21, "-1e+21"},
		{1.5e21, "1.5e+21"},
		{1e300, "1e+300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5e-324"},
		{-5e-324, "-5e-324"},
		{1e-7, "1e-7"},
		{1.25e-7, "1.25e-7"},
		{1e-6, "0.000001"},
		{0.000001, "0.000001"},
		{0.0000015, "0.0000015"},
		{9.99999e-7, "9.99999e-7"},
		{1e-10, "1e-10"},
		{-2.5e-10, "-2.5e-10"},
		{1 << 53, "9007199254740992.0"},
		{123456789.125, "123456789.125"},
		{941.131772070606, "941.131772070606"},
	}
	for _, tc := range tests {
		if got := string(textwire.AppendFloat(nil, tc.in)); got != tc.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", tc.in, got, tc.want)
		}
		if got, want := mustEncode(t, withProp("f", wire.Float(tc.in))), doc(`{"type":"T","id":"1","f":`+tc.want+`}`); got != want {
			t.Errorf("Encode(float %v):\n got %s\nwant %s", tc.in, got, want)
		}
	}
}

// TestEncodeFloatsLikeEncodingJSON checks every finite float against
// encoding/json's form (plus ".0" where that has no '.', 'e' or 'E') and
// that it reads back to the same bits.
func TestEncodeFloatsLikeEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.OneOf(
			rapid.Float64(),
			rapid.Map(rapid.Uint64(), math.Float64frombits),
		).Filter(func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }).Draw(t, "f")
		got := string(textwire.AppendFloat(nil, f))
		b, err := gojson.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		want := string(b)
		if !strings.ContainsAny(want, ".eE") {
			want += ".0"
		}
		if f == 0 && math.Signbit(f) {
			want = "-0.0" // encoding/json writes -0 as 0
		}
		if got != want {
			t.Fatalf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
		back, err := strconv.ParseFloat(got, 64)
		if err != nil || math.Float64bits(back) != math.Float64bits(f) {
			t.Fatalf("AppendFloat(%v) = %s reads back as %v, %v", f, got, back, err)
		}
	})
}

func TestEncodeIntegersAndIDs(t *testing.T) {
	ids := []struct {
		id   int64
		want string
	}{
		{0, `"0"`},
		{-1, `"-1"`},
		{1<<53 + 1, `"9007199254740993"`},
		{-(1 << 53) - 1, `"-9007199254740993"`},
		{math.MaxInt64, `"9223372036854775807"`},
		{math.MaxInt64 - 1, `"9223372036854775806"`},
		{math.MinInt64, `"-9223372036854775808"`},
		{math.MinInt64 + 1, `"-9223372036854775807"`},
	}
	for _, tc := range ids {
		num := strings.Trim(tc.want, `"`)
		r := &wire.GraphResponse{
			FormatVersion: "1.2.0",
			QueryType:     wire.PathFinding,
			Nodes:         []wire.Node{{Type: "T", ID: tc.id, Properties: []wire.Property{wire.Prop("n", wire.Int(tc.id))}}},
			Edges: []wire.Edge{{From: "T", FromID: tc.id, To: "U", ToID: tc.id, Type: "R",
				Depth: wire.Some[int64](tc.id), PathID: wire.Some[int64](tc.id), Step: wire.Some[int64](tc.id)}},
			Rows:       []wire.Row{{{Name: "c", Node: &wire.Node{Type: "T", ID: tc.id}}, {Name: "n", Value: wire.Int(tc.id)}}},
			Pagination: &wire.Pagination{TotalRows: wire.Some[int64](tc.id)},
		}
		want := `{"format_version":"1.2.0","query_type":"path_finding",` +
			`"nodes":[{"type":"T","id":` + tc.want + `,"n":` + num + `}],` +
			`"edges":[{"from":"T","from_id":` + tc.want + `,"to":"U","to_id":` + tc.want + `,"type":"R","depth":` + num + `,"path_id":` + num + `,"step":` + num + `}],` +
			`"rows":[{"c":{"type":"T","id":` + tc.want + `,"properties":{}},"n":` + num + `}],` +
			`"pagination":{"has_more":false,"total_rows":` + num + `}}`
		if got := mustEncode(t, r); got != want {
			t.Errorf("id %d:\n got %s\nwant %s", tc.id, got, want)
		}
	}
}

func TestEncodeValues(t *testing.T) {
	tests := []struct {
		name string
		v    wire.Value
		want string
	}{
		{"null", wire.Null(), "null"},
		{"true", wire.Bool(true), "true"},
		{"false", wire.Bool(false), "false"},
		{"string true", wire.String("true"), `"true"`},
		{"string null", wire.String("null"), `"null"`},
		{"string number", wire.String("42"), `"42"`},
		{"int", wire.Int(42), "42"},
		{"float 42", wire.Float(42), "42.0"},
		{"empty list", wire.ListOf(), "[]"},
		{"list of every kind", wire.ListOf(wire.Null(), wire.Bool(false), wire.Int(-3), wire.Float(0.5), wire.String("a,b"), wire.ListOf(wire.Int(1))),
			`[null,false,-3,0.5,"a,b",[1]]`},
		{"nested empty lists", wire.ListOf(wire.ListOf(wire.ListOf())), "[[[]]]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := mustEncode(t, withProp("v", tc.v)), doc(`{"type":"T","id":"1","v":`+tc.want+`}`); got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// fullResponse sets every field, each out of alphabetical order where it
// can be, so that key order is the rule's and not an accident.
func fullResponse() *wire.GraphResponse {
	return &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Aggregation,
		Nodes: []wire.Node{
			{Type: "User", ID: 7, Properties: []wire.Property{
				wire.Prop("username", wire.String("zed")),
				wire.Prop("age", wire.Int(30)),
				wire.Prop("bot", wire.Bool(false)),
				wire.Prop("deleted_at", wire.Null()),
			}},
			{Type: "Project", ID: 8},
		},
		Edges: []wire.Edge{
			{From: "User", FromID: 7, To: "Project", ToID: 8, Type: "MEMBER_OF", Depth: wire.Some[int64](2), PathID: wire.Some[int64](0), Step: wire.Some[int64](1)},
			{From: "User", FromID: 7, To: "Project", ToID: 8, Type: "OWNS"},
		},
		Columns: []wire.Column{
			{Name: "n", Function: "count", Target: wire.Some("u"), Property: wire.Some("id")},
			{Name: "all", Function: "collect"},
		},
		GroupColumns: []wire.GroupColumn{
			{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")},
			{Name: "s", Kind: wire.GroupByProperty, Node: "p", Property: wire.Some("state"), Entity: wire.Some("Project")},
		},
		Rows: []wire.Row{
			{
				{Name: "u", Node: &wire.Node{Type: "User", ID: 7, Properties: []wire.Property{wire.Prop("username", wire.String("zed")), wire.Prop("age", wire.Int(30))}}},
				{Name: "s", Value: wire.String("open")},
				{Name: "n", Value: wire.Int(3)},
				{Name: "all", Value: wire.ListOf(wire.Int(1), wire.String("x"))},
			},
			{},
		},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](12)},
	}
}

const fullJSON = `{"format_version":"1.2.0","query_type":"aggregation",` +
	`"nodes":[{"type":"User","id":"7","username":"zed","age":30,"bot":false,"deleted_at":null},{"type":"Project","id":"8"}],` +
	`"edges":[{"from":"User","from_id":"7","to":"Project","to_id":"8","type":"MEMBER_OF","depth":2,"path_id":0,"step":1},` +
	`{"from":"User","from_id":"7","to":"Project","to_id":"8","type":"OWNS"}],` +
	`"columns":[{"name":"n","function":"count","target":"u","property":"id"},{"name":"all","function":"collect"}],` +
	`"group_columns":[{"name":"u","kind":"node","node":"u","entity":"User"},{"name":"s","kind":"property","node":"p","property":"state","entity":"Project"}],` +
	`"rows":[{"u":{"type":"User","id":"7","properties":{"username":"zed","age":30}},"s":"open","n":3,"all":[1,"x"]},{}],` +
	`"pagination":{"has_more":true,"total_rows":12}}`

func TestEncodeKeyOrder(t *testing.T) {
	if got := mustEncode(t, fullResponse()); got != fullJSON {
		t.Errorf("\n got %s\nwant %s", got, fullJSON)
	}
	r, err := decodeJSON([]byte(fullJSON))
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(fullResponse(), r, wire.Exact); diff != "" {
		t.Errorf("Decode (-want +got):\n%s", diff)
	}
}

func TestEncodeAbsentAndEmpty(t *testing.T) {
	const head = `{"format_version":"","query_type":"search"`
	tests := []struct {
		name   string
		change func(r *wire.GraphResponse)
		want   string
	}{
		{"nil nodes and edges are written empty", func(r *wire.GraphResponse) {}, head + `,"nodes":[],"edges":[]}`},
		{"empty nodes and edges", func(r *wire.GraphResponse) { r.Nodes, r.Edges = []wire.Node{}, []wire.Edge{} },
			head + `,"nodes":[],"edges":[]}`},
		{"present empty columns", func(r *wire.GraphResponse) { r.Columns = []wire.Column{} },
			head + `,"nodes":[],"edges":[],"columns":[]}`},
		{"present empty group columns", func(r *wire.GraphResponse) { r.GroupColumns = []wire.GroupColumn{} },
			head + `,"nodes":[],"edges":[],"group_columns":[]}`},
		{"present empty rows", func(r *wire.GraphResponse) { r.Rows = []wire.Row{} },
			head + `,"nodes":[],"edges":[],"rows":[]}`},
		{"nil and empty row", func(r *wire.GraphResponse) { r.Rows = []wire.Row{nil, {}} },
			head + `,"nodes":[],"edges":[],"rows":[{},{}]}`},
		{"zero pagination is present", func(r *wire.GraphResponse) { r.Pagination = &wire.Pagination{TotalRows: wire.Some[int64](0)} },
			head + `,"nodes":[],"edges":[],"pagination":{"has_more":false,"total_rows":0}}`},
		{"node without properties", func(r *wire.GraphResponse) { r.Nodes = []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{}}} },
			head + `,"nodes":[{"type":"T","id":"1"}],"edges":[]}`},
		{"empty type names", func(r *wire.GraphResponse) { r.Nodes = []wire.Node{{}}; r.Edges = []wire.Edge{{}} },
			head + `,"nodes":[{"type":"","id":"0"}],"edges":[{"from":"","from_id":"0","to":"","to_id":"0","type":""}]}`},
		{"present zero edge fields", func(r *wire.GraphResponse) {
			r.Edges = []wire.Edge{{Depth: wire.Some[int64](0), PathID: wire.Some[int64](0), Step: wire.Some[int64](0)}}
		}, head + `,"nodes":[],"edges":[{"from":"","from_id":"0","to":"","to_id":"0","type":"","depth":0,"path_id":0,"step":0}]}`},
		{"present empty optional strings", func(r *wire.GraphResponse) {
			r.Columns = []wire.Column{{Target: wire.Some(""), Property: wire.Some("")}}
			r.GroupColumns = []wire.GroupColumn{{Kind: wire.GroupByProperty, Property: wire.Some(""), Entity: wire.Some("")}}
		}, head + `,"nodes":[],"edges":[],"columns":[{"name":"","function":"","target":"","property":""}],` +
			`"group_columns":[{"name":"","kind":"property","node":"","property":"","entity":""}]}`},
		{"absent optional strings", func(r *wire.GraphResponse) {
			r.Columns = []wire.Column{{}}
			r.GroupColumns = []wire.GroupColumn{{Kind: wire.GroupByNode}}
		}, head + `,"nodes":[],"edges":[],"columns":[{"name":"","function":""}],"group_columns":[{"name":"","kind":"node","node":""}]}`},
		{"property order is stored order", func(r *wire.GraphResponse) {
			r.Nodes = []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{
				wire.Prop("z", wire.Int(1)), wire.Prop("a", wire.Int(2)), wire.Prop("m", wire.Int(3)),
			}}}
		}, head + `,"nodes":[{"type":"T","id":"1","z":1,"a":2,"m":3}],"edges":[]}`},
		{"cell order is stored order", func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "z", Value: wire.Int(1)}, {Name: "a", Value: wire.Null()}}}
		}, head + `,"nodes":[],"edges":[],"rows":[{"z":1,"a":null}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &wire.GraphResponse{QueryType: wire.Search}
			tc.change(r)
			got := mustEncode(t, r)
			if got != tc.want {
				t.Fatalf("\n got %s\nwant %s", got, tc.want)
			}
			back, err := decodeJSON([]byte(got))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	// path is the *EncodeError's Path, in the syntax wirecodec.Path documents.
	tests := []struct {
		name   string
		r      *wire.GraphResponse
		path   string
		substr string
	}{
		{"nil response", nil, "", "json: nil response"},
		{"NaN property", withProp("score", wire.Float(nan)), "nodes[0].properties.score", "unsupported float value NaN"},
		{"+Inf property", withProp("score", wire.Float(inf)), "nodes[0].properties.score", "+Inf"},
		{"-Inf in a list", withProp("l", wire.ListOf(wire.Int(1), wire.Float(math.Inf(-1)))), "nodes[0].properties.l[1]", "-Inf"},
		{"NaN in a nested list", withProp("l", wire.ListOf(wire.ListOf(), wire.ListOf(wire.Float(0), wire.Float(nan)))), "nodes[0].properties.l[1][1]", "NaN"},
		{"NaN under a key that is no plain name", withProp("a b", wire.Float(nan)), `nodes[0].properties["a b"]`, "NaN"},
		{"NaN under a key too long to show", withProp(strings.Repeat("k", wirecodec.MaxPathKeyBytes+1), wire.Float(nan)), "nodes[0].properties[0]", "NaN"},
		{"NaN in a row", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "avg", Value: wire.Float(nan)}}}}, "rows[0].avg", "NaN"},
		{"NaN under a cell name that is not UTF-8", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "n", Value: wire.Int(1)}, {Name: "\xff", Value: wire.Float(nan)}}}}, "rows[0][1]", "NaN"},
		{"Inf in a node reference", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{
			{Name: "u", Node: &wire.Node{Type: "User", Properties: []wire.Property{wire.Prop("x", wire.Float(inf))}}},
		}}}, "rows[0].u.properties.x", "+Inf"},
		{"bad query type", &wire.GraphResponse{QueryType: "graph"}, "query_type", `"graph"`},
		{"empty query type", &wire.GraphResponse{}, "query_type", `""`},
		{"bad group kind", &wire.GraphResponse{QueryType: wire.Aggregation, GroupColumns: []wire.GroupColumn{{Kind: "edge"}}}, "group_columns[0].kind", `"edge"`},
		{"property named type", withProp("type", wire.String("x")), "nodes[0].properties.type", `"type"`},
		{"property named id", withProp("id", wire.Int(1)), "nodes[0].properties.id", `"id"`},
		{"node reference property named id", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{
			{Name: "u", Node: &wire.Node{Type: "User", Properties: []wire.Property{wire.Prop("id", wire.Int(1))}}},
		}}}, "rows[0].u.properties.id", `"id"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prefix := []byte("prefix")
			out, err := jsoncodec.AppendEncode(prefix, tc.r)
			if err == nil {
				t.Fatalf("no error; wrote %s", out)
			}
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Errorf("error %T is not a *wire.EncodeError", err)
			} else if ee.Path != tc.path {
				t.Errorf("error %q: Path %q, want %q", err, ee.Path, tc.path)
			}
			if !strings.HasPrefix(err.Error(), "json: ") || !strings.Contains(err.Error(), tc.substr) {
				t.Errorf("error %q, want it to start with \"json: \" and contain %q", err, tc.substr)
			}
			if string(out) != "prefix" || cap(out) != cap(prefix) || &out[0] != &prefix[0] {
				t.Errorf("AppendEncode returned %q on error, want dst as given", out)
			}
			if err := jsoncodec.EncodeTo(io.Discard, tc.r); err == nil {
				t.Errorf("EncodeJSONTo: no error")
			}
		})
	}
}

func TestEncodeAppendsAndIsDeterministic(t *testing.T) {
	r := fullResponse()
	first, err := jsoncodec.AppendEncode([]byte("abc"), r)
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != "abc"+fullJSON {
		t.Errorf("AppendEncode did not append to dst: %s", first)
	}
	for i := 0; i < 10; i++ {
		b, err := encodeJSON(r)
		if err != nil || string(b) != fullJSON {
			t.Fatalf("encoding %d differs: %s, %v", i, b, err)
		}
	}
}

// TestGolden encodes a response that exercises every rule at once and
// compares it with testdata/json/golden/all_rules.json (rewrite with -update).
func TestGolden(t *testing.T) {
	r := fullResponse()
	r.Nodes = append(r.Nodes, wire.Node{Type: "Näme \"q\"", ID: math.MinInt64, Properties: []wire.Property{
		wire.Prop("text", wire.String("line one\nline two\t<b>&</b> \x00\x1f\x7f \u2028 😀 \xff")),
		wire.Prop("floats", wire.ListOf(wire.Float(1), wire.Float(math.Copysign(0, -1)), wire.Float(1e21), wire.Float(5e-324),
			wire.Float(1e-7), wire.Float(0.000001), wire.Float(123.456))),
		wire.Prop("big", wire.Int(1<<53+1)),
		wire.Prop("max", wire.Int(math.MaxInt64)),
	}})
	got, err := encodeJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.Golden(t, filepath.Join("testdata", "json", "golden", "all_rules.json"), got, *update)
	if !gojson.Valid(got) {
		t.Errorf("encoding/json finds the encoding invalid")
	}
}
