package goon_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// asRead is r as a GOON client holds it: Decode(Encode(r)).
func asRead(t testing.TB, r *wire.GraphResponse) *wire.GraphResponse {
	t.Helper()
	return fixedPoint(t, goon.Default(), encode(t, r))
}

// smallTraversal is a merge request and two users, one edge.
func smallTraversal() *wire.GraphResponse {
	return resp(wire.Traversal,
		nodes(node("MergeRequest", 7, P("iid", I(3))), node("User", 1, P("name", S("ada"))), node("User", 2, P("name", S("bob")))),
		edge("AUTHORED", "User", 1, "MergeRequest", 7))
}

// checkDocument fails unless data reads back as header and content (as
// GOON reads content: asRead).
func checkDocument(t *testing.T, c *goon.Codec, data []byte, header []delta.Field, content *wire.GraphResponse) {
	t.Helper()
	h, got, err := c.DecodeDocument(data)
	if err != nil {
		t.Fatalf("DecodeDocument: %v\n%s", err, data)
	}
	if diff := cmp.Diff(header, h); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	switch {
	case content == nil && got != nil:
		t.Errorf("content %v, want none", got)
	case content != nil && got == nil:
		t.Errorf("no content, want %v", content)
	case content != nil:
		if diff := wiretest.Diff(asRead(t, content), got, wire.Exact); diff != "" {
			t.Errorf("content (-want +got):\n%s", diff)
		}
	}
}

// TestDocumentRoundTrip: a header of every kind of field, and texts
// written bare and quoted, read back with and without content.
func TestDocumentRoundTrip(t *testing.T) {
	c := goon.Default()
	for _, tc := range []struct {
		name   string
		header []delta.Field
	}{
		{"a check", []delta.Field{{Name: delta.FieldDelta, Text: "123456789012345678901234567890123456789"}}},
		{"int list", []delta.Field{{Name: delta.FieldNodesChanged, Ints: []int{0, 3, 5}}, {Name: delta.FieldRowsAdded, Ints: []int{-1, 1 << 40}}}},
		{"one-number list", []delta.Field{{Name: delta.FieldEdgesRemoved, Ints: []int{9}}}},
		{"bare text", []delta.Field{{Name: delta.FieldDelta, Text: "s_nJE3KaAzHzQNUk8LHG9g"}}},
		{"text like a number or keyword", []delta.Field{{Name: delta.FieldDelta, Text: "42"}, {Name: delta.FieldSentEarlier, Text: "true"}}},
		{"quoted text", []delta.Field{{Name: delta.FieldSentEarlier, Text: `User 1 2; "a \"b\"" 3`}}},
		{"text with line ends, tabs, non-ASCII", []delta.Field{{Name: delta.FieldSentEarlier, Text: "a\nb\r\tc ✓"}}},
		{"empty text", []delta.Field{{Name: delta.FieldDelta, Text: ""}}},
		{"every field", everyField()},
	} {
		for _, content := range []*wire.GraphResponse{smallTraversal(), nil} {
			t.Run(tc.name, func(t *testing.T) {
				b, err := c.AppendDocument([]byte("prefix"), tc.header, content)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(b, []byte("prefix@header\n")) {
					t.Fatalf("document does not follow dst and open with @header:\n%s", b)
				}
				checkDocument(t, c, b[len("prefix"):], tc.header, content)
			})
		}
	}
}

// everyField is a header with every field name, in order.
func everyField() []delta.Field {
	names := []string{delta.FieldDelta, delta.FieldNodesChanged, delta.FieldNodesRemoved, delta.FieldNodesMoved,
		delta.FieldNodesMovedTo, delta.FieldNodesAdded, delta.FieldEdgesRemoved, delta.FieldEdgesMoved, delta.FieldEdgesMovedTo,
		delta.FieldEdgesAdded, delta.FieldRowsRemoved, delta.FieldRowsMoved, delta.FieldRowsMovedTo, delta.FieldRowsAdded,
		delta.FieldSentEarlier, delta.FieldSentEarlierAt}
	h := make([]delta.Field, len(names))
	for i, n := range names {
		h[i].Name = n
		switch k, _ := delta.FieldKind(n); k {
		case delta.IntList:
			h[i].Ints = []int{i, i + 1}
		case delta.Text:
			h[i].Text = "text " + n
		}
	}
	return h
}

// TestDocumentText: the exact text of a one-node delta, of the unchanged
// delta and of a response with references, and what each reads back as.
func TestDocumentText(t *testing.T) {
	c := goon.Default()
	base := asRead(t, smallTraversal())
	next := wiretest.Clone(base)
	next.Nodes[1].Properties[0].Value = S("ada lovelace") // User 1, in GOON's order
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	check := "graphwire_delta:" + d.Check.String() + "\n"
	for _, tc := range []struct {
		name string
		d    *delta.Delta
		want string
	}{
		{"one node changed", d, "@header\n" + check + "nodes_changed:1\n" +
			"@nodes\nUser(1):\n1 name=\"ada lovelace\"\n"},
		{"unchanged", &delta.Delta{Check: d.Check}, "@header\n" + check},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := delta.AppendDelta(c, nil, tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(b)); diff != "" {
				t.Errorf("delta text (-want +got):\n%s", diff)
			}
			back, err := delta.DecodeDelta(c, b)
			if err != nil {
				t.Fatal(err)
			}
			if what := delta.Differs(tc.d, back); what != "" {
				t.Errorf("the delta reads back different at %s", what)
			}
			_, err = c.Decode(b)
			wiretest.WantDecodeError(t, err, "goon", 2, "document header field graphwire_delta among GOON's header fields", "")
		})
	}

	b, err := delta.AppendReferenced(c, nil, next, []int{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "@header\nsent_earlier:\"MergeRequest 7; User 2\"\nsent_earlier_at:0,2\n" +
		"query_type:traversal\n" +
		"@nodes\nUser(1):\n1 name=\"ada lovelace\"\n@edges\nAUTHORED(1):\nUser:1 --> MergeRequest:7\n"
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("referencing text (-want +got):\n%s", diff)
	}
	content := wiretest.Clone(next)
	content.Nodes = nodes(next.Nodes[1])
	checkDocument(t, c, b, []delta.Field{{Name: delta.FieldSentEarlier, Text: "MergeRequest 7; User 2"}, {Name: delta.FieldSentEarlierAt, Ints: []int{0, 2}}}, content)
}

// plainResponses are the responses this package's tests encode: the
// golden cases and the corpus.
func plainResponses() map[string]*wire.GraphResponse {
	out := map[string]*wire.GraphResponse{}
	for _, gc := range goldenCases() {
		out["golden/"+gc.name] = gc.in
	}
	for _, cc := range corpus.Generate() {
		out["corpus/"+cc.ID()] = cc.Response
	}
	return out
}

// fataler is what checkPlain needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// checkPlain fails unless a document without header is r's GOON text
// byte for byte, and the text reads back through DecodeDocument as Decode
// reads it, with no header.
func checkPlain(t fataler, r *wire.GraphResponse) {
	t.Helper()
	c := goon.Default()
	want, err := c.AppendEncode([]byte("x"), r)
	if err != nil {
		return // outside GOON's rules: AppendDocument refuses it too
	}
	got, err := c.AppendDocument([]byte("x"), nil, r)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("AppendDocument without header (error %v):\n%s\nwant AppendEncode's:\n%s", err, got, want)
	}
	checkPlainText(t, want[1:])
}

// checkPlainText fails unless DecodeDocument reads text as Decode does.
func checkPlainText(t fataler, text []byte) {
	t.Helper()
	c := goon.Default()
	r, err := c.Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	h, got, err := c.DecodeDocument(text)
	if err != nil || h != nil {
		t.Fatalf("DecodeDocument of a response: header %v, error %v", h, err)
	}
	if diff := wiretest.Diff(r, got, wire.Exact); diff != "" {
		t.Fatalf("DecodeDocument reads a response otherwise than Decode (-Decode +DecodeDocument):\n%s", diff)
	}
}

// TestDocumentPlain: a response is a document without header, written and
// read as AppendEncode and Decode write and read it: the golden cases, the
// corpus, GKG's reference texts and generated responses.
func TestDocumentPlain(t *testing.T) {
	if raceEnabled {
		t.Skip("the whole corpus and generated responses on one goroutine; .ci/run runs it without -race")
	}
	for name, r := range plainResponses() {
		t.Run(name, func(t *testing.T) { checkPlain(t, r) })
	}
	for _, tc := range append(testsupport.ReferenceCases(t), testsupport.CurrentCases(t)...) {
		t.Run("gkg/"+tc.Name, func(t *testing.T) { checkPlainText(t, tc.GOON) })
	}
	t.Run("generated", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { checkPlain(rt, wiretest.ResponseWith(genOptions).Draw(rt, "response")) })
	})
	if _, _, err := goon.Default().DecodeDocument([]byte("\ufeff@header\r\nquery_type:search\r\ngoon_version:1.0.0\r\nnodes:0\r\nedges:0\r\n@nodes\r\n@edges\r\n")); err != nil {
		t.Errorf("a response with a byte order mark and CRLF: %v", err)
	}
}

// doc3 is a document with three header fields, so that its content
// starts on line 5.
func doc3(content ...string) []byte {
	return []byte(doc(cat(lines("@header", "graphwire_delta:s_nJE3KaAzHzQNUk8LHG9g", "nodes_changed:0", "nodes_removed:1"), content)...))
}

// TestDocumentDecodeErrors: what DecodeDocument refuses, and where.
func TestDocumentDecodeErrors(t *testing.T) {
	trav := head("traversal", "1", "0")[1:]
	few := wire.Limits{MaxElements: 3}
	short := wire.Limits{MaxStringBytes: 8}
	for _, tc := range []struct {
		name   string
		in     []byte
		limits wire.Limits
		line   int
		msg    string
		limit  string
	}{
		{name: "unknown field first", in: []byte(doc("@header", "nodes_edited:1", "query_type:search")), line: 2, msg: `unknown header field "nodes_edited"`},
		{name: "unknown field after one", in: []byte(doc("@header", "graphwire_delta:x", "nodes_edited:1")), line: 3, msg: `unknown header field "nodes_edited"`},
		{name: "field after GOON's", in: doc3(cat(head("search", "0", "0")[1:2], lines("sent_earlier_at:1"))...), line: 6, msg: "document header field sent_earlier_at among GOON's header fields"},
		{name: "field twice", in: []byte(doc("@header", "graphwire_delta:a", "nodes_changed:1", "graphwire_delta:b")), line: 4, msg: "header field graphwire_delta twice (first on line 2)"},
		{name: "bad int list", in: []byte(doc("@header", "graphwire_delta:x", "nodes_changed:1,,3")), line: 3, msg: `nodes_changed: number 1 of the list, "", is not a decimal integer`},
		{name: "int list not numbers", in: []byte(doc("@header", "nodes_changed:1 2")), line: 2, msg: `number 0 of the list, "1 2"`},
		{name: "list past MaxElements", in: []byte(doc("@header", "nodes_changed:1,2,3,4")), limits: few, line: 2, msg: "more than 3 numbers in nodes_changed", limit: "MaxElements"},
		{name: "bare text past MaxStringBytes", in: []byte(doc("@header", "graphwire_delta:abcdefghi")), limits: short, line: 2, msg: "graphwire_delta of 9 bytes", limit: "MaxStringBytes"},
		{name: "quoted text past MaxStringBytes", in: []byte(doc("@header", `sent_earlier:"User 1 2 3"`)), limits: short, line: 2, msg: "sent_earlier of 10 bytes", limit: "MaxStringBytes"},
		{name: "text not a token", in: []byte(doc("@header", "sent_earlier:User 1")), line: 2, msg: "unexpected ' ' in the bare sent_earlier"},
		{name: "text unterminated", in: []byte(doc("@header", `sent_earlier:"User 1`)), line: 2, msg: "unterminated quoted value"},
		{name: "text empty", in: []byte(doc("@header", "graphwire_delta:")), line: 2, msg: "expected a token after graphwire_delta:"},
		{name: "header cut in a line", in: []byte("@header\ngraphwire_delta:x\nnodes_changed:1"), line: 3, msg: "the last line does not end with a newline"},
		{name: "content cut after its header", in: doc3(trav...), line: 8, msg: "input ends, expected @nodes"},
		{name: "blank line after the fields", in: doc3(""), line: 5, msg: "blank line"},
		{name: "content error at its line", in: doc3(cat(trav, lines("@nodes", "User(1):", "1 name=a name=b", "@edges"))...), line: 11, msg: "duplicate key name"},
		{name: "content refused by its limits", in: doc3(cat(head("traversal", "4", "0")[1:], lines("@nodes", "U(4):", "1", "2", "3", "4", "@edges"))...), limits: few, line: 7, msg: "more than 3", limit: "MaxElements"},
		{name: "input past MaxInputBytes", in: doc3(trav...), limits: wire.Limits{MaxInputBytes: 64}, line: 0, msg: "longer than the limit of 64", limit: "MaxInputBytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := goon.New(goon.Options{Limits: tc.limits})
			if err != nil {
				t.Fatal(err)
			}
			h, r, err := c.DecodeDocument(tc.in)
			if h != nil || r != nil {
				t.Errorf("header %v and content %v came back with the error", h, r)
			}
			wiretest.WantDecodeError(t, err, "goon", tc.line, tc.msg, tc.limit)
		})
	}
}

// TestDocumentEncodeErrors: what AppendDocument refuses; dst comes back as
// given.
func TestDocumentEncodeErrors(t *testing.T) {
	small, err := goon.New(goon.Options{Limits: wire.Limits{MaxElements: 3, MaxStringBytes: 8, MaxInputBytes: 100}})
	if err != nil {
		t.Fatal(err)
	}
	// 87 bytes of GOON, which the header takes past MaxInputBytes.
	content := resp(wire.Search, nodes(node("U", 1, P("a", S("x")))))
	if b, err := small.AppendEncode(nil, content); err != nil || len(b) != 87 {
		t.Fatalf("the content takes %d bytes (error %v), want 87", len(b), err)
	}
	for _, tc := range []struct {
		name    string
		header  []delta.Field
		content *wire.GraphResponse
		msg     string
		limit   string
	}{
		{"unknown field", []delta.Field{{Name: "nodes_edited", Ints: []int{1}}}, nil, `header field "nodes_edited" is not a document header field`, ""},
		{"field twice", []delta.Field{{Name: "graphwire_delta", Text: "a"}, {Name: "graphwire_delta", Text: "a"}}, nil, `header field "graphwire_delta" is given twice`, ""},
		{"list past MaxElements", []delta.Field{{Name: "nodes_added", Ints: []int{1, 2, 3, 4}}}, nil, "holds 4 numbers, more than the limit of 3", "MaxElements"},
		{"text past MaxStringBytes", []delta.Field{{Name: "graphwire_delta", Text: "abcdefghi"}}, nil, "holds 9 bytes, more than the limit of 8", "MaxStringBytes"},
		{"text with a control character", []delta.Field{{Name: "graphwire_delta", Text: "a\x01"}}, nil, "control character", ""},
		{"text of invalid UTF-8", []delta.Field{{Name: "graphwire_delta", Text: "a\xff"}}, nil, "not valid UTF-8", ""},
		{"content refused", []delta.Field{{Name: "graphwire_delta", Text: "a"}}, &wire.GraphResponse{QueryType: "bogus"}, "invalid query type", ""},
		{"document past MaxInputBytes", []delta.Field{{Name: "nodes_added", Ints: []int{1000000, 2000000, 3000000}}, {Name: "graphwire_delta", Text: "abcdefgh"}}, content, "the document would take", "MaxInputBytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("dst")
			got, err := small.AppendDocument(dst, tc.header, tc.content)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Codec != "goon" || !strings.Contains(err.Error(), tc.msg) || ee.Limit != tc.limit {
				t.Fatalf("error %v (%T, limit %q), want a goon *wire.EncodeError containing %q, limit %q", err, err, ee.Limit, tc.msg, tc.limit)
			}
			if string(got) != "dst" {
				t.Errorf("dst came back as %q", got)
			}
		})
	}
}

// TestDocumentHeaderMemory: a header list of MaxElements numbers, the
// shortest each can be, reads within the decode memory bound, and one
// number more is refused before the list is read, with nothing allocated
// but the copy of the input every decode makes.
func TestDocumentHeaderMemory(t *testing.T) {
	c := goon.Default()
	n := c.Limits().MaxElements
	list := strings.Repeat("0,", n)
	for _, tc := range []struct {
		name string
		list string
		want int // numbers read, or -1 for the MaxElements error
	}{
		{"MaxElements numbers", list[:len(list)-1], n},
		{"one more", list + "0", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := doc3(cat(lines("nodes_added:"+tc.list), head("search", "0", "0")[1:], lines("@nodes", "@edges"))...)
			var h []delta.Field
			var err error
			f := wiretest.Measure(func() { h, _, err = c.DecodeDocument(in) })
			bound := wiretest.DecodeMemoryBound(len(in))
			t.Logf("input %d bytes: %v (bound %d KiB)", len(in), f, bound>>10)
			if f.PeakHeap > bound {
				t.Errorf("peak heap %d bytes for an input of %d, more than %d", f.PeakHeap, len(in), bound)
			}
			if tc.want < 0 {
				wiretest.WantDecodeError(t, err, "goon", 5, "more than 1048576 numbers in nodes_added", "MaxElements")
				if f.TotalAlloc > uint64(len(in))+64<<10 { // the input's copy, as Decode makes it
					t.Errorf("allocated %d bytes to refuse the list, more than the input's %d", f.TotalAlloc, len(in))
				}
				return
			}
			if err != nil || len(h) != 4 || len(h[3].Ints) != tc.want {
				t.Fatalf("error %v, header of %d fields", err, len(h))
			}
		})
	}
}

// TestOneNodeDeltaTokens: the delta of the corpus's lean/traversal_m in
// which one user's state changed, as GOON writes it, in o200k tokens.
func TestOneNodeDeltaTokens(t *testing.T) {
	_, d := deltatest.OneNodeDelta(t, func(r *wire.GraphResponse) *wire.GraphResponse { return asRead(t, r) })
	b, err := delta.AppendDelta(goon.Default(), nil, d)
	if err != nil {
		t.Fatal(err)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	count := func(b []byte) int {
		n, err := o200k.Count(b)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// The document's fields, GOON's frame (its header and section lines)
	// and the changed node's row. The content is a fragment: the query
	// type is the base's, and it has no edges, so neither is written, nor
	// goon_version and the counts.
	fieldsEnd := bytes.Index(b, []byte("@nodes\n"))
	rowStart := bytes.Index(b, []byte("):\n")) + 3
	if fieldsEnd < 0 || rowStart < fieldsEnd || bytes.Contains(b, []byte("query_type:")) || bytes.Contains(b, []byte("@edges")) {
		t.Fatalf("not a one-node delta, or not written as a fragment:\n%s", b)
	}
	total, fields, row := count(b), count(b[len("@header\n"):fieldsEnd]), count(b[rowStart:])
	t.Logf("one-node delta, %d bytes, %d o200k tokens: %d in the document's fields, %d in GOON's header and section lines, %d in the node row:\n%s",
		len(b), total, fields, total-fields-row, row, b)
	// The fields cost what delta.Check costs (39 digits, 13 tokens) and
	// about 10 more; GOON's frame "@header", "@nodes" and the group line;
	// the row what the node costs in any GOON response.
	if total > 60 {
		t.Errorf("the one-node delta takes %d o200k tokens (%d in its fields, %d in GOON's frame), more than 60", total, fields, total-fields-row)
	}
}

// FuzzDocument: DecodeDocument never panics; every error is a positioned
// goon *wire.DecodeError and comes with nothing else; and a document it
// reads is written again, by AppendDocument, as text that reads back to
// the same header, and that is a fixed point: written again, it is the
// same bytes. Seeds: the texts of the tests above and the golden cases.
func FuzzDocument(f *testing.F) {
	c := goon.Default()
	base := asRead(f, smallTraversal())
	next := wiretest.Clone(base)
	next.Nodes[1].Properties[0].Value = S("ada lovelace")
	d, err := delta.Diff(base, next)
	if err != nil {
		f.Fatal(err)
	}
	for _, dd := range []*delta.Delta{d, {Check: d.Check}} {
		b, err := delta.AppendDelta(c, nil, dd)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	b, err := delta.AppendReferenced(c, nil, next, []int{0, 2})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, h := range [][]delta.Field{everyField(), {{Name: delta.FieldSentEarlier, Text: "a\nb\r\tc ✓ \"q\""}}} {
		b, err := c.AppendDocument(nil, h, smallTraversal())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(doc3(cat(head("traversal", "1", "0")[1:], lines("@nodes", "User(1):", "1 name=a name=b", "@edges"))...))
	f.Add([]byte(doc("@header", "graphwire_delta:a", "nodes_changed:1", "graphwire_delta:b")))
	f.Add([]byte(doc("@header", "nodes_changed:1,,3", `sent_earlier:"User 1`)))
	for _, gc := range goldenCases() {
		if out, err := goon.Encode(gc.in); err == nil {
			f.Add(out)
		}
	}
	dec, err := goon.New(goon.Options{Limits: wire.Limits{MaxStringBytes: 1 << 16, MaxMaterializedBytes: 1 << 20}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, r, err := dec.DecodeDocument(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Codec != "goon" || de.Line < 1 || !strings.HasPrefix(err.Error(), "goon: line ") {
				t.Fatalf("error %q (%T) is not a positioned goon error", err, err)
			}
			if h != nil || r != nil {
				t.Fatalf("a header or content came back with error %v", err)
			}
			return
		}
		if len(h) == 0 && r == nil {
			t.Fatalf("a document of nothing read from %q", data)
		}
		out, err := dec.AppendDocument(nil, h, r)
		if err != nil {
			t.Fatalf("a document read does not write: %v\ninput:\n%q", err, data)
		}
		h2, r2, err := dec.DecodeDocument(out)
		if err != nil {
			t.Fatalf("the written document does not read: %v\n%s", err, out)
		}
		if diff := cmp.Diff(h, h2); diff != "" {
			t.Fatalf("header (-read +read again):\n%s\ninput:\n%q\nwritten:\n%s", diff, data, out)
		}
		if (r == nil) != (r2 == nil) {
			t.Fatalf("content %v, read again %v", r, r2)
		}
		// The content is read as Decode reads it, which takes text GOON
		// does not write (an edge listed twice, which it writes once):
		// what is written is a fixed point.
		again, err := dec.AppendDocument(nil, h2, r2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("fixed point broken\ninput:\n%q\nfirst:\n%s\nsecond:\n%s", data, out, again)
		}
	})
}

// BenchmarkDecodeDocument: a response read by DecodeDocument, beside
// Decode (the two should not differ), and the same text as the content of
// a document with a header of a check and a list.
func BenchmarkDecodeDocument(b *testing.B) {
	c := goon.Default()
	header := []delta.Field{{Name: delta.FieldSentEarlier, Text: "User 1 2 3; MergeRequest 7"}, {Name: delta.FieldSentEarlierAt, Ints: []int{0, 5, 9, 11}}}
	for _, bc := range benchCases() {
		text, err := goon.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		withHeader, err := c.AppendDocument(nil, header, bc.r)
		if err != nil {
			b.Fatal(err)
		}
		benchOp(b, "decode/"+bc.name, len(text), func() (err error) { _, err = c.Decode(text); return err })
		benchOp(b, "document/"+bc.name, len(text), func() (err error) { _, _, err = c.DecodeDocument(text); return err })
		benchOp(b, "document_with_header/"+bc.name, len(withHeader), func() (err error) { _, _, err = c.DecodeDocument(withHeader); return err })
	}
}

// TestDocumentContract runs package deltatest's checks on the codec's
// documents: every generated delta and corpus re-query patches exactly,
// damaged deltas are errors, and session conversations resolve exactly.
func TestDocumentContract(t *testing.T) {
	t.Run("delta", func(t *testing.T) { deltatest.RunCodec(t, deltatest.CodecSuite{Codec: goon.Default()}) })
	t.Run("session", func(t *testing.T) { deltatest.RunSession(t, deltatest.SessionSuite{Codec: goon.Default()}) })
}
