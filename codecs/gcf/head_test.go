package gcf_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sessionResponse is a small response with awkward nodes: a list
// property, a type that GCF quotes, a value ending in a comment marker,
// a node without properties.
func sessionResponse() *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 1001, Properties: []wire.Property{wire.Prop("username", wire.String("ada")), wire.Prop("labels", wire.ListOf(wire.String("a")))}},
			{Type: "User", ID: 1002, Properties: []wire.Property{wire.Prop("username", wire.String("bob"))}},
			{Type: "a|b", ID: -7, Properties: []wire.Property{wire.Prop("x", wire.String("y  # previously transmitted"))}},
			{Type: "Empty", ID: 3},
		},
		Edges: []wire.Edge{{From: "User", FromID: 1001, To: "User", ToID: 1002, Type: "KNOWS"}},
	}
}

// documentResponses are the responses the package's tests use: the
// corpus, wiretest's fixed responses and sessionResponse.
func documentResponses() []*wire.GraphResponse {
	rs := append(wiretest.FixedResponses(), sessionResponse())
	for _, cs := range corpus.Generate() {
		rs = append(rs, cs.Response)
	}
	return rs
}

// everyKind is a header with a field of every kind, texts GCF writes bare
// and quoted.
var everyKind = []delta.Field{
	{Name: delta.FieldDelta, Text: "-5a_B"},
	{Name: delta.FieldNodesChanged, Ints: []int{0, 3, -5, 1 << 40}},
	{Name: delta.FieldSentEarlier, Text: `User 1007430 1007431; "a|b" -7; MergeRequest 4`},
	{Name: delta.FieldSentEarlierAt, Ints: []int{7}},
}

// TestDocumentRoundTrip: a header of every kind, with and without content,
// reads back as written; texts that GCF quotes are quoted.
func TestDocumentRoundTrip(t *testing.T) {
	c := gcf.Default()
	texts := []string{"plain", "two words; more", "", " lead", "trail ", "true", "12", "-5", "a|b,c", `say "hi"\`, "line\nbreak", "é ü", "#x", "[1]:"}
	for _, content := range []*wire.GraphResponse{nil, sessionResponse()} {
		for _, text := range texts {
			h := append([]delta.Field(nil), everyKind...)
			h[2].Text = text
			out, err := c.AppendDocument([]byte("prefix"), h, content)
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			if !bytes.HasPrefix(out, []byte("prefix")) {
				t.Fatalf("the document does not follow dst: %q", out)
			}
			gotH, gotR, err := c.DecodeDocument(out[len("prefix"):])
			if err != nil {
				t.Fatalf("%q: %v\n%s", text, err, out)
			}
			if d := cmp.Diff(h, gotH); d != "" {
				t.Errorf("%q: header (-want +got):\n%s", text, d)
			}
			if (gotR == nil) != (content == nil) || content != nil && wiretest.Diff(content, gotR, wire.Exact) != "" {
				t.Errorf("%q: content %v, want %v", text, gotR, content)
			}
		}
	}
}

// TestDocumentText: the exact text of a one-node delta, of a response
// with a reference and of the unchanged delta.
func TestDocumentText(t *testing.T) {
	c := gcf.Default()
	user := func(id int64, name string) wire.Node {
		return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("name", wire.String(name))}}
	}
	base := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{user(1, "ada"), user(2, "bob")}}
	next := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{user(1, "ada lovelace"), user(2, "bob")}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	same, err := delta.Diff(base, base)
	if err != nil {
		t.Fatal(err)
	}
	text := func(b []byte, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The delta's content writes its format_version and query_type when
	// it has them (package delta leaves out those of the base), never its
	// empty edges.
	head := ""
	if d.Content.FormatVersion != "" {
		head += "format_version=" + d.Content.FormatVersion + "\n"
	}
	if d.Content.QueryType != "" {
		head += "query_type=" + string(d.Content.QueryType) + "\n"
	}
	for _, tc := range []struct{ got, want string }{
		{text(delta.AppendDelta(c, nil, d)), "GCF profile=generic\ngraphwire_delta=\"" + d.Check.String() + "\"\nnodes_changed=0\n" +
			head + "## nodes [1]{type,id,name}\nUser|1|ada lovelace\n"},
		{text(delta.AppendReferenced(c, nil, next, []int{1})), "GCF profile=generic\nsent_earlier=User 2\nsent_earlier_at=1\n" +
			"format_version=1.2.0\nquery_type=search\n## nodes [1]{type,id,name}\nUser|1|ada lovelace\n"},
		{text(delta.AppendDelta(c, nil, same)), "GCF profile=generic\ngraphwire_delta=\"" + same.Check.String() + "\"\n"},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("document (-want +got):\n%s", diff)
		}
	}
	back, err := delta.DecodeDelta(c, []byte(text(delta.AppendDelta(c, nil, d))))
	if err != nil {
		t.Fatal(err)
	}
	patched, err := delta.Patch(base, back)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(next, patched, wire.Exact); diff != "" {
		t.Errorf("patched (-want +got):\n%s", diff)
	}
}

// TestDocumentPlain: a document with no header is the response's own
// text, and DecodeDocument reads every response as Decode does, with no
// header.
func TestDocumentPlain(t *testing.T) {
	c := gcf.Default()
	check := func(t *testing.T, r *wire.GraphResponse) {
		want, err := c.AppendEncode([]byte("x"), r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.AppendDocument([]byte("x"), nil, r)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendDocument with no header: %v\n%s", err, wiretest.ByteDiff(want, got))
		}
		h, back, err := c.DecodeDocument(want[1:])
		if err != nil || h != nil {
			t.Fatalf("DecodeDocument: header %v, %v", h, err)
		}
		plain, err := c.Decode(want[1:])
		if err != nil {
			t.Fatal(err)
		}
		if d := wiretest.Diff(plain, back, wire.Exact); d != "" {
			t.Fatalf("DecodeDocument and Decode differ (-Decode +DecodeDocument):\n%s", d)
		}
	}
	for _, r := range documentResponses() {
		check(t, r)
	}
	rapid.Check(t, func(rt *rapid.T) {
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}).Draw(rt, "response")
		if _, err := c.AppendEncode(nil, r); err != nil {
			return // a response the codec refuses
		}
		check(t, r)
	})
}

// TestDocumentPlainAllocs: DecodeDocument reads a response with the
// allocations of Decode, no more.
func TestDocumentPlainAllocs(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector drops pooled values, which changes allocation")
	}
	c := gcf.Default()
	text := mustEncode(t, c, sessionResponse())
	plain := testing.AllocsPerRun(50, func() { _, _ = c.Decode(text) })
	doc := testing.AllocsPerRun(50, func() { _, _, _ = c.DecodeDocument(text) })
	if doc > plain {
		t.Errorf("DecodeDocument: %v allocations, Decode %v", doc, plain)
	}
}

// TestDocumentContent: every response the tests use reads back as the
// content of a delta's header.
func TestDocumentContent(t *testing.T) {
	c := gcf.Default()
	h := everyKind[:3]
	for _, r := range documentResponses() {
		out, err := c.AppendDocument(nil, h, r)
		if err != nil {
			t.Fatal(err)
		}
		gotH, back, err := c.DecodeDocument(out)
		if err != nil {
			t.Fatalf("%v\n%.300s", err, out)
		}
		plain, err := c.Decode(mustEncode(t, c, r))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(h, gotH); d != "" {
			t.Fatalf("header (-want +got):\n%s", d)
		}
		if d := wiretest.Diff(plain, back, wire.Exact); d != "" {
			t.Fatalf("content (-Decode +DecodeDocument):\n%s", d)
		}
	}
}

func mustEncode(t *testing.T, c *gcf.Codec, r *wire.GraphResponse) []byte {
	t.Helper()
	out, err := c.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// documentErrors are bad documents and the error each gives: its line,
// column, limit and a part of its message; small is a codec of
// MaxElements 3 and MaxStringBytes 8.
var documentErrors = []struct {
	name, in     string
	small        bool
	line, column int
	limit, msg   string
}{
	{"unknown field", "GCF profile=generic\ngraphwire_delta=x\nbase_root=x\n", false, 3, 1, "", "base_root: not a field"},
	{"long unknown field", "GCF profile=generic\n" + strings.Repeat("a", 1000) + "=1\n", false, 2, 1, "", "aaa...: not a field"},
	{"field twice", "GCF profile=generic\nnodes_added=1\ngraphwire_delta=a\nnodes_added=2\n", false, 4, 1, "", "nodes_added: given twice"},
	{"bad int list", "GCF profile=generic\nnodes_changed=0,x,5\n", false, 2, 15, "", `number 1 of the list, "x"`},
	{"empty int list", "GCF profile=generic\nnodes_changed=\n", false, 2, 15, "", "no value"},
	{"list of one plus", "GCF profile=generic\nnodes_changed=+1\n", false, 2, 15, "", "not a decimal integer"},
	{"list past MaxElements", "GCF profile=generic\nnodes_removed=0,1,2,3\n", true, 2, 15, "MaxElements", "more than 3 numbers"},
	{"bad list past MaxElements", "GCF profile=generic\nnodes_removed=0,1,x,3\n", true, 2, 15, "MaxElements", "more than 3 numbers"},
	{"text past MaxStringBytes", "GCF profile=generic\ngraphwire_delta=abcdefghi\n", true, 2, 17, "MaxStringBytes", "9 bytes"},
	{"quoted text past MaxStringBytes", "GCF profile=generic\ngraphwire_delta=\"abc\\tdefgh\"\n", true, 2, 17, "MaxStringBytes", "9 bytes"},
	{"bare text GCF quotes", "GCF profile=generic\ngraphwire_delta=true\n", false, 2, 17, "", "quoted is bare"},
	{"text after the quote", "GCF profile=generic\ngraphwire_delta=\"a\"b\n", false, 2, 17, "", "after the closing quote"},
	{"text not UTF-8", "GCF profile=generic\ngraphwire_delta=a\xffb\n", false, 2, 17, "", "not UTF-8"},
	{"truncated line", "GCF profile=generic\nnodes_added=0\ngraphwire_delta=AAA", false, 3, 20, "", "ends within the field's line"},
	{"truncated quote", "GCF profile=generic\nsent_earlier=\"User 1\n", false, 2, 14, "", "malformed quoted string"},
}

// headerShapes are documents of about n bytes whose header holds one
// long value: a list of ten-digit numbers (within the default MaxElements
// up to 11 MB), a list of one-digit numbers (refused past MaxElements),
// and a quoted text of escapes.
var headerShapes = map[string]func(n int) []byte{
	"long list": func(n int) []byte {
		return []byte("GCF profile=generic\nnodes_changed=" + strings.Repeat("1234567890,", n/11) + "7\n")
	},
	"list past MaxElements": func(n int) []byte {
		return []byte("GCF profile=generic\nnodes_changed=" + strings.Repeat("7,", n/2) + "7\n")
	},
	"long text": func(n int) []byte {
		return []byte("GCF profile=generic\nsent_earlier=\"" + strings.Repeat(`\n`, n/2) + "\"\n")
	},
}

// TestDocumentHeaderScaling: DecodeDocument reads or refuses a long
// header value in time linear in its input.
func TestDocumentHeaderScaling(t *testing.T) {
	for name, build := range headerShapes {
		wiretest.Scaling(t, name, build, func(b []byte) error { _, _, err := gcf.Default().DecodeDocument(b); return err })
	}
}

// TestDocumentHeaderMemory: a long header value of about 8 MB is read, or
// refused with a limit's error, within wiretest.DecodeMemoryBound.
func TestDocumentHeaderMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector's shadow memory makes heap figures meaningless")
	}
	for name, build := range headerShapes {
		in := build(8 << 20)
		var err error
		f := wiretest.Measure(func() { _, _, err = gcf.Default().DecodeDocument(in) })
		bound := wiretest.DecodeMemoryBound(len(in))
		t.Logf("%s: %d bytes in: %v (bound %d KiB, %.1fx the input); err %v", name, len(in), f, bound>>10, float64(f.PeakHeap)/float64(len(in)), err)
		if f.PeakHeap > bound {
			t.Errorf("%s: peak heap %d KiB for %d bytes of input, more than %d KiB", name, f.PeakHeap>>10, len(in), bound>>10)
		}
		if de, ok := err.(*wire.DecodeError); err != nil && (!ok || de.Limit == "") {
			t.Errorf("%s: %v, want the header or a limit's *wire.DecodeError", name, err)
		}
	}
}

// TestDocumentErrors: a bad header is a *wire.DecodeError at its line
// and column, naming the limit it passes.
func TestDocumentErrors(t *testing.T) {
	small, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxElements: 3, MaxStringBytes: 8}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range documentErrors {
		t.Run(tc.name, func(t *testing.T) {
			c := gcf.Default()
			if tc.small {
				c = small
			}
			h, r, err := c.DecodeDocument([]byte(tc.in))
			if err == nil {
				t.Fatalf("read %v, %v", h, r)
			}
			wiretest.WantDecodeError(t, err, gcf.Name, tc.line, tc.msg, tc.limit)
			var de *wire.DecodeError
			if errors.As(err, &de); de.Column != tc.column {
				t.Errorf("%v: column %d, want %d", err, de.Column, tc.column)
			}
		})
	}
}

// TestDocumentContentError: an error in the content is positioned in the
// whole document: the content's line moved by the header's lines.
func TestDocumentContentError(t *testing.T) {
	c := gcf.Default()
	head := "GCF profile=generic\ngraphwire_delta=x\nnodes_removed=0\nnodes_added=0\n"
	for _, content := range []string{
		"format_version=1.2.0\nquery_type=search\n## nodes [1]{type,id}\nUser|1|2\n## edges [0]\n", // a row of three cells
		"format_version=1.2.0\nquery_type=search\n## nodes [1]{type,id}\nUser|\"x\n## edges [0]\n", // an unterminated string
		"format_version=1.2.0\nquery_type=search\n## nodes [2]{type,id}\nUser|1\n## edges [0]\n",   // a count of 2 for one row
	} {
		_, plainErr := c.Decode([]byte("GCF profile=generic\n" + content))
		var want *wire.DecodeError
		if !errors.As(plainErr, &want) || want.Line < 2 {
			t.Fatalf("the content alone gives %v, want a positioned error", plainErr)
		}
		_, _, err := c.DecodeDocument([]byte(head + content))
		wiretest.WantDecodeError(t, err, gcf.Name, want.Line+3, want.Msg, want.Limit)
		var de *wire.DecodeError
		if errors.As(err, &de); de.Column != want.Column {
			t.Errorf("%v: column %d, want %d", err, de.Column, want.Column)
		}
	}
	// A document longer than MaxInputBytes.
	tiny, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxInputBytes: 64}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tiny.DecodeDocument([]byte(head + strings.Repeat("x", 64)))
	wiretest.WantDecodeError(t, err, gcf.Name, 0, "longer than the limit", "MaxInputBytes")
}

// TestDocumentRefusals: what AppendDocument refuses, with a
// *wire.EncodeError and dst as given.
func TestDocumentRefusals(t *testing.T) {
	small, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxElements: 3, MaxStringBytes: 8, MaxInputBytes: 150}})
	if err != nil {
		t.Fatal(err)
	}
	long := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{{Type: "User", ID: 1,
		Properties: []wire.Property{wire.Prop("a", wire.String("12345678")), wire.Prop("b", wire.String("12345678"))}}}}
	if _, err := small.AppendEncode(nil, long); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		header  []delta.Field
		content *wire.GraphResponse
		limit   string
		msg     string
	}{
		{"unknown field", []delta.Field{{Name: "base_root", Text: "x"}}, nil, "", "not a document header field"},
		{"field twice", []delta.Field{{Name: "graphwire_delta", Text: "x"}, {Name: "graphwire_delta", Text: "y"}}, nil, "", "given twice"},
		{"text with ints", []delta.Field{{Name: "graphwire_delta", Text: "x", Ints: []int{1}}}, nil, "", "holds a text, not integers"},
		{"list past MaxElements", []delta.Field{{Name: "nodes_added", Ints: []int{1, 2, 3, 4}}}, nil, "MaxElements", "4 numbers"},
		{"text past MaxStringBytes", []delta.Field{{Name: "graphwire_delta", Text: "123456789"}}, nil, "MaxStringBytes", "9 bytes"},
		{"text not UTF-8", []delta.Field{{Name: "graphwire_delta", Text: "a\xff"}}, nil, "", "not valid UTF-8"},
		{"document past MaxInputBytes", []delta.Field{{Name: "nodes_added", Ints: []int{100000, 200000, 300000}},
			{Name: "nodes_removed", Ints: []int{100000, 200000, 300000}}}, long, "MaxInputBytes", "more than the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("dst")
			out, err := small.AppendDocument(dst, tc.header, tc.content)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Limit != tc.limit || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want an *wire.EncodeError containing %q naming limit %q", err, tc.msg, tc.limit)
			}
			if string(out) != "dst" {
				t.Errorf("dst %q after the error", out)
			}
		})
	}
}

// TestOneNodeDeltaTokens: the o200k tokens of the delta that changes one
// string property of one node of lean/traversal_m, its content's
// format_version and query_type those of its base and so left out: at
// most 60 in all, at most 24 in its header fields, and the rest no more
// than the GCF line and the node's table.
func TestOneNodeDeltaTokens(t *testing.T) {
	base, d := deltatest.OneNodeDelta(t, nil)
	if len(d.Content.Nodes) != 1 {
		t.Fatalf("the delta carries %d nodes, want 1", len(d.Content.Nodes))
	}
	next, err := delta.Patch(base, d)
	if err != nil {
		t.Fatal(err)
	}
	text, err := delta.AppendDelta(gcf.Default(), nil, d)
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
	table := mustEncode(t, gcf.Default(), &wire.GraphResponse{QueryType: wire.Traversal, Nodes: d.Content.Nodes})
	table = table[bytes.Index(table, []byte("## nodes")):bytes.Index(table, []byte("## edges"))]
	if !bytes.HasSuffix(text, table) {
		t.Fatalf("the delta does not end with the node's table %q:\n%s", table, text)
	}
	fields := text[len("GCF profile=generic\n") : len(text)-len(table)]
	whole, head, body, open := count(text), count(fields), count(table), count([]byte("GCF profile=generic\n"))
	t.Logf("one-node delta: %d bytes, %d o200k tokens: its header fields %d, its content %d (the response: %d)\n%s",
		len(text), whole, head, body, count(mustEncode(t, gcf.Default(), next)), text)
	if whole > 60 || head > 24 || whole > open+head+body {
		t.Errorf("the one-node delta takes %d tokens (want at most 60): %d in its header fields (want at most 24) and %d in its content", whole, head, body)
	}
}

// FuzzDocument: DecodeDocument never panics, and what it reads writes
// again to a document that reads back the same header and content.
func FuzzDocument(f *testing.F) {
	c, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxInputBytes: 1 << 20, MaxElements: 10_000}})
	if err != nil {
		f.Fatal(err)
	}
	for _, tc := range documentErrors {
		f.Add([]byte(tc.in))
	}
	for _, r := range append(wiretest.FixedResponses(), sessionResponse()) {
		for _, h := range [][]delta.Field{nil, everyKind, everyKind[:2]} {
			if out, err := c.AppendDocument(nil, h, r); err == nil && len(out) < 4096 {
				f.Add(out)
			}
		}
	}
	if out, err := c.AppendDocument(nil, everyKind, nil); err == nil {
		f.Add(out)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, r, err := c.DecodeDocument(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%v (%T) is not a *wire.DecodeError", err, err)
			}
			return
		}
		if h == nil && r == nil {
			t.Fatal("no header and no content")
		}
		out, err := c.AppendDocument(nil, h, r)
		if err != nil {
			return // a response the encoder refuses (a '>' name out of order, ...)
		}
		h2, r2, err := c.DecodeDocument(out)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, out)
		}
		if d := cmp.Diff(h, h2); d != "" {
			t.Fatalf("header (-first +second):\n%s\n%s", d, out)
		}
		if (r == nil) != (r2 == nil) || r != nil && wiretest.Diff(r, r2, c.Info().Fidelity) != "" {
			t.Fatalf("content (-first +second):\n%s\n%s", wiretest.Diff(r, r2, c.Info().Fidelity), out)
		}
	})
}

// TestDocumentContract runs package deltatest's checks on the codec's
// documents: every generated delta and corpus re-query patches exactly,
// damaged deltas are errors, and session conversations resolve exactly.
func TestDocumentContract(t *testing.T) {
	t.Run("delta", func(t *testing.T) { deltatest.RunCodec(t, deltatest.CodecSuite{Codec: gcf.Default()}) })
	t.Run("session", func(t *testing.T) { deltatest.RunSession(t, deltatest.SessionSuite{Codec: gcf.Default()}) })
}
