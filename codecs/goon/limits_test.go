package goon_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// wantDecodeError checks that err is a one-line, bounded goon
// *wire.DecodeError at line (or, when line is 0, at an offset) containing
// msg, and, when limit is set, that it names that Limits field.
func wantDecodeError(t *testing.T, err error, line int, msg, limit string) {
	t.Helper()
	wiretest.WantDecodeError(t, err, "goon", line, msg, limit)
}

func mustCodec(t testing.TB, l wire.Limits) *goon.Codec {
	t.Helper()
	c, err := goon.New(goon.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// keyValues writes n pairs " k<i>=v" (distinct keys) or " k=v" (one key
// repeated).
func keyValues(n int, distinct bool, v string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(" k")
		if distinct {
			b.WriteString(strconv.Itoa(i))
		}
		b.WriteByte('=')
		b.WriteString(v)
	}
	return b.String()
}

// liftedDoc is an aggregation whose one lifted node has a title that
// restores to titleLen code points (the node has a title_len of its own),
// referenced by rows rows.
func liftedDoc(titleLen, rows int) []byte {
	var b strings.Builder
	b.WriteString(doc(cat(head("aggregation", "1", "0"), lines("rows:"+strconv.Itoa(rows), "group_by:u(node:User)",
		"@nodes", "User(1):", "1 title_len=1 title="+strings.Repeat("x", 197)+"... title_len="+strconv.Itoa(titleLen), "@edges", "@rows"))...))
	for range rows {
		b.WriteString("u=User:1\n")
	}
	return []byte(b.String())
}

// TestLimits runs the shared hostile-input and limit suite
// (wiretest.RunLimits) over GOON inputs.
func TestLimits(t *testing.T) {
	s := wiretest.LimitSuite{
		Codec:      "goon",
		New:        func(l wire.Limits) (wire.Codec, error) { return goon.New(goon.Options{Limits: l}) },
		TextInput:  map[string][]byte{},
		ReencodeLF: true,
	}
	for _, c := range goldenCases() {
		text, err := goon.Encode(c.in)
		if err != nil {
			t.Fatal(err)
		}
		s.TextInput[c.name] = text
	}
	s.Decode = append(s.Decode, limitTextInputCases()...)
	s.Decode = append(s.Decode, limitDeclaredCountCases()...)
	s.Decode = append(s.Decode, limitQuadraticCases()...)
	s.Decode = append(s.Decode, limitErrorTextCases()...)
	s.Decode = append(s.Decode, limitStringLimitCases()...)
	s.Decode = append(s.Decode, limitLiftedCases()...)
	s.Decode = append(s.Decode, limitSharedNameCases()...)
	s.Encode = limitEncodeCases()
	s.Scaling = limitScalingShapes()
	wiretest.RunLimits(t, s)
}

// limitTextInputCases: only the first three bytes may be a byte order mark,
// and a carriage return is a line end only right before a newline.
func limitTextInputCases() []wiretest.DecodeCase {
	return []wiretest.DecodeCase{
		{Name: "double_bom", In: []byte("\xef\xbb\xbf\xef\xbb\xbf@header\n"), Line: 1, Msg: `expected @header, found "\ufeff@header"`},
		{Name: "cr_cr_lf", In: []byte("@header\r\r\n"), Line: 1, Msg: `expected @header, found "@header\r"`},
		{Name: "lone_cr", In: []byte("@header\rquery_type:traversal\n"), Line: 1, Msg: `expected @header, found "@header\rquery_type:traversal"`},
	}
}

// limitDeclaredCountCases: a header that declares a vast count, followed by
// many blank lines, reserves no more than the input can hold and fails at
// the first blank line; past MaxElements it fails at the header.
func limitDeclaredCountCases() []wiretest.DecodeCase {
	build := func(edges string, blank int) func() []byte {
		return func() []byte {
			b := []byte(doc(head("traversal", "0", edges)...) + "@nodes\n@edges\n")
			return append(b, bytes.Repeat([]byte("\n"), blank)...)
		}
	}
	return []wiretest.DecodeCase{
		// The reproducer at full size is past MaxInputBytes.
		{Name: "count/230MB", Build: build("999999999", 230<<20), Line: 0, Msg: "longer than the limit of 67108864", Limit: "MaxInputBytes"},
		{Name: "count/past_MaxElements", Build: build("999999999", 60<<20), Line: 5, Msg: "more than 1048576 edges", Limit: "MaxElements"},
		{Name: "count/at_MaxElements", Build: build("1048576", 60<<20), Line: 8, Msg: "blank line"},
	}
}

// limitQuadraticCases: one line of up to 160,000 quoted values holding an
// escape, with distinct or repeated keys, in @nodes and in @rows, decodes
// (or fails) in time and memory linear in the line; a node of more
// properties than MaxElements, or a row of more cells, fails at its line,
// and a property's breadcrumb does not count.
func limitQuadraticCases() []wiretest.DecodeCase {
	const esc = `"\n"`
	var cases []wiretest.DecodeCase
	for _, n := range []int{40_000, 160_000} {
		nodeLine := func(distinct bool) []byte {
			return []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(n, distinct, esc), "@edges"))
		}
		rowLine := func(distinct bool) []byte {
			return []byte(trav("0", "0", "@nodes", "@edges", "@rows", keyValues(n, distinct, esc)[1:]))
		}
		name := "quadratic/" + strconv.Itoa(n) + "/"
		cases = append(cases,
			wiretest.DecodeCase{Name: name + "node_distinct", In: nodeLine(true), Check: func(t *testing.T, r *wire.GraphResponse) {
				if got := len(r.Nodes[0].Properties); got != n {
					t.Errorf("%d properties, want %d", got, n)
				}
			}},
			wiretest.DecodeCase{Name: name + "node_repeated", In: nodeLine(false), Line: 8, Msg: "duplicate key k"},
			wiretest.DecodeCase{Name: name + "row_repeated", In: rowLine(false), Line: wiretest.AnyLine, Msg: "duplicate cell k"},
		)
	}
	hundred := wire.Limits{MaxElements: 100}
	crumbs := "1" + keyValues(98, true, "1") + " title=" + strings.Repeat("x", 197) + "... title_len=300"
	return append(cases,
		wiretest.DecodeCase{Name: "elements/properties", Limits: hundred, In: []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(101, true, "1"), "@edges")),
			Line: 8, Msg: "more than 100 properties", Limit: "MaxElements"},
		wiretest.DecodeCase{Name: "elements/pairs", Limits: hundred, In: []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(201, true, "1"), "@edges")),
			Line: 8, Msg: "more than 200 key=value pairs on one line", Limit: "MaxElements"},
		wiretest.DecodeCase{Name: "elements/cells", Limits: hundred, In: []byte(trav("0", "0", "@nodes", "@edges", "@rows", keyValues(101, true, "1")[1:])),
			Line: 9, Msg: "more than 100 key=value pairs on one line", Limit: "MaxElements"},
		wiretest.DecodeCase{Name: "elements/breadcrumb", Limits: hundred, In: []byte(trav("1", "0", "@nodes", "N(1):", crumbs, "@edges"))},
	)
}

// limitErrorTextCases: errors about very long tokens quote at most a short
// excerpt of them.
func limitErrorTextCases() []wiretest.DecodeCase {
	long := strings.Repeat("x", 1<<20)
	// The reproducer: a 100 MB header key. Past MaxInputBytes by default;
	// under a larger limit, the unknown field is quoted in part.
	huge := func() []byte { return []byte("@header\n" + strings.Repeat("k", 100<<20) + ":1\n") }
	cases := []wiretest.DecodeCase{
		{Name: "text/huge_key", Build: huge, Line: 0, Msg: "longer than the limit", Limit: "MaxInputBytes"},
		{Name: "text/huge_key_roomy", Build: huge, Limits: wire.Limits{MaxInputBytes: 256 << 20}, Line: 2, Msg: `unknown header field "kkkk`},
	}
	for _, c := range []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"header_line", doc("@header", long), 2, "expected a header field key:value"},
		{"query_type", doc("@header", "query_type:"+long), 2, "unknown query_type"},
		{"count", doc("@header", "query_type:traversal", "goon_version:1.0.0", "nodes:"+long), 4, "expected a count after nodes:"},
		{"repeated_header_field", doc("@header", long+":1", long+":1"), 2, "unknown header field"},
		{"group_by", doc(cat(head("aggregation", "0", "0"), lines("rows:0", "group_by:"+long))...), 7, "expected a group descriptor"},
		{"column_repeats", doc(cat(head("aggregation", "0", "0"), lines("rows:0", "group_by:"+long+"(property),"+long+"(property)"))...), 7, "column name xxxx"},
		{"node_group", trav("1", "0", "@nodes", long+"(x):"), 7, "expected a node group"},
		{"node_id", trav("1", "0", "@nodes", "N(1):", long), 8, "bad id"},
		{"key_without_value", trav("1", "0", "@nodes", "N(1):", "1 "+long), 8, "expected '=' after key xxxx"},
		{"bare_value", trav("1", "0", "@nodes", "N(1):", "1 k="+long+"\x01"), 8, "unexpected '\\x01' in the bare value"},
		{"duplicate_key", trav("1", "0", "@nodes", "N(1):", "1 "+long+"=1 "+long+"=2"), 8, "duplicate key xxxx"},
		{"edge", trav("0", "1", "@nodes", "@edges", "R(1):", "A:1 --> "+long), 9, "expected target Type:id"},
		{"edge_tail", trav("0", "1", "@nodes", "@edges", "R(1):", "A:1 --> B:2 "+long), 9, "after the edge"},
		{"path", doc(cat(head("path_finding", "0", "1"), lines("@nodes", "@paths", "path=0: A:1 --"+long))...), 8, "expected a relationship"},
		{"unknown_section", trav("0", "0", "@nodes", "@edges", "@"+long), 8, "unknown section"},
	} {
		cases = append(cases, wiretest.DecodeCase{Name: "text/" + c.name, In: []byte(c.in), Line: c.line, Msg: c.msg})
	}
	return cases
}

// limitStringLimitCases: a value, key or name past MaxStringBytes fails at its
// line, and reads under the default limits.
func limitStringLimitCases() []wiretest.DecodeCase {
	long := strings.Repeat("y", 101)
	var cases []wiretest.DecodeCase
	for _, c := range []struct {
		name string
		in   string
		line int
	}{
		{"bare_value", trav("1", "0", "@nodes", "N(1):", "1 k="+long, "@edges"), 8},
		{"quoted_value", trav("1", "0", "@nodes", "N(1):", `1 k="`+long+`"`, "@edges"), 8},
		{"key", trav("1", "0", "@nodes", "N(1):", "1 "+long+"=1", "@edges"), 8},
		{"node_type", trav("1", "0", "@nodes", long+"(1):", "1", "@edges"), 7},
		{"edge_type", trav("0", "1", "@nodes", "@edges", long+"(1):", "A:1 --> B:2"), 8},
		{"endpoint_type", trav("0", "1", "@nodes", "@edges", "R(1):", long+":1 --> B:2"), 9},
		{"column", doc(cat(head("aggregation", "0", "0"), lines("rows:0", "aggregations:"+long+"(count)", "@nodes", "@edges", "@rows"))...), 7},
	} {
		cases = append(cases,
			wiretest.DecodeCase{Name: "string/" + c.name, In: []byte(c.in), Limits: wire.Limits{MaxStringBytes: 100},
				Line: c.line, Msg: "longer than the limit of 100", Limit: "MaxStringBytes"},
			wiretest.DecodeCase{Name: "string/" + c.name + "/default", In: []byte(c.in)})
	}
	return cases
}

// limitLiftedCases: one lifted node whose title restores to tens of megabytes,
// referenced by a million rows, is refused: past MaxStringBytes (the
// reproducer, 30 MB), or past MaxExpansion times the input counting every
// use (10 MB). Under the limit, each use is counted: 5 rows of a
// 100,000-byte title pass a 1 MB limit, 20 do not.
func limitLiftedCases() []wiretest.DecodeCase {
	mb := wire.Limits{MaxMaterializedBytes: 1 << 20}
	return []wiretest.DecodeCase{
		{Name: "lifted/30MB", Build: func() []byte { return liftedDoc(30_000_000, 1_000_000) }, Line: wiretest.Anywhere, Limit: "MaxStringBytes"},
		{Name: "lifted/10MB", Build: func() []byte { return liftedDoc(10_000_000, 1_000_000) }, Line: wiretest.Anywhere, Limit: "MaxExpansion"},
		{Name: "lifted/5_uses", In: liftedDoc(100_000, 5), Limits: mb},
		{Name: "lifted/20_uses", In: liftedDoc(100_000, 20), Limits: mb, Line: 13 + 10, Msg: "bytes as canonical JSON", Limit: "MaxMaterializedBytes"},
	}
}

// limitSharedNameCases: a type name written once in a group line and repeated
// by every row of the group counts once per row, and the rows stop where
// they pass MaxExpansion times the input.
func limitSharedNameCases() []wiretest.DecodeCase {
	name := strings.Repeat("T", 60_000)
	var nb, eb strings.Builder
	const n = 1_000_000
	nb.WriteString(doc(head("traversal", strconv.Itoa(n), "0")...) + "@nodes\n" + name + "(" + strconv.Itoa(n) + "):\n")
	eb.WriteString(doc(head("traversal", "0", strconv.Itoa(n))...) + "@nodes\n@edges\n" + name + "(" + strconv.Itoa(n) + "):\n")
	for i := range n {
		nb.WriteString(strconv.Itoa(i) + "\n")
		eb.WriteString("A:" + strconv.Itoa(i) + " --> B:1\n")
	}
	nb.WriteString("@edges\n")
	within := func(t *testing.T, de *wire.DecodeError) {
		if de.Line < 8 || de.Line > 8+5000 {
			t.Errorf("error at line %d, want within the first 5000 rows", de.Line)
		}
	}
	return []wiretest.DecodeCase{
		{Name: "shared_names/nodes", In: []byte(nb.String()), Line: wiretest.AnyLine, Limit: "MaxExpansion", CheckErr: within},
		{Name: "shared_names/edges", In: []byte(eb.String()), Line: wiretest.AnyLine, Limit: "MaxExpansion", CheckErr: within},
	}
}

// limitEncodeCases are GOON's own encoder refusals, besides the shared ones.
func limitEncodeCases() []wiretest.EncodeCase {
	deep := S("x")
	for range 33 {
		deep = L(deep)
	}
	manyQuotes := make([]wire.Value, 30)
	for i := range manyQuotes {
		manyQuotes[i] = S(`"`)
	}
	lifted := agg([]wire.GroupColumn{nodeGroup("u", "User")}, []wire.Column{count("n")},
		row(ref("u", node("User", 1)), cell("n", I(1))), row(ref("u", node("User", 2)), cell("n", I(1))))
	lifted.Nodes = nodes(node("User", 3), node("User", 4))
	return []wiretest.EncodeCase{
		{Name: "default_depth", R: resp(wire.Search, nodes(node("N", 1, P("l", deep)))), Limit: "MaxDepth", Path: "nodes[0].properties.l" + strings.Repeat("[0]", 32)},
		{Name: "nodes", Limits: wire.Limits{MaxElements: 2}, R: resp(wire.Search, nodes(node("N", 1), node("N", 2), node("N", 3))), Limit: "MaxElements", Path: "nodes"},
		{Name: "lifted_nodes", Limits: wire.Limits{MaxElements: 3}, R: lifted, Limit: "MaxElements", Path: "nodes"},
		// A list is written as its JSON text: 30 one-quote strings are
		// 151 bytes of text, a string the decoder would refuse.
		{Name: "list_text", Limits: wire.Limits{MaxStringBytes: 100}, R: resp(wire.Search, nodes(node("N", 1, P("l", L(manyQuotes...))))), Limit: "MaxStringBytes"},
	}
}

// limitScalingShapes are the worst line shapes for decode time per byte: one
// line of escaped quoted values (distinct keys, repeated keys), and many
// short lines.
func limitScalingShapes() []wiretest.ScalingShape {
	return []wiretest.ScalingShape{
		{Name: "escaped_values", Build: func(n int) []byte {
			return []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(n/10, true, `"\n"`), "@edges"))
		}},
		{Name: "repeated_keys", Build: func(n int) []byte {
			return []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(n/6, false, `"\n"`), "@edges"))
		}},
		{Name: "row_cells", Build: func(n int) []byte {
			return []byte(trav("0", "0", "@nodes", "@edges", "@rows", keyValues(n/6, false, `"\t"`)[1:]))
		}},
		{Name: "edges", Build: func(n int) []byte {
			count := n / 12
			var b strings.Builder
			b.WriteString(doc(head("traversal", "0", strconv.Itoa(count))...) + "@nodes\n@edges\nR(" + strconv.Itoa(count) + "):\n")
			for i := range count {
				b.WriteString("A:" + strconv.Itoa(i) + " --> B:1\n")
			}
			return []byte(b.String())
		}},
	}
}
