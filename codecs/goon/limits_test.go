package goon_test

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	// A line of more pairs than MaxElements fails at that line.
	in := []byte(trav("1", "0", "@nodes", "N(1):", "1"+keyValues(101, true, "1"), "@edges"))
	_, err := mustCodec(t, wire.Limits{MaxElements: 100}).Decode(in)
	wantDecodeError(t, err, 8, "more than 100 key=value pairs on one line", "MaxElements")
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
			testsupport.Scaling(t, s.build, func(in []byte) { _, _ = wide.Decode(in) })
		})
	}
}
