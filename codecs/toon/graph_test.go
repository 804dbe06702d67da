package toon_test

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiktoken-go/tokenizer"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// -update rewrites the golden files of testdata/graph. Another test file
// of the package may define the flag too; then both share it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// minGraphRoundTrips is how many generated responses TestGraphRoundTrip
// checks at the least, whatever -rapid.checks says (fewer with -short).
const minGraphRoundTrips = 1000

type fataler interface {
	Fatalf(string, ...any)
	Helper()
}

// graphRoundTrip encodes r, decodes the text and checks that the result
// equals r with numbers compared by value, and that encoding the result
// gives the same text again (encoding is a fixed point). It returns the
// text.
func graphRoundTrip(t fataler, r *wire.GraphResponse) []byte {
	t.Helper()
	b1, err := toon.Encode(r)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	if _, err := toonvalue.Unmarshal(b1, toonvalue.DecodeOptions{}); err != nil {
		t.Fatalf("the encoding is not valid TOON: %v\n%s", err, b1)
	}
	r1, err := toon.Decode(b1)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, b1)
	}
	if diff := wiretest.Diff(r, r1, wire.NumbersByValue); diff != "" {
		t.Fatalf("decode(encode(r)) differs from r (-want +got):\n%s\n%s", diff, b1)
	}
	b2, err := toon.Encode(r1)
	if err != nil {
		t.Fatalf("Encode of the decoded response: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatalf("encodings differ:\n%s\n---\n%s", b1, b2)
	}
	return b1
}

// TestGraphReferenceCases round-trips the goon-reference inputs (canonical
// JSON) read from GOON_REFERENCE_DIR.
func TestGraphReferenceCases(t *testing.T) {
	cases := testsupport.ReferenceCases(t)
	if len(cases) != 7 {
		t.Fatalf("found %d reference cases, want 7", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			data := c.JSON
			r, err := json.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			graphRoundTrip(t, r)
		})
	}
}

// TestGraphRoundTrip runs the round trip on at least minGraphRoundTrips
// generated responses: every query type, awkward type names, keys and cell
// names, every value kind, ids near ±2^63, floats such as 1.0, 1e21,
// 5e-324 and -0.0, duplicate nodes, rows with node references and lists.
func TestGraphRoundTrip(t *testing.T) {
	checks := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 0 {
			checks = n
		}
	}
	want := int64(minGraphRoundTrips)
	if testing.Short() {
		// rapid runs a fifth of its checks under -short, and so do we.
		want /= 5
		checks = max(1, checks/5)
	}
	rounds := int((want + int64(checks) - 1) / int64(checks))
	if f := flag.Lookup("rapid.seed"); f != nil && f.Value.String() != "0" {
		rounds = 1 // a fixed seed would repeat the same responses
	}
	gens := []*rapid.Generator[*wire.GraphResponse]{
		wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}),
		wiretest.ResponseWith(wiretest.Options{}),
		wiretest.ResponseWith(wiretest.Options{MaxNodes: 40, MaxRows: 20}),
	}
	var ran atomic.Int64
	for i := 0; i < rounds; i++ {
		gen := gens[i%len(gens)]
		t.Run("round"+strconv.Itoa(i), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				ran.Add(1)
				graphRoundTrip(t, gen.Draw(t, "response"))
			})
		})
		if t.Failed() {
			return
		}
	}
	if ran.Load() < want && rounds > 1 {
		t.Errorf("ran %d round trips, want at least %d", ran.Load(), want)
	}
	t.Logf("%d generated responses round-tripped", ran.Load())
}

// TestGraphShuffledOrders shuffles node, property, row, cell and
// node-reference property orders of generated responses: whatever the
// orders, they survive (TOON tables would impose one order on all rows).
func TestGraphShuffledOrders(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(wiretest.Options{QueryTypes: []wire.QueryType{wire.Aggregation, wire.Traversal}}).Draw(t, "response")
		// Give every node of a type, and every node reference of a cell
		// name, the same keys, then shuffle their order: the case where a
		// table would lose the orders.
		keys := []string{"a", "b", "c"}
		for i := range r.Nodes {
			r.Nodes[i].Properties = shuffled(t, "node", keys)
		}
		for _, row := range r.Rows {
			for j := range row {
				if row[j].Node != nil {
					n := *row[j].Node
					n.Properties = shuffled(t, "ref", keys)
					row[j].Node = &n
				}
			}
			if len(row) > 1 && rapid.Bool().Draw(t, "swap_cells") {
				row[0], row[1] = row[1], row[0]
			}
		}
		graphRoundTrip(t, r)
	})
}

func shuffled(t *rapid.T, label string, keys []string) []wire.Property {
	perm := rapid.Permutation(keys).Draw(t, label)
	props := make([]wire.Property, len(perm))
	for i, k := range perm {
		props[i] = wire.Prop(k, wire.Int(int64(i)))
	}
	return props
}

func node(typ string, id int64, kv ...any) wire.Node {
	n := wire.Node{Type: typ, ID: id}
	for i := 0; i < len(kv); i += 2 {
		n.Properties = append(n.Properties, wire.Prop(kv[i].(string), kv[i+1].(wire.Value)))
	}
	return n
}

func ref(n wire.Node) *wire.Node {
	if n.Properties == nil {
		n.Properties = []wire.Property{}
	}
	return &n
}

var vStr, vInt, vFloat = wire.String, wire.Int, wire.Float

// layoutCases show each rule of the layout; their encodings are the golden
// files testdata/graph/<name>.toon.
var layoutCases = []struct {
	name, why string
	r         *wire.GraphResponse
}{
	{"traversal", "types in first-seen order, each a table; one edge table", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			node("User", 1001, "username", vStr("ada"), "name", vStr("Ada Lovelace")),
			node("User", 1002, "username", vStr("bob"), "name", wire.Null()),
			node("MergeRequest", 9007199254740993, "iid", vInt(7), "title", vStr("Fix: the cache, again"), "merged_at", vStr("2026-05-08 22:55:58")),
		},
		Edges: []wire.Edge{
			{From: "User", FromID: 1001, To: "MergeRequest", ToID: 9007199254740993, Type: "AUTHORED"},
			{From: "User", FromID: 1002, To: "MergeRequest", ToID: 9007199254740993, Type: "REVIEWED"},
		},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)},
	}},
	{"interleaved", "types alternate: groups plus node_order", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Neighbors,
		Nodes: []wire.Node{
			node("User", 1, "username", vStr("ada")),
			node("Project", 10, "name", vStr("graph")),
			node("User", 2, "username", vStr("bob")),
			node("Group", 20, "name", vStr("gitlab-org")),
			node("Project", 11, "name", vStr("wire")),
		},
	}},
	{"absent_vs_null", "keys not shared: list form keeps absent and null apart", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Search,
		Nodes: []wire.Node{
			node("User", 1, "username", vStr("ada"), "email", wire.Null()),
			node("User", 2, "username", vStr("bob")),
			node("User", 3),
		},
	}},
	{"list_values", "a list value puts its type in list form; other types stay tables", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			node("MergeRequest", 5, "title", vStr("a"), "labels", wire.ListOf(vStr("bug"), vStr("type::fix"))),
			node("MergeRequest", 6, "title", vStr("b"), "labels", wire.ListOf()),
			node("MergeRequest", 7, "title", vStr("c"), "labels", wire.ListOf(vInt(1), wire.ListOf(vFloat(2.5), wire.Null()))),
			node("User", 1, "username", vStr("ada")),
		},
	}},
	{"key_orders", "same keys in different orders: one table per order, nodes as a list of groups", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			node("User", 1, "a", vInt(1), "b", vInt(2)),
			node("User", 2, "b", vInt(3), "a", vInt(4)),
			node("User", 3, "a", vInt(5), "b", vInt(6)),
			node("Project", 4),
		},
	}},
	{"edges_optional", "depth only where some edge has it; null is absent", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Edges: []wire.Edge{
			{From: "User", FromID: 1, To: "Group", ToID: 2, Type: "MEMBER_OF", Depth: wire.Some[int64](1)},
			{From: "Group", FromID: 2, To: "Project", ToID: 3, Type: "CONTAINS"},
		},
	}},
	{"path_finding", "path_id and step columns", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.PathFinding,
		Nodes: []wire.Node{node("User", 64248, "username", vStr("stanhu")), node("Project", 278964, "name", vStr("GitLab"))},
		Edges: []wire.Edge{
			{From: "User", FromID: 64248, To: "Project", ToID: 278964, Type: "MEMBER_OF", PathID: wire.Some[int64](0), Step: wire.Some[int64](0)},
		},
	}},
	{"aggregation_node_grouped", "rows as one table, node references as field groups", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Columns:      []wire.Column{{Name: "merged_count", Function: "count", Target: wire.Some("u")}},
		GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")}},
		Rows: []wire.Row{
			{{Name: "u", Node: ref(node("User", 1243277, "username", vStr("ghost1")))}, {Name: "merged_count", Value: vInt(65555)}},
			{{Name: "u", Node: ref(node("User", 35702613, "username", vStr("bot_a")))}, {Name: "merged_count", Value: vInt(21277)}},
		},
		Pagination: &wire.Pagination{TotalRows: wire.Some[int64](2)},
	}},
	{"aggregation_collect", "a list cell puts the rows in list form", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Columns:      []wire.Column{{Name: "names", Function: "collect", Target: wire.Some("u"), Property: wire.Some("username")}, {Name: "avg_score", Function: "avg"}},
		GroupColumns: []wire.GroupColumn{{Name: "state", Kind: wire.GroupByProperty, Node: "u", Property: wire.Some("state")}},
		Rows: []wire.Row{
			{{Name: "state", Value: vStr("active")}, {Name: "names", Value: wire.ListOf(vStr("ada"), vStr("bob"))}, {Name: "avg_score", Value: vFloat(0.5)}},
			{{Name: "state", Value: wire.Null()}, {Name: "names", Value: wire.ListOf()}, {Name: "avg_score", Value: wire.Null()}},
		},
	}},
	{"aggregation_orders", "rows whose cells, or node references' keys, differ in order: lists of one-cell objects", &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Rows: []wire.Row{
			{{Name: "u", Node: ref(node("User", 1, "a", vInt(1), "b", vInt(2)))}, {Name: "n", Value: vInt(3)}},
			{{Name: "u", Node: ref(node("User", 2, "b", vInt(1), "a", vInt(2)))}, {Name: "n", Value: vInt(4)}},
			{{Name: "n", Value: vInt(5)}, {Name: "u", Node: ref(node("User", 3, "a", vInt(1), "b", vInt(2)))}},
		},
	}},
	{"present_empty", "present, empty columns, group_columns and rows stay present", &wire.GraphResponse{
		FormatVersion: "", QueryType: wire.Aggregation,
		Columns: []wire.Column{}, GroupColumns: []wire.GroupColumn{}, Rows: []wire.Row{{}},
	}},
	{"awkward", "names and strings that need quotes; numbers at the edges", &wire.GraphResponse{
		FormatVersion: "1.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			node("with space", math.MinInt64,
				"a,b", vStr("true"), "[2]", vStr("null"), "-x", vStr("42"), "", vStr(""),
				"quo\"te", vStr("line one\nline two"), "k", vStr(" padded "),
				"big", vInt(1<<53+1), "f", vFloat(1e21), "tiny", vFloat(5e-324), "negzero", vFloat(math.Copysign(0, -1)), "one", vFloat(1)),
		},
		Edges: []wire.Edge{{From: "with space", FromID: math.MinInt64, To: "123", ToID: math.MaxInt64, Type: "- item"}},
	}},
	{"empty", "no nodes, no edges", &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}},
}

func TestGraphLayoutGolden(t *testing.T) {
	for _, tc := range layoutCases {
		t.Run(tc.name, func(t *testing.T) {
			got := graphRoundTrip(t, tc.r)
			if !testsupport.Golden(t, filepath.Join("testdata", "graph", tc.name+".toon"), got, updateGolden()) {
				t.Errorf("%s: %s", tc.name, tc.why)
			}
		})
	}
}

// TestGraphNumbers checks the one loss: numbers compare by value.
func TestGraphNumbers(t *testing.T) {
	vals := []wire.Value{
		vInt(0), vInt(-1), vInt(math.MaxInt64), vInt(math.MinInt64), vInt(1<<53 + 1), vInt(-(1 << 53) - 1),
		vFloat(0.1), vFloat(-2.5e-10), vFloat(1e21), vFloat(1e20), vFloat(5e-324), vFloat(math.MaxFloat64), vFloat(1e-7), vFloat(123456789.125),
		vFloat(1), vFloat(math.Copysign(0, -1)), vFloat(1 << 53),
	}
	r := &wire.GraphResponse{QueryType: wire.Search}
	for k, v := range vals {
		r.Nodes = append(r.Nodes, node("N", int64(k), "v", v))
	}
	b := graphRoundTrip(t, r)
	back, err := toon.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	// Exact equality fails only where a float has an integer value.
	for k, v := range vals {
		got, _ := back.Nodes[k].Get("v")
		isIntegral := v.Kind() == wire.KindFloat && v.Float() == math.Trunc(v.Float()) && math.Abs(v.Float()) < 1<<63
		if got.Equal(v) == isIntegral {
			t.Errorf("%v read back as %v", v, got)
		}
	}
}

func TestGraphEncodeErrors(t *testing.T) {
	ok := func() *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal, Nodes: []wire.Node{node("U", 1, "a", vInt(1))}}
	}
	tests := []struct {
		name   string
		change func(r *wire.GraphResponse)
		want   string
	}{
		{"nil", nil, "toon: nil response"},
		{"query type", func(r *wire.GraphResponse) { r.QueryType = "walk" }, `toon: query_type: invalid query type "walk"`},
		{"NaN", func(r *wire.GraphResponse) { r.Nodes[0].Properties[0].Value = vFloat(math.NaN()) }, "toon: nodes[0].properties.a: unsupported float value NaN"},
		{"Inf in list", func(r *wire.GraphResponse) {
			r.Nodes = append(r.Nodes, node("U", 2, "l", wire.ListOf(vInt(1), vFloat(math.Inf(-1)))))
		}, "toon: nodes[1].properties.l[1]: unsupported float value -Inf"},
		{"property id", func(r *wire.GraphResponse) { r.Nodes[0].Properties[0].Key = "id" }, `toon: nodes[0].properties.id: property named "id"`},
		{"property type", func(r *wire.GraphResponse) { r.Nodes = append(r.Nodes, node("V", 2, "type", vStr("x"))) }, `toon: nodes[1].properties.type: property named "type"`},
		{"duplicate property", func(r *wire.GraphResponse) {
			r.Nodes[0].Properties = append(r.Nodes[0].Properties, wire.Prop("a", vInt(2)))
		}, `toon: nodes[0].properties.a: duplicate property "a"`},
		{"group kind", func(r *wire.GraphResponse) { r.GroupColumns = []wire.GroupColumn{{Name: "g", Kind: "edge"}} }, `toon: group_columns[0].kind: invalid group kind "edge"`},
		{"duplicate cell", func(r *wire.GraphResponse) { r.Rows = []wire.Row{{{Name: "c"}, {Name: "c"}}} }, `toon: rows[0]: duplicate cell "c"`},
		{"cell NaN", func(r *wire.GraphResponse) { r.Rows = []wire.Row{{}, {{Name: "c", Value: vFloat(math.Inf(1))}}} }, "toon: rows[1].c: unsupported float value +Inf"},
		{"reference property id", func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "u", Node: ref(node("U", 1, "id", vInt(2)))}}}
		}, `toon: rows[0].u.properties.id: property named "id"`},
		{"reference NaN", func(r *wire.GraphResponse) {
			r.Rows = []wire.Row{{{Name: "u", Node: ref(node("U", 1, "x", vFloat(math.NaN())))}}}
		}, "toon: rows[0].u.properties.x: unsupported float value NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r *wire.GraphResponse
			if tc.change != nil {
				r = ok()
				tc.change(r)
			}
			dst := []byte("prefix")
			out, err := toon.AppendEncode(dst, r)
			if err == nil {
				t.Fatalf("no error; encoded\n%s", out)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Errorf("error %T is not a *wire.EncodeError", err)
			}
			if string(out) != "prefix" {
				t.Errorf("AppendEncode returned %q on error, want dst unchanged", out)
			}
		})
	}
}

func TestGraphDecodeErrors(t *testing.T) {
	const head = "format_version: v1\nquery_type: traversal\n"
	tests := []struct{ name, in, want string }{
		{"not TOON", "a:\n   b: 1", "toon: line 2, column 1: "},
		{"root array", "[2]: 1,2", "toon: line 1: expected an object"},
		{"no query type", "format_version: x", "toon: line 1: missing query_type"},
		{"no format version", "query_type: search", "toon: line 1: missing format_version"},
		{"unknown field", head + "nodes:\nextra: 1", "toon: line 4: extra: unknown field"},
		{"query type", "format_version: x\nquery_type: walk", `toon: line 2: query_type: unknown query type "walk"`},
		{"format version number", "format_version: 1.5\nquery_type: search", "toon: line 1: format_version: expected a string, found number 1.5"},
		{"node id string", head + "nodes:\n  User[2]{id,name}:\n    1,a\n    x,b", `toon: line 6: nodes.User[1].id: expected an integer, found string "x"`},
		{"node id float", head + "nodes:\n  User[1]{id}:\n    1.5", "toon: line 5: nodes.User[0].id: expected an integer, found number 1.5"},
		{"node without id", head + "nodes:\n  User[2]:\n    - id: 1\n    - name: a", "toon: line 6: nodes.User[1]: node without id"},
		{"node type property", head + "nodes:\n  User[1]:\n    - id: 1\n      type: x", "toon: line 6: nodes.User[0].type: a node's type is its group's name"},
		{"object property", head + "nodes:\n  User[1]:\n    - id: 1\n      p:\n        q: 1", "toon: line 6: nodes.User[0].p: expected a value"},
		{"group not array", head + "nodes:\n  User: 3", "toon: line 4: nodes.User: expected an array, found number 3"},
		{"quoted type", head + "nodes:\n  \"a b\": 3", `toon: line 4: nodes."a b": expected an array`},
		{"group list member count", head + "nodes[1]:\n  - A[0]:\n    B[0]:", "toon: line 4: nodes[0]: expected an object with one member"},
		{"nodes scalar", head + "nodes: 1", "toon: line 3: nodes: expected an object of node types"},
		{"edge missing", head + "edges[1]{from,from_id,to,to_id}:\n  A,1,B,2", "toon: line 4: edges[0]: missing type"},
		{"edge unknown", head + "edges[1]{from,from_id,to,to_id,type,weight}:\n  A,1,B,2,R,3", "toon: line 4: edges[0].weight: unknown field"},
		{"edge depth", head + "edges[2]{from,from_id,to,to_id,type,depth}:\n  A,1,B,2,R,null\n  A,1,B,2,R,deep", `toon: line 5: edges[1].depth: expected an integer, found string "deep"`},
		{"edge id", head + "edges[1]:\n  - from: A\n    from_id: \"1\"", `toon: line 5: edges[0].from_id: expected an integer, found string "1"`},
		{"column missing", head + "columns[1]{name}:\n  c", "toon: line 4: columns[0]: missing function"},
		{"group kind", head + "group_columns[1]{name,kind,node}:\n  g,edge,n", `toon: line 4: group_columns[0].kind: unknown group kind "edge"`},
		{"row scalar", head + "rows[2]:\n  - a: 1\n  - 5", "toon: line 5: rows[1]: expected a row"},
		{"row cell list", head + "rows[1]:\n  - [1]:\n    - 5", "toon: line 5: rows[0][0]: expected an object"},
		{"row cell duplicate", head + "rows[1]:\n  - [2]:\n    - a: 1\n    - a: 2", "toon: line 6: rows[0][1].a: duplicate cell"},
		{"reference without id", head + "rows[1]{u{type,name}}:\n  User,ada", "toon: line 4: rows[0].u: a node reference needs type and id"},
		{"reference id", head + "rows[1]:\n  - u:\n      type: User\n      id: x", `toon: line 6: rows[0].u.id: expected an integer, found string "x"`},
		{"pagination", head + "pagination:\n  has_more: yes\n  total_rows: 1", `toon: line 4: pagination.has_more: expected true or false, found string "yes"`},
		{"pagination missing", head + "pagination:\n  has_more: true", "toon: line 3: pagination: neither total_rows (schema v2) nor truncated (schema v5)"},
		{"pagination mixed", head + "pagination:\n  has_more: true\n  total_rows: 1\n  truncated: false", "toon: line 3: pagination: total_rows (schema v2) together with truncated (schema v5)"},
		{"pagination cursor without truncated", head + "pagination:\n  has_more: true\n  next_cursor: abc", "toon: line 3: pagination: next_cursor without truncated (schema v5 requires truncated)"},
		{"pagination without has_more", head + "pagination:\n  truncated: true", "toon: line 3: pagination: missing has_more"},
		{"pagination truncated a string", head + "pagination:\n  has_more: true\n  truncated: \"true\"", `toon: line 5: pagination.truncated: expected true or false, found string "true"`},
		{"pagination cursor a number", head + "pagination:\n  has_more: true\n  truncated: true\n  next_cursor: 42", "toon: line 6: pagination.next_cursor: expected a string, found number 42"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := decodeError(t, tc.in); !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n  %s\nwant it to start with\n  %s", err, tc.want)
			}
		})
	}
}

// decodeError returns Decode's error for in, failing unless it is a
// positioned toon *wire.DecodeError that comes without a response.
func decodeError(t *testing.T, in string) error {
	t.Helper()
	r, err := toon.Decode([]byte(in))
	if err == nil {
		t.Fatalf("no error; decoded %+v", r)
	}
	if r != nil {
		t.Errorf("Decode returned a response with its error")
	}
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Codec != "toon" || de.Line < 1 {
		t.Fatalf("error %v (%T) is not a positioned toon *wire.DecodeError", err, err)
	}
	return err
}

// TestGraphDecodeErrorText: whole messages, where a prefix would not tell
// a right one from a wrong one.
func TestGraphDecodeErrorText(t *testing.T) {
	const head = "format_version: v1\nquery_type: traversal\n"
	const twoGroups = head + "nodes:\n  A[1]{id}:\n    1\n  B[2]{id}:\n    2\n    3\n"
	tests := []struct{ name, in, want string }{
		{"root array", "[2]: 1,2", "toon: line 1: expected an object with format_version, query_type, nodes and edges, found an array"},
		{"no query type", "format_version: x", "toon: line 1: missing query_type"},
		{"order length one node", head + "nodes:\n  A[1]{id}:\n    1\nnode_order[2]: 0,0", "toon: line 6: node_order: has 2 entries for 1 node"},
		{"order length one entry", twoGroups + "node_order[1]: 0", "toon: line 9: node_order: has 1 entry for 3 nodes"},
		{"order range one group", head + "nodes:\n  A[1]{id}:\n    1\nnode_order[1]: 1", "toon: line 6: node_order[0]: group 1 out of range (there is 1 group)"},
		{"order range two groups", twoGroups + "node_order[3]: 0,1,2", "toon: line 9: node_order[2]: group 2 out of range (there are 2 groups)"},
		{"order count one node", twoGroups + "node_order[3]: 0,0,1", "toon: line 9: node_order[1]: group 0 has only 1 node"},
		{"order count two nodes", twoGroups + "node_order[3]: 1,1,1", "toon: line 9: node_order[2]: group 1 has only 2 nodes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, decodeError(t, tc.in).Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGraphDecodeVariants: Decode reads any TOON encoding of the layout's
// values, not only what Encode writes.
func TestGraphDecodeVariants(t *testing.T) {
	want := &wire.GraphResponse{
		FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{node("User", 1, "name", vStr("Ada")), node("User", 2, "name", vStr("Bob"))},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 2, Type: "FOLLOWS", Depth: wire.Some[int64](2)}},
	}
	tests := []struct{ name, in string }{
		{"as encoded", "format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[2]{id,name}:\n    1,Ada\n    2,Bob\nedges[1]{from,from_id,to,to_id,type,depth}:\n  User,1,User,2,FOLLOWS,2"},
		{"list form, keys reordered", "query_type: traversal\nformat_version: \"1.2.0\"\nedges[1]:\n  - type: FOLLOWS\n    depth: 2\n    from: User\n    from_id: 1\n    to: User\n    to_id: 2\n    path_id: null\nnodes:\n  User[2]:\n    - name: Ada\n      id: 1\n    - id: 2\n      name: Bob"},
		{"pipe delimiter, groups list, order", "format_version: 1.2.0\nquery_type: traversal\nnodes[2]:\n  - User[1|]{id|name}:\n      2|Bob\n  - User[1]{id,name}:\n      1,Ada\nnode_order[2]: 1,0\nedges[1|]{from|from_id|to|to_id|type|depth}:\n  User|1|User|2|FOLLOWS|2"},
		{"CRLF and comment", "# a response\r\nformat_version: 1.2.0\r\nquery_type: traversal\r\nnodes:\r\n  User[2]{id,name}:\r\n    1,Ada\r\n    2,Bob\r\nedges[1]{from,from_id,to,to_id,type,depth}:\r\n  User,1,User,2,FOLLOWS,2\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := toon.Decode([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGraphTruncated cuts encodings after each byte: each prefix decodes
// to a response that re-encodes, or fails with a positioned error; never a
// panic.
func TestGraphTruncated(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, MaxNodes: 5, MaxRows: 3})
	var docs [][]byte
	for _, tc := range layoutCases {
		b, err := toon.Encode(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	for seed := 0; seed < 8; seed++ {
		b, err := toon.Encode(gen.Example(seed))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	for k, b := range docs {
		// Every byte of short documents; long ones (long generated strings)
		// at about 1,500 places, every line end included.
		stride := max(1, len(b)/1500)
		for n := 0; n < len(b); n++ {
			if n%stride != 0 && b[n] != '\n' {
				continue
			}
			checkGraphDecode(t, b[:n])
			if t.Failed() {
				t.Fatalf("document %d cut at %d:\n%s", k, n, b[:n])
			}
		}
	}
}

// checkGraphDecode decodes data: an error must be a one-line positioned
// toon error and come without a response; a response must round-trip.
func checkGraphDecode(t *testing.T, data []byte) {
	t.Helper()
	r, err := toon.Decode(data)
	if err != nil {
		if r != nil {
			t.Fatalf("Decode returned a response with its error %v", err)
		}
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error %T %v is not a *wire.DecodeError", err, err)
		}
		if de.Codec != "toon" || de.Line < 1 || de.Line > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("DecodeError{Codec: %q, Line: %d} for %d lines", de.Codec, de.Line, bytes.Count(data, []byte("\n"))+1)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "toon: line ") || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error text %q is not one line starting with \"toon: line \"", msg)
		}
		return
	}
	graphRoundTrip(t, r)
}

func TestGraphRegistered(t *testing.T) {
	c, err := wire.Lookup("TOON")
	if err != nil {
		t.Fatal(err)
	}
	info := c.Info()
	if info.Name != toon.Name || info.MediaType != "text/toon" || info.Description == "" {
		t.Errorf("Info() = %+v", info)
	}
	r := layoutCases[0].r
	b, err := wire.EncodeWith("toon", r)
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := toon.Encode(r)
	if !bytes.Equal(b, direct) {
		t.Errorf("the registered codec and Encode disagree")
	}
	back, err := wire.DecodeWith("toon", b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(r, back, wire.NumbersByValue); diff != "" {
		t.Error(diff)
	}
}

// TestGraphDeterministic encodes one response from many goroutines: the
// bytes are the same every time, and the response is not modified.
func TestGraphDeterministic(t *testing.T) {
	r := testsupport.Traversal(20, 60)
	r.Nodes[3], r.Nodes[40] = r.Nodes[40], r.Nodes[3] // needs node_order
	want, err := toon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	before := testsupport.Traversal(20, 60)
	before.Nodes[3], before.Nodes[40] = before.Nodes[40], before.Nodes[3]
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 10; k++ {
				got, err := toon.Encode(r)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("encoding %d differs (err %v)", k, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if diff := wiretest.Diff(before, r, wire.Exact); diff != "" {
		t.Errorf("Encode modified the response:\n%s", diff)
	}
	graphRoundTrip(t, r)
}

// TestGraphTokens: on the 50-user, 200-merge-request, 200-edge traversal,
// the graph-aware layout takes fewer o200k tokens than TOON of the
// canonical JSON (what a user of a TOON library gets by default).
func TestGraphTokens(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		r    *wire.GraphResponse
	}{
		{"adr-50users-200mrs", testsupport.ADRTraversal(50, 200)},
		{"rich-50users-200mrs", testsupport.Traversal(50, 200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.r.Nodes) != 250 || len(tc.r.Edges) != 200 {
				t.Fatalf("%d nodes, %d edges", len(tc.r.Nodes), len(tc.r.Edges))
			}
			graph := graphRoundTrip(t, tc.r)
			canonical, err := json.Encode(tc.r)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := toonvalue.FromJSON(canonical, toonvalue.EncodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			count := func(b []byte) int {
				n, err := enc.Count(string(b))
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			g, p, j := count(graph), count(plain), count(canonical)
			t.Logf("o200k tokens: toon (graph-aware) %d, TOON of canonical JSON %d, canonical JSON %d; bytes %d, %d, %d",
				g, p, j, len(graph), len(plain), len(canonical))
			if g >= p {
				t.Errorf("graph-aware toon takes %d tokens, TOON of the canonical JSON %d: want fewer", g, p)
			}
		})
	}
}
