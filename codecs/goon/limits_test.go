package goon_test

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// maxErrorLen bounds the text of any decode error: a position, a sentence
// and at most a ~64-byte excerpt of the input.
const maxErrorLen = 300

// wantDecodeError checks that err is a one-line, bounded goon
// *wire.DecodeError at line (or, when line is 0, at an offset) containing
// msg, and, when limit is set, that it names that Limits field.
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
	if de.Codec != "goon" || de.Line != line || !strings.Contains(text, msg) {
		t.Errorf("error %.400q (line %d)\nwant line %d containing %q", text, de.Line, line, msg)
	}
	if de.Limit != limit || (limit != "") != errors.Is(err, wire.ErrLimit) {
		t.Errorf("error %.200q names limit %q, want %q", text, de.Limit, limit)
	}
}

func mustCodec(t testing.TB, l wire.Limits) *goon.Codec {
	t.Helper()
	c, err := goon.New(goon.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDecodeTextInput: a leading UTF-8 byte order mark and CRLF line ends
// read as the plain text does, and the encoder still writes LF.
func TestDecodeTextInput(t *testing.T) {
	for _, c := range goldenCases() {
		text, err := goon.Encode(c.in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := goon.Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		crlf := bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
		bom := []byte("\xef\xbb\xbf")
		for name, in := range map[string][]byte{
			"bom":      append(bom[:3:3], text...),
			"crlf":     crlf,
			"bom_crlf": append(bom[:3:3], crlf...),
		} {
			got, err := goon.Decode(in)
			if err != nil {
				t.Errorf("%s/%s: %v", c.name, name, err)
				continue
			}
			if diff := cmp.Diff(want, got, wiretest.CmpOptions(wire.Exact)...); diff != "" {
				t.Errorf("%s/%s: decoded differently (-lf +%s):\n%s", c.name, name, name, diff)
			}
			again, err := goon.Encode(got)
			if err != nil || !bytes.Equal(again, text) {
				t.Errorf("%s/%s: re-encoding gave %v\n%s\nwant\n%s", c.name, name, err, again, text)
			}
		}
	}
	// Only the first three bytes may be a byte order mark, and a carriage
	// return is a line end only right before a newline.
	for _, c := range []struct {
		in   string
		line int
		msg  string
	}{
		{"\xef\xbb\xbf\xef\xbb\xbf@header\n", 1, `expected @header, found "\ufeff@header"`},
		{"@header\r\r\n", 1, `expected @header, found "@header\r"`},
		{"@header\rquery_type:traversal\n", 1, `expected @header, found "@header\rquery_type:traversal"`},
	} {
		_, err := goon.Decode([]byte(c.in))
		wantDecodeError(t, err, c.line, c.msg, "")
	}
}

// TestHostileDeclaredCount: a header that declares a vast count, followed
// by many blank lines, reserves no more than the input can hold and fails
// at the first blank line; past MaxElements it fails at the header.
func TestHostileDeclaredCount(t *testing.T) {
	build := func(edges string, blank int) []byte {
		b := []byte(doc(head("traversal", "0", edges)...) + "@nodes\n@edges\n")
		return append(b, bytes.Repeat([]byte("\n"), blank)...)
	}
	for _, c := range []struct {
		name          string
		in            []byte
		line          int
		msg, limit    string
		offsetNotLine bool
	}{
		// The reproducer at full size is past MaxInputBytes.
		{"230MB", build("999999999", 230<<20), 0, "longer than the limit of 67108864", "MaxInputBytes", true},
		{"count_past_MaxElements", build("999999999", 60<<20), 5, "more than 1048576 edges", "MaxElements", false},
		{"count_at_MaxElements", build("1048576", 60<<20), 8, "blank line", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			testsupport.Bounded(t, len(c.in), func() { _, err = goon.Decode(c.in) })
			wantDecodeError(t, err, c.line, c.msg, c.limit)
		})
	}
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

// TestHostileQuadratic: one line of up to 160,000 quoted values holding an
// escape, with distinct or repeated keys, in @nodes and in @rows, decodes
// (or fails) in time and memory linear in the line.
func TestHostileQuadratic(t *testing.T) {
	const esc = `"\n"`
	for _, n := range []int{40_000, 160_000} {
		nodeLine := func(distinct bool) []byte {
			return []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(n, distinct, esc), "@edges"))
		}
		rowLine := func(distinct bool) []byte {
			return []byte(trav("0", "0", "@nodes", "@edges", "@rows", keyValues(n, distinct, esc)[1:]))
		}
		t.Run(strconv.Itoa(n)+"/node_distinct", func(t *testing.T) {
			in := nodeLine(true)
			var r *wire.GraphResponse
			var err error
			testsupport.Bounded(t, len(in), func() { r, err = goon.Decode(in) })
			if err != nil {
				t.Fatal(err)
			}
			if got := len(r.Nodes[0].Properties); got != n {
				t.Errorf("%d properties, want %d", got, n)
			}
		})
		t.Run(strconv.Itoa(n)+"/node_repeated", func(t *testing.T) {
			in := nodeLine(false)
			var err error
			testsupport.Bounded(t, len(in), func() { _, err = goon.Decode(in) })
			wantDecodeError(t, err, 8, "duplicate key k", "")
		})
		t.Run(strconv.Itoa(n)+"/row_repeated", func(t *testing.T) {
			in := rowLine(false)
			var r *wire.GraphResponse
			var err error
			testsupport.Bounded(t, len(in), func() { r, err = goon.Decode(in) })
			if err != nil {
				t.Fatal(err)
			}
			if got := len(r.Rows[0]); got != n {
				t.Errorf("%d cells, want %d", got, n)
			}
		})
	}
	// A node of more properties than MaxElements, or a row of more cells,
	// fails at its line; a property's breadcrumb does not count.
	c := mustCodec(t, wire.Limits{MaxElements: 100})
	in := []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(101, true, "1"), "@edges"))
	_, err := c.Decode(in)
	wantDecodeError(t, err, 8, "more than 100 properties", "MaxElements")
	in = []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(201, true, "1"), "@edges"))
	_, err = c.Decode(in)
	wantDecodeError(t, err, 8, "more than 200 key=value pairs on one line", "MaxElements")
	in = []byte(trav("0", "0", "@nodes", "@edges", "@rows", keyValues(101, true, "1")[1:]))
	_, err = c.Decode(in)
	wantDecodeError(t, err, 9, "more than 100 key=value pairs on one line", "MaxElements")
	crumbs := "1" + keyValues(99, true, "1") + " title=" + strings.Repeat("x", 197) + "... title_len=300"
	if _, err := c.Decode([]byte(trav("1", "0", "@nodes", "N(1):", crumbs, "@edges"))); err != nil {
		t.Errorf("100 properties, one with a breadcrumb: %v", err)
	}
}

// TestHostileErrorText: errors about very long tokens quote at most a short
// excerpt of them.
func TestHostileErrorText(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	// The reproducer: a 100 MB header key. Past MaxInputBytes by default;
	// under a larger limit, the unknown field is quoted in part.
	huge := []byte("@header\n" + strings.Repeat("k", 100<<20) + ":1\n")
	var err error
	testsupport.Bounded(t, len(huge), func() { _, err = goon.Decode(huge) })
	wantDecodeError(t, err, 0, "longer than the limit", "MaxInputBytes")
	roomy := mustCodec(t, wire.Limits{MaxInputBytes: 256 << 20})
	testsupport.Bounded(t, len(huge), func() { _, err = roomy.Decode(huge) })
	wantDecodeError(t, err, 2, `unknown header field "kkkk`, "")

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
		t.Run(c.name, func(t *testing.T) {
			_, err := goon.Decode([]byte(c.in))
			wantDecodeError(t, err, c.line, c.msg, "")
		})
	}
}

// TestDecodeStringLimit: a value, key or name past MaxStringBytes fails
// at its line.
func TestDecodeStringLimit(t *testing.T) {
	c := mustCodec(t, wire.Limits{MaxStringBytes: 100})
	long := strings.Repeat("y", 101)
	for _, in := range []struct {
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
		t.Run(in.name, func(t *testing.T) {
			_, err := c.Decode([]byte(in.in))
			wantDecodeError(t, err, in.line, "longer than the limit of 100", "MaxStringBytes")
			if _, err := goon.Decode([]byte(in.in)); err != nil {
				t.Errorf("default limits: %v", err)
			}
		})
	}
}

// TestDecodeScaling: decode time per byte at 10 MB is within 2× of that
// at 100 KB for the worst line shapes: one line of escaped quoted values
// (distinct keys, repeated keys), and many short lines.
func TestDecodeScaling(t *testing.T) {
	wide := mustCodec(t, wire.Limits{MaxElements: math.MaxInt32})
	shapes := []struct {
		name  string
		build func(n int) []byte
	}{
		{"escaped_values", func(n int) []byte {
			return []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(n/10, true, `"\n"`), "@edges"))
		}},
		{"repeated_keys", func(n int) []byte {
			return []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(n/6, false, `"\n"`), "@edges"))
		}},
		{"row_cells", func(n int) []byte {
			return []byte(trav("0", "0", "@nodes", "@edges", "@rows", keyValues(n/6, false, `"\t"`)[1:]))
		}},
		{"edges", func(n int) []byte {
			count := n / 12
			var b strings.Builder
			b.WriteString(doc(head("traversal", "0", strconv.Itoa(count))...) + "@nodes\n@edges\nR(" + strconv.Itoa(count) + "):\n")
			for i := range count {
				b.WriteString("A:" + strconv.Itoa(i) + " --> B:1\n")
			}
			return []byte(b.String())
		}},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			wiretest.Scaling(t, s.name, s.build, func(in []byte) error { _, err := wide.Decode(in); return err })
		})
	}
}

// liftedDoc is an aggregation whose one lifted node has a title that
// restores to titleLen code points, referenced by rows rows.
func liftedDoc(titleLen, rows int) []byte {
	var b strings.Builder
	b.WriteString(doc(cat(head("aggregation", "1", "0"), lines("rows:"+strconv.Itoa(rows), "group_by:u(node:User)",
		"@nodes", "User(1):", "1 title="+strings.Repeat("x", 197)+"... title_len="+strconv.Itoa(titleLen), "@edges", "@rows"))...))
	for range rows {
		b.WriteString("u=User:1\n")
	}
	return []byte(b.String())
}

// TestHostileLiftedNodes: one lifted node whose title restores to tens of
// megabytes, referenced by a million rows, is refused: past MaxStringBytes
// (the reproducer, 30 MB), or past MaxExpansion times the input counting
// every use (10 MB), at the line where the limit is passed.
func TestHostileLiftedNodes(t *testing.T) {
	for _, c := range []struct {
		name     string
		titleLen int
		limit    string
	}{
		{"30MB", 30_000_000, "MaxStringBytes"},
		{"10MB", 10_000_000, "MaxExpansion"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := liftedDoc(c.titleLen, 1_000_000)
			var err error
			testsupport.Bounded(t, len(in), func() { _, err = goon.Decode(in) })
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Limit != c.limit || len(err.Error()) > maxErrorLen {
				t.Fatalf("error %v, want a *wire.DecodeError for %s", err, c.limit)
			}
			t.Log(err)
		})
	}
	// Under the limit, each use is counted: 20 rows of a 100,000-byte
	// title pass a 1 MB limit, 5 do not.
	c := mustCodec(t, wire.Limits{MaxMaterializedBytes: 1 << 20})
	if _, err := c.Decode(liftedDoc(100_000, 5)); err != nil {
		t.Errorf("5 uses: %v", err)
	}
	_, err := c.Decode(liftedDoc(100_000, 20))
	wantDecodeError(t, err, 13+10, "bytes as canonical JSON", "MaxMaterializedBytes")
}

// TestHostileSharedNames: a type name written once in a group line and
// repeated by every row of the group counts once per row, and the rows
// stop where they pass MaxExpansion times the input.
func TestHostileSharedNames(t *testing.T) {
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
	for _, in := range [][]byte{[]byte(nb.String()), []byte(eb.String())} {
		var err error
		testsupport.Bounded(t, len(in), func() { _, err = goon.Decode(in) })
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Limit != "MaxExpansion" || de.Line < 8 || de.Line > 8+5000 {
			t.Errorf("error %v, want MaxExpansion within the first 5000 rows", err)
		}
	}
}

// TestEncodeLimits: the encoder refuses, with a *wire.EncodeError naming
// the limit and writing nothing, what its decoder would refuse under the
// same limits.
func TestEncodeLimits(t *testing.T) {
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
	for _, c := range []struct {
		name   string
		limits wire.Limits
		r      *wire.GraphResponse
		limit  string
		path   string
	}{
		{"depth", wire.Limits{}, resp(wire.Search, nodes(node("N", 1, P("l", deep)))), "MaxDepth", "nodes[0].properties.l" + strings.Repeat("[0]", 32)},
		{"string", wire.Limits{MaxStringBytes: 10}, resp(wire.Search, nodes(node("N", 1, P("s", S(strings.Repeat("a", 11)))))), "MaxStringBytes", "nodes[0].properties.s"},
		{"elements", wire.Limits{MaxElements: 2}, resp(wire.Search, nodes(node("N", 1), node("N", 2), node("N", 3))), "MaxElements", "nodes"},
		{"lifted_nodes", wire.Limits{MaxElements: 3}, lifted, "MaxElements", "nodes"},
		{"output", wire.Limits{MaxInputBytes: 100}, resp(wire.Search, nodes(node("N", 1, P("s", S(strings.Repeat("a", 100)))))), "MaxInputBytes", ""},
		// A list is written as its JSON text: 30 one-quote strings are
		// 151 bytes of text, a string the decoder would refuse.
		{"list_text", wire.Limits{MaxStringBytes: 100}, resp(wire.Search, nodes(node("N", 1, P("l", L(manyQuotes...))))), "MaxStringBytes", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			codec := mustCodec(t, c.limits)
			out, err := codec.AppendEncode([]byte("keep"), c.r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Codec != "goon" || ee.Limit != c.limit || ee.Path != c.path || !errors.Is(err, wire.ErrLimit) {
				t.Fatalf("error %v, want a goon *wire.EncodeError for %s at %q", err, c.limit, c.path)
			}
			if string(out) != "keep" {
				t.Errorf("dst changed to %q", out)
			}
			var w bytes.Buffer
			if err := codec.EncodeTo(&w, c.r); err == nil || w.Len() != 0 {
				t.Errorf("EncodeTo: error %v, wrote %d bytes", err, w.Len())
			}
		})
	}
}

// TestEncodeDecodeSymmetry: under small limits, whatever the encoder
// writes, the decoder with the same limits reads.
func TestEncodeDecodeSymmetry(t *testing.T) {
	codec := mustCodec(t, wire.Limits{MaxInputBytes: 4000, MaxDepth: 2, MaxElements: 6, MaxStringBytes: 60, MaxMaterializedBytes: 3000})
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
	})
	t.Logf("%d responses written and read back under the small limits", written)
	if written == 0 {
		t.Error("no response was written under the small limits")
	}
}
