package toon_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// maxErrorLen bounds the text of any decode error: a position, a sentence
// and at most a ~64-byte excerpt of the input.
const maxErrorLen = wiretest.MaxErrorLen

// wantDecodeError checks that err is a one-line, bounded toon
// *wire.DecodeError at line (0: any line; -1: an offset, no line)
// containing msg and naming limit ("" for none).
func wantDecodeError(t *testing.T, err error, line int, msg, limit string) {
	t.Helper()
	switch line {
	case 0:
		line = wiretest.AnyLine
	case -1:
		line = 0
	}
	wiretest.WantDecodeError(t, err, "toon", line, msg, limit)
}

func mustCodec(t testing.TB, l wire.Limits) *toon.Codec {
	t.Helper()
	c, err := toon.New(toon.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// graphDoc is a search response document around the given nodes section
// lines.
func graphDoc(nodes ...string) string {
	return "format_version: \"1\"\nquery_type: search\n" + strings.Join(nodes, "\n") + "\nedges[0]:\n"
}

// escapedList writes an inline array of n quoted values holding an escape.
func escapedList(n int) string {
	return "[" + strconv.Itoa(n) + "]: " + strings.Repeat(`"\n",`, n-1) + `"\n"`
}

// keyLines writes n lines "  k<i>: 1" (distinct keys) or "  k: 1".
func keyLines(n int, distinct bool, indent string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(indent + "k")
		if distinct {
			b.WriteString(strconv.Itoa(i))
		}
		b.WriteString(": \"\\t\"\n")
	}
	return b.String()
}

// tableRow writes a table of one node with n escaped fields.
func tableRow(n int) string {
	var h, r strings.Builder
	h.WriteString("id")
	r.WriteString("1")
	for i := range n {
		h.WriteString(",k" + strconv.Itoa(i))
		r.WriteString(`,"\n"`)
	}
	return graphDoc("nodes:", "  N[1]{"+h.String()+"}:", "    "+r.String())
}

// TestLimits runs the shared hostile-input and limit suite
// (wiretest.RunLimits) over TOON inputs.
func TestLimits(t *testing.T) {
	files, err := filepath.Glob("testdata/graph/*.toon")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden documents (%v)", err)
	}
	s := wiretest.LimitSuite{
		Codec:     "toon",
		New:       func(l wire.Limits) (wire.Codec, error) { return toon.New(toon.Options{Limits: l}) },
		TextInput: map[string][]byte{},
		// The text stays within MaxDepth+8 times the canonical JSON.
		Written: func(t *rapid.T, l wire.Limits, r *wire.GraphResponse, text []byte) {
			if js, err := jsoncodec.AppendEncode(nil, r); err == nil && len(text) > (l.MaxDepth+8)*len(js) {
				t.Fatalf("TOON %d bytes, JSON %d", len(text), len(js))
			}
		},
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s.TextInput[filepath.Base(f)] = text
	}
	s.Decode = append(s.Decode, limitDeclaredCountCases()...)
	s.Decode = append(s.Decode, limitQuadraticCases()...)
	s.Decode = append(s.Decode, limitErrorTextCases()...)
	s.Decode = append(s.Decode, limitDecodeCases()...)
	s.Decode = append(s.Decode, limitSharedNameCases()...)
	s.Scaling = limitScalingShapes()
	wiretest.RunLimits(t, s)
}

// limitDeclaredCountCases: an array header declaring a vast count fails
// at the header, before any row is read; under the limit, the rows it
// declares reserve nothing the input does not hold.
func limitDeclaredCountCases() []wiretest.DecodeCase {
	blank := func() string { return strings.Repeat("\n", 60<<20) }
	return []wiretest.DecodeCase{
		{Name: "count/230MB", Build: func() []byte {
			return []byte("nodes:\n  N[999999999]{id}:\n" + strings.Repeat("\n", 230<<20))
		}, Line: 0, Msg: "longer than the limit of 67108864", Limit: "MaxInputBytes"},
		{Name: "count/past_MaxElements", Build: func() []byte { return []byte(graphDoc("nodes:", "  N[999999999]{id}:"+blank())) },
			Line: 4, Msg: "an array of 999999999 values, more than the limit of 1048576", Limit: "MaxElements"},
		{Name: "count/edges_past_MaxElements", Build: func() []byte {
			return []byte("format_version: \"1\"\nquery_type: search\nedges[999999999]{from,from_id,to,to_id,type}:" + blank())
		}, Line: 3, Msg: "more than the limit", Limit: "MaxElements"},
		{Name: "count/at_MaxElements", Build: func() []byte { return []byte(graphDoc("nodes:", "  N[1048576]{id}:", "    1"+blank())) },
			Line: wiretest.AnyLine, Msg: "tabular array declares 1048576 rows but has 1"},
	}
}

// limitQuadraticCases: long lines of escaped values, and objects of many
// keys (distinct or repeated), decode in time and memory linear in the
// input.
func limitQuadraticCases() []wiretest.DecodeCase {
	oneNode := func(t *testing.T, r *wire.GraphResponse) {
		if len(r.Nodes) != 1 {
			t.Fatalf("%d nodes", len(r.Nodes))
		}
	}
	var cases []wiretest.DecodeCase
	for _, n := range []int{40_000, 160_000} {
		name := "quadratic/" + strconv.Itoa(n) + "/"
		cases = append(cases,
			wiretest.DecodeCase{Name: name + "inline_list", In: []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      l"+escapedList(n))), Check: oneNode},
			wiretest.DecodeCase{Name: name + "table_row", In: []byte(tableRow(n)), Check: oneNode},
			wiretest.DecodeCase{Name: name + "node_keys", In: []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(n, true, "      "), "\n"))), Check: oneNode},
			// Past 24 distinct keys a repeat is found once the object is
			// read: the worst case for repeated keys.
			wiretest.DecodeCase{Name: name + "node_keys_repeated", In: []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(24, true, "      ")+keyLines(n, false, "      "), "\n"))),
				Line: wiretest.AnyLine, Msg: "duplicate key \"k\""},
		)
	}
	return cases
}

// limitErrorTextCases: errors about very long keys, names and tokens
// quote at most a short excerpt of them.
func limitErrorTextCases() []wiretest.DecodeCase {
	long := strings.Repeat("x", 1<<20)
	cases := []wiretest.DecodeCase{
		// The reproducer's size: a 50 MB key, in a document past the
		// default MaxInputBytes, and under a larger limit.
		{Name: "text/huge_key", Build: func() []byte { return []byte(strings.Repeat("k", 50<<20) + ": 1\n") },
			Limits: wire.Limits{MaxInputBytes: 256 << 20, MaxStringBytes: 128 << 20}, Line: 1, Msg: "unknown field"},
	}
	for _, c := range []struct {
		name string
		in   string
		msg  string
	}{
		{"duplicate_key", long + ": 1\n" + long + ": 2\n", "duplicate key"},
		{"missing_colon", "a:\n  " + long + "\n", "missing colon after key"},
		{"array_length", "a[" + long + "]: 1\n", "invalid array length"},
		{"field_name", "a[1]{" + long + "," + long + "}:\n  1,2\n", "duplicate field name"},
		{"node_type", graphDoc("nodes:", "  "+long+"[1]:", "    - x: 1"), "node without id"},
		{"string_value", graphDoc("nodes:", "  N[1]:", "    - id: "+long), "expected an integer, found string"},
		{"query_type", "format_version: \"1\"\nquery_type: " + long + "\n", "unknown query type"},
	} {
		cases = append(cases, wiretest.DecodeCase{Name: "text/" + c.name, In: []byte(c.in), Line: wiretest.AnyLine, Msg: c.msg})
	}
	return cases
}

// limitDecodeCases: each limit refuses, with a positioned error naming
// it, one step past it, and accepts what is at it.
func limitDecodeCases() []wiretest.DecodeCase {
	deep := func(d int) []byte {
		// A property holding a list nested d deep, in list form.
		lines := []string{"nodes:", "  N[1]:", "    - id: 1", "      l[1]:"}
		ind := "        "
		for range d - 1 {
			lines = append(lines, ind+"- [1]:")
			ind += "  "
		}
		lines = append(lines, ind+"- 7")
		return []byte(graphDoc(lines...))
	}
	small := wire.Limits{MaxDepth: 4, MaxElements: 3, MaxStringBytes: 8, MaxMaterializedBytes: 400}
	cases := []wiretest.DecodeCase{}
	for _, tc := range []struct {
		name  string
		in    []byte
		limit string // "" for success
	}{
		{"depth_at", deep(4), ""},
		{"depth_past", deep(5), "MaxDepth"},
		{"depth_far_past", deep(40), "MaxDepth"},
		{"elements_at", []byte(graphDoc("nodes:", "  N[3]{id}:", "    1", "    2", "    3")), ""},
		{"elements_past", []byte(graphDoc("nodes:", "  N[4]{id}:", "    1", "    2", "    3", "    4")), "MaxElements"},
		{"nodes_over_groups", []byte(graphDoc("nodes:", "  N[2]{id}:", "    1", "    2", "  M[2]{id}:", "    1", "    2")), "MaxElements"},
		{"inline_past", []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      l[4]: 1,2,3,4")), "MaxElements"},
		{"properties_past", []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      a: 1", "      b: 1", "      c: 1", "      d: 1")), "MaxElements"},
		{"string_at", []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      s: abcdefgh")), ""},
		{"string_past", []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      s: abcdefghi")), "MaxStringBytes"},
		{"quoted_past", []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", `      s: "abcdefgh\n"`)), "MaxStringBytes"},
		{"key_past", []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      abcdefghi: 1")), "MaxStringBytes"},
		{"materialized_past", []byte(graphDoc("nodes:", "  N[3]{id,abcdefgh}:", "    1,abcdefgh", "    2,abcdefgh", "    3,abcdefgh")), ""},
	} {
		line := wiretest.AnyLine
		if tc.limit == "" {
			line = 0
		}
		cases = append(cases, wiretest.DecodeCase{Name: "limits/" + tc.name, In: tc.in, Limits: small, Line: line, Limit: tc.limit})
	}
	in := []byte(graphDoc("nodes:", "  N[3]{id,abcdefgh}:", "    1,abcdefgh", "    2,abcdefgh", "    3,abcdefgh"))
	return append(cases,
		wiretest.DecodeCase{Name: "limits/materialized_tight", In: in, Limits: wire.Limits{MaxMaterializedBytes: 150},
			Line: wiretest.AnyLine, Msg: "as canonical JSON", Limit: "MaxMaterializedBytes"},
		wiretest.DecodeCase{Name: "limits/materialized_default", In: in})
}

// limitSharedNameCases: a table whose header holds a 60 KB field name,
// repeated by a million one-byte rows, is refused past
// MaxMaterializedBytes rather than materialised.
func limitSharedNameCases() []wiretest.DecodeCase {
	build := func() []byte {
		name := strings.Repeat("k", 60_000)
		const n = 1_000_000
		var b strings.Builder
		b.WriteString("format_version: \"1\"\nquery_type: search\nnodes:\n  N[" + strconv.Itoa(n) + "]{id," + name + "}:\n")
		for i := range n {
			b.WriteString("    " + strconv.Itoa(i) + ",1\n")
		}
		b.WriteString("edges[0]:\n")
		return []byte(b.String())
	}
	return []wiretest.DecodeCase{{Name: "shared_names", Build: build, Line: wiretest.AnyLine, Msg: "as canonical JSON", Limit: "MaxMaterializedBytes"}}
}

// limitScalingShapes are the worst line shapes for decode time per byte.
func limitScalingShapes() []wiretest.ScalingShape {
	return []wiretest.ScalingShape{
		{Name: "inline_list", Build: func(n int) []byte {
			return []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      l"+escapedList(n/5)))
		}},
		{Name: "table_row", Build: func(n int) []byte { return []byte(tableRow(n / 10)) }},
		{Name: "node_keys", Build: func(n int) []byte {
			return []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(n/16, true, "      "), "\n")))
		}},
		{Name: "node_keys_repeated", Build: func(n int) []byte {
			return []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(24, true, "      ")+keyLines(n/13, false, "      "), "\n")))
		}},
		{Name: "table_rows", Build: func(n int) []byte {
			var b strings.Builder
			rows := n / 12
			b.WriteString("format_version: \"1\"\nquery_type: search\nnodes:\n  N[" + strconv.Itoa(rows) + "]{id,s}:\n")
			for i := range rows {
				b.WriteString("    " + strconv.Itoa(i) + ",\"\\n\"\n")
			}
			b.WriteString("edges[0]:\n")
			return []byte(b.String())
		}},
	}
}

// deepList is a list nested d deep whose innermost list holds width empty
// lists: the shape for which TOON is largest against canonical JSON.
func deepList(d, width int) wire.Value {
	items := make([]wire.Value, width)
	for i := range items {
		items[i] = wire.ListOf()
	}
	v := wire.ListOf(items...)
	for range d - 2 {
		v = wire.ListOf(v)
	}
	return v
}

// TestOutputAmplification: 1,000 nodes each holding a list nested 509
// deep, which once became 265 MB of TOON, are refused under the default
// MaxDepth; at the limit, TOON takes at most MaxDepth+8 times the bytes
// of canonical JSON, as the package documentation states, in the layout's
// deepest places.
func TestOutputAmplification(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search}
	for i := range 1000 {
		r.Nodes = append(r.Nodes, wire.Node{Type: "N", ID: int64(i), Properties: []wire.Property{{Key: "l", Value: deepList(509, 1)}}})
	}
	out, err := toon.AppendEncode([]byte("keep"), r)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || ee.Limit != "MaxDepth" || ee.Codec != "toon" || !strings.HasPrefix(ee.Path, "nodes[0].properties.l[0]") || string(out) != "keep" {
		t.Fatalf("509 deep: %v (wrote %d bytes)", err, len(out))
	}
	for _, maxDepth := range []int{4, 32} {
		for _, width := range []int{1, 1000} {
			v := deepList(maxDepth, width)
			node := wire.Node{Type: "N", ID: 1, Properties: []wire.Property{{Key: "l", Value: v}}}
			responses := map[string]*wire.GraphResponse{
				"node": {FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{node}},
				"row": {FormatVersion: "1", QueryType: wire.Aggregation,
					Columns:      []wire.Column{{Name: "c", Function: "collect"}},
					GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u"}},
					Rows:         []wire.Row{{{Name: "u", Node: &node}, {Name: "c", Value: v}}}},
			}
			c := mustCodec(t, wire.Limits{MaxDepth: maxDepth})
			for name, r := range responses {
				js, err := jsoncodec.AppendEncode(nil, r)
				if err != nil {
					t.Fatal(err)
				}
				text, err := c.AppendEncode(nil, r)
				if err != nil {
					t.Fatalf("%s at MaxDepth %d: %v", name, maxDepth, err)
				}
				ratio := float64(len(text)) / float64(len(js))
				t.Logf("%s, MaxDepth %d, width %d: %d bytes of JSON, %d of TOON (%.1f×)", name, maxDepth, width, len(js), len(text), ratio)
				if ratio > float64(maxDepth+8) {
					t.Errorf("%s: TOON is %.1f× the JSON, more than MaxDepth+8 = %d", name, ratio, maxDepth+8)
				}
				if _, err := c.Decode(text); err != nil {
					t.Errorf("%s at MaxDepth %d does not decode back: %v", name, maxDepth, err)
				}
			}
		}
	}
}
