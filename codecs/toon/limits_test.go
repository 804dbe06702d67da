package toon_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// maxErrorLen bounds the text of any decode error: a position, a sentence
// and at most a ~64-byte excerpt of the input.
const maxErrorLen = 300

// wantDecodeError checks that err is a one-line, bounded toon
// *wire.DecodeError at line (0: any line; -1: an offset, no line)
// containing msg and naming limit ("" for none).
func wantDecodeError(t *testing.T, err error, line int, msg, limit string) {
	t.Helper()
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *wire.DecodeError", err, err)
	}
	text := err.Error()
	if len(text) > maxErrorLen || strings.ContainsAny(text, "\n\r") {
		t.Errorf("error is %d bytes or more than one line: %.400q", len(text), text)
	}
	lineOK := de.Line == line || (line == 0 && de.Line > 0) || (line < 0 && de.Line == 0)
	if de.Codec != "toon" || !lineOK || !strings.Contains(text, msg) {
		t.Errorf("error %.400q (line %d)\nwant line %d containing %q", text, de.Line, line, msg)
	}
	if de.Limit != limit || (limit != "") != errors.Is(err, wire.ErrLimit) {
		t.Errorf("error %.200q names limit %q, want %q", text, de.Limit, limit)
	}
}

func mustCodec(t testing.TB, l wire.Limits) *toon.Codec {
	t.Helper()
	c, err := toon.New(toon.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGraphTextInput: the golden documents read the same with a leading
// byte order mark and with CRLF line ends.
func TestGraphTextInput(t *testing.T) {
	files, err := filepath.Glob("testdata/graph/*.toon")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden documents (%v)", err)
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := toon.Decode(text)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		crlf := bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
		for name, in := range map[string][]byte{
			"bom":      append([]byte("\xef\xbb\xbf"), text...),
			"crlf":     crlf,
			"bom_crlf": append([]byte("\xef\xbb\xbf"), crlf...),
		} {
			got, err := toon.Decode(in)
			if err != nil {
				t.Errorf("%s/%s: %v", filepath.Base(f), name, err)
				continue
			}
			if diff := cmp.Diff(want, got, wiretest.CmpOptions(wire.Exact)...); diff != "" {
				t.Errorf("%s/%s: decoded differently:\n%s", filepath.Base(f), name, diff)
			}
		}
	}
}

// graphDoc is a search response document around the given nodes section
// lines.
func graphDoc(nodes ...string) string {
	return "format_version: \"1\"\nquery_type: search\n" + strings.Join(nodes, "\n") + "\nedges[0]:\n"
}

// TestHostileDeclaredCount: an array header declaring a vast count fails
// at the header, before any row is read; under the limit, the rows it
// declares reserve nothing the input does not hold.
func TestHostileDeclaredCount(t *testing.T) {
	blank := strings.Repeat("\n", 60<<20)
	for _, c := range []struct {
		name       string
		in         string
		line       int
		msg, limit string
	}{
		{"230MB", "nodes:\n  N[999999999]{id}:\n" + strings.Repeat("\n", 230<<20), -1, "longer than the limit of 67108864", "MaxInputBytes"},
		{"count_past_MaxElements", graphDoc("nodes:", "  N[999999999]{id}:"+blank), 4, "an array of 999999999 values, more than the limit of 1048576", "MaxElements"},
		{"edges_past_MaxElements", "format_version: \"1\"\nquery_type: search\nedges[999999999]{from,from_id,to,to_id,type}:" + blank, 3, "more than the limit", "MaxElements"},
		{"count_at_MaxElements", graphDoc("nodes:", "  N[1048576]{id}:", "    1"+blank), 0, "tabular array declares 1048576 rows but has 1", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := []byte(c.in)
			var err error
			testsupport.Bounded(t, len(in), func() { _, err = toon.Decode(in) })
			wantDecodeError(t, err, c.line, c.msg, c.limit)
		})
	}
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

// TestHostileQuadratic: long lines of escaped values, and objects of many
// keys (distinct or repeated), decode in time and memory linear in the
// input.
func TestHostileQuadratic(t *testing.T) {
	for _, n := range []int{40_000, 160_000} {
		cases := []struct {
			name string
			in   string
			err  string
		}{
			{"inline_list", graphDoc("nodes:", "  N[1]:", "    - id: 1", "      l"+escapedList(n)), ""},
			{"table_row", tableRow(n), ""},
			{"node_keys", graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(n, true, "      "), "\n")), ""},
			// Past 24 distinct keys a repeat is found once the object is
			// read: the worst case for repeated keys.
			{"node_keys_repeated", graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(24, true, "      ")+keyLines(n, false, "      "), "\n")), "duplicate key \"k\""},
		}
		for _, c := range cases {
			t.Run(strconv.Itoa(n)+"/"+c.name, func(t *testing.T) {
				in := []byte(c.in)
				var r *wire.GraphResponse
				var err error
				testsupport.Bounded(t, len(in), func() { r, err = toon.Decode(in) })
				if c.err != "" {
					wantDecodeError(t, err, 0, c.err, "")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Nodes) != 1 {
					t.Fatalf("%d nodes", len(r.Nodes))
				}
			})
		}
	}
}

// TestHostileErrorText: errors about very long keys, names and tokens
// quote at most a short excerpt of them.
func TestHostileErrorText(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	// The reproducer's size: a 50 MB key, in a document past the default
	// MaxInputBytes, and under a larger limit.
	huge := []byte(strings.Repeat("k", 50<<20) + ": 1\n")
	var err error
	roomy := mustCodec(t, wire.Limits{MaxInputBytes: 256 << 20, MaxStringBytes: 128 << 20})
	testsupport.Bounded(t, len(huge), func() { _, err = roomy.Decode(huge) })
	wantDecodeError(t, err, 1, `unknown field`, "")
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
		t.Run(c.name, func(t *testing.T) {
			_, err := toon.Decode([]byte(c.in))
			wantDecodeError(t, err, 0, c.msg, "")
		})
	}
}

// TestGraphDecodeLimits: each limit refuses, with a positioned error
// naming it, one step past it, and accepts what is at it.
func TestGraphDecodeLimits(t *testing.T) {
	deep := func(d int) string {
		// A property holding a list nested d deep, in list form.
		lines := []string{"nodes:", "  N[1]:", "    - id: 1", "      l[1]:"}
		ind := "        "
		for range d - 1 {
			lines = append(lines, ind+"- [1]:")
			ind += "  "
		}
		lines = append(lines, ind+"- 7")
		return graphDoc(lines...)
	}
	c := mustCodec(t, wire.Limits{MaxDepth: 4, MaxElements: 3, MaxStringBytes: 8, MaxMaterializedBytes: 400})
	for _, tc := range []struct {
		name  string
		in    string
		limit string // "" for success
	}{
		{"depth_at", deep(4), ""},
		{"depth_past", deep(5), "MaxDepth"},
		{"depth_far_past", deep(40), "MaxDepth"},
		{"elements_at", graphDoc("nodes:", "  N[3]{id}:", "    1", "    2", "    3"), ""},
		{"elements_past", graphDoc("nodes:", "  N[4]{id}:", "    1", "    2", "    3", "    4"), "MaxElements"},
		{"nodes_over_groups", graphDoc("nodes:", "  N[2]{id}:", "    1", "    2", "  M[2]{id}:", "    1", "    2"), "MaxElements"},
		{"inline_past", graphDoc("nodes:", "  N[1]:", "    - id: 1", "      l[4]: 1,2,3,4"), "MaxElements"},
		{"properties_past", graphDoc("nodes:", "  N[1]:", "    - id: 1", "      a: 1", "      b: 1", "      c: 1", "      d: 1"), "MaxElements"},
		{"string_at", graphDoc("nodes:", "  N[1]:", "    - id: 1", "      s: abcdefgh"), ""},
		{"string_past", graphDoc("nodes:", "  N[1]:", "    - id: 1", "      s: abcdefghi"), "MaxStringBytes"},
		{"quoted_past", graphDoc("nodes:", "  N[1]:", "    - id: 1", `      s: "abcdefgh\n"`), "MaxStringBytes"},
		{"key_past", graphDoc("nodes:", "  N[1]:", "    - id: 1", "      abcdefghi: 1"), "MaxStringBytes"},
		{"materialized_past", graphDoc("nodes:", "  N[3]{id,abcdefgh}:", "    1,abcdefgh", "    2,abcdefgh", "    3,abcdefgh"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Decode([]byte(tc.in))
			if tc.limit == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantDecodeError(t, err, 0, "", tc.limit)
		})
	}
	tight := mustCodec(t, wire.Limits{MaxMaterializedBytes: 150})
	in := graphDoc("nodes:", "  N[3]{id,abcdefgh}:", "    1,abcdefgh", "    2,abcdefgh", "    3,abcdefgh")
	_, err := tight.Decode([]byte(in))
	wantDecodeError(t, err, 0, "as canonical JSON", "MaxMaterializedBytes")
	if _, err := toon.Decode([]byte(in)); err != nil {
		t.Errorf("default limits: %v", err)
	}
}

// TestHostileSharedNames: a table whose header holds a 60 KB field name,
// repeated by a million one-byte rows, is refused past
// MaxMaterializedBytes rather than materialised.
func TestHostileSharedNames(t *testing.T) {
	name := strings.Repeat("k", 60_000)
	const n = 1_000_000
	var b strings.Builder
	b.WriteString("format_version: \"1\"\nquery_type: search\nnodes:\n  N[" + strconv.Itoa(n) + "]{id," + name + "}:\n")
	for i := range n {
		b.WriteString("    " + strconv.Itoa(i) + ",1\n")
	}
	b.WriteString("edges[0]:\n")
	in := []byte(b.String())
	var err error
	testsupport.Bounded(t, len(in), func() { _, err = toon.Decode(in) })
	wantDecodeError(t, err, 0, "as canonical JSON", "MaxMaterializedBytes")
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
				js, err := wire.AppendJSON(nil, r)
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

// TestGraphEncodeLimits: the encoder refuses, naming the limit and the
// path and writing nothing, what its decoder would refuse.
func TestGraphEncodeLimits(t *testing.T) {
	one := func(props ...wire.Property) *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{{Type: "N", ID: 1, Properties: props}}}
	}
	for _, c := range []struct {
		name   string
		limits wire.Limits
		r      *wire.GraphResponse
		limit  string
		path   string
	}{
		{"depth", wire.Limits{MaxDepth: 2}, one(wire.Property{Key: "l", Value: deepList(3, 1)}), "MaxDepth", "nodes[0].properties.l[0][0]"},
		{"string", wire.Limits{MaxStringBytes: 3}, one(wire.Property{Key: "s", Value: wire.String("abcd")}), "MaxStringBytes", "nodes[0].properties.s"},
		{"elements", wire.Limits{MaxElements: 1}, one(wire.Property{Key: "a", Value: wire.Int(1)}, wire.Property{Key: "b", Value: wire.Int(1)}), "MaxElements", "nodes[0].properties"},
		{"output", wire.Limits{MaxInputBytes: 50}, one(wire.Property{Key: "s", Value: wire.String(strings.Repeat("a", 40))}), "MaxInputBytes", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := mustCodec(t, c.limits).AppendEncode([]byte("keep"), c.r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Codec != "toon" || ee.Limit != c.limit || ee.Path != c.path || !errors.Is(err, wire.ErrLimit) {
				t.Fatalf("error %v, want a toon *wire.EncodeError for %s at %q", err, c.limit, c.path)
			}
			if string(out) != "keep" {
				t.Errorf("dst changed to %q", out)
			}
		})
	}
}

// TestGraphEncodeDecodeSymmetry: under small limits, whatever the encoder
// writes the decoder with the same limits reads back, and the text stays
// within MaxDepth+8 times the canonical JSON.
func TestGraphEncodeDecodeSymmetry(t *testing.T) {
	l := wire.Limits{MaxInputBytes: 4000, MaxDepth: 2, MaxElements: 6, MaxStringBytes: 60, MaxMaterializedBytes: 3000}
	codec := mustCodec(t, l)
	written := 0
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.Response().Draw(t, "response")
		text, err := codec.AppendEncode(nil, r)
		if err != nil {
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T) is not a *wire.EncodeError", err, err)
			}
			return
		}
		written++
		if _, err := codec.Decode(text); err != nil {
			t.Fatalf("the decoder refuses what the encoder wrote: %v\n%s", err, text)
		}
		if js, err := wire.AppendJSON(nil, r); err == nil && len(text) > (l.MaxDepth+8)*len(js) {
			t.Fatalf("TOON %d bytes, JSON %d", len(text), len(js))
		}
	})
	t.Logf("%d responses written and read back under the small limits", written)
	if written == 0 {
		t.Error("no response was written under the small limits")
	}
}

// TestGraphDecodeScaling: decode time per byte at 10 MB is within 2× of
// that at 100 KB for the worst line shapes.
func TestGraphDecodeScaling(t *testing.T) {
	wide := mustCodec(t, wire.Limits{MaxElements: math.MaxInt32})
	shapes := []struct {
		name  string
		build func(n int) []byte
	}{
		{"inline_list", func(n int) []byte {
			return []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", "      l"+escapedList(n/5)))
		}},
		{"table_row", func(n int) []byte { return []byte(tableRow(n / 10)) }},
		{"node_keys", func(n int) []byte {
			return []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(n/16, true, "      "), "\n")))
		}},
		{"node_keys_repeated", func(n int) []byte {
			return []byte(graphDoc("nodes:", "  N[1]:", "    - id: 1", strings.TrimSuffix(keyLines(24, true, "      ")+keyLines(n/13, false, "      "), "\n")))
		}},
		{"table_rows", func(n int) []byte {
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
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			wiretest.Scaling(t, s.name, s.build, func(in []byte) error { _, err := wide.Decode(in); return err })
		})
	}
}
