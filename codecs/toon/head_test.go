package toon_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// docUser is a User node with a username.
func docUser(id int64, name string) wire.Node {
	return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("username", wire.String(name))}}
}

// docResponses are a base and the responses after it: next, where one
// node's string property changed, and later, which lists the merge
// request and ada again beside a new user.
func docResponses() (base, next, later *wire.GraphResponse) {
	mr := wire.Node{Type: "MergeRequest", ID: 480003477, Properties: []wire.Property{wire.Prop("title", wire.String("Fix the cache"))}}
	authored := []wire.Edge{{From: "User", FromID: 1007430, To: "MergeRequest", ToID: 480003477, Type: "AUTHORED"}}
	base = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{docUser(1007430, "ada"), mr}, Edges: authored}
	next = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{docUser(1007430, "ada.lovelace"), mr}, Edges: authored}
	later = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{docUser(1007431, "grace"), mr, docUser(1007430, "ada")},
		Edges: []wire.Edge{{From: "User", FromID: 1007431, To: "MergeRequest", ToID: 480003477, Type: "REVIEWED"}}}
	return base, next, later
}

// The documents of docResponses, as the package documentation shows them.
const (
	oneNodeDelta = `graphwire_delta: "270670938487002172079740440993224071359"
nodes_changed[1]: 0
nodes:
  User[1]{id,username}:
    1007430,ada.lovelace`
	unchangedDelta = `graphwire_delta: "018341914618967313098806875701715783882"`
	referencing    = `sent_earlier: MergeRequest 480003477; User 1007430
sent_earlier_at[2]: 1,2
format_version: 1.2.0
query_type: traversal
nodes:
  User[1]{id,username}:
    1007431,grace
edges[1]{from,from_id,to,to_id,type}:
  User,1007431,MergeRequest,480003477,REVIEWED`
)

// TestDocumentDeltaText: a delta is its header lines, then the content in
// the layout; it reads back to the delta, which patches the base into the
// result.
func TestDocumentDeltaText(t *testing.T) {
	c := toon.Default()
	base, next, _ := docResponses()
	for _, tc := range []struct {
		name       string
		next       *wire.GraphResponse
		want       string
		wantFields int
	}{
		{"one node changed", next, oneNodeDelta, 2},
		{"unchanged", base, unchangedDelta, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := delta.Diff(base, tc.next)
			if err != nil {
				t.Fatal(err)
			}
			b, err := delta.AppendDelta(c, []byte("kept"), d)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimPrefix(string(b), "kept"); got != tc.want {
				t.Fatalf("delta text:\n%s\nwant:\n%s", got, tc.want)
			}
			h, content, err := c.DecodeDocument([]byte(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if len(h) != tc.wantFields || (content == nil) != d.Unchanged() {
				t.Fatalf("DecodeDocument: %d fields and content %v, want %d fields and content %v", len(h), content != nil, tc.wantFields, !d.Unchanged())
			}
			back, err := delta.DecodeDelta(c, []byte(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			got, err := delta.Patch(base, back)
			if err != nil {
				t.Fatal(err)
			}
			if diff := wiretest.Diff(tc.next, got, wire.NumbersByValue); diff != "" {
				t.Fatalf("Patch(base, DecodeDelta(text)) differs from the result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDocumentReferencesText: a response written in a session names the
// nodes sent earlier in its header and holds the others; the reader's
// session resolves it to the response.
func TestDocumentReferencesText(t *testing.T) {
	base, _, later := docResponses()
	w, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	first, _, err := w.Encode(nil, toon.Name, base)
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := toon.Encode(base); !bytes.Equal(first, plain) {
		t.Fatalf("a response with no references is not the plain text:\n%s\nwant:\n%s", first, plain)
	}
	second, _, err := w.Encode(nil, toon.Name, later)
	if err != nil {
		t.Fatal(err)
	}
	if string(second) != referencing {
		t.Fatalf("text:\n%s\nwant:\n%s", second, referencing)
	}
	if _, err := r.Decode(nil, toon.Name, first); err != nil {
		t.Fatal(err)
	}
	got, err := r.Decode(nil, toon.Name, second)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(later, got, wire.NumbersByValue); diff != "" {
		t.Fatalf("the resolved response differs (-want +got):\n%s", diff)
	}
}

// TestDocumentFieldKinds: a header of every kind of field, with texts
// TOON must quote, reads back as written, with and without content.
func TestDocumentFieldKinds(t *testing.T) {
	c := toon.Default()
	base, _, _ := docResponses()
	texts := []string{"plain", "", "42", "-1.5e3", "true", "null", "-dash", " padded ", "a: b", `say "hi" \ there`,
		"line\nbreak\ttab", "[1]", "a,b|c", "é and 日本", "MergeRequest 480003477; \"odd type\" 7"}
	for _, text := range texts {
		header := []delta.Field{
			{Name: delta.FieldDelta, Text: text},
			{Name: delta.FieldNodesRemoved, Ints: []int{0, 3, 5, 1 << 40}},
			{Name: delta.FieldSentEarlierAt, Ints: []int{9}},
		}
		for _, content := range []*wire.GraphResponse{nil, base} {
			b, err := c.AppendDocument(nil, header, content)
			if err != nil {
				t.Fatalf("text %q: %v", text, err)
			}
			h, got, err := c.DecodeDocument(b)
			if err != nil {
				t.Fatalf("text %q: %v\n%s", text, err, b)
			}
			if diff := cmp.Diff(header, h); diff != "" {
				t.Fatalf("text %q: header (-want +got):\n%s\n%s", text, diff, b)
			}
			if content == nil {
				if got != nil {
					t.Fatalf("text %q: a header alone read with content %v", text, got)
				}
				continue
			}
			if diff := wiretest.Diff(content, got, wire.NumbersByValue); diff != "" {
				t.Fatalf("text %q: content (-want +got):\n%s", text, diff)
			}
		}
	}
}

// TestDocumentLineEnds: a byte order mark before the header is skipped
// and CRLF line ends read as LF, as in the content; an empty list is left
// out of the header.
func TestDocumentLineEnds(t *testing.T) {
	c := toon.Default()
	in := "\uFEFF" + strings.ReplaceAll(oneNodeDelta, "\n", "\r\n")
	h, content, err := c.DecodeDocument([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want, wantContent, err := c.DecodeDocument([]byte(oneNodeDelta))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Fatalf("header (-want +got):\n%s", diff)
	}
	if diff := wiretest.Diff(wantContent, content, wire.NumbersByValue); diff != "" {
		t.Fatalf("content (-want +got):\n%s", diff)
	}
	b, err := c.AppendDocument(nil, []delta.Field{{Name: delta.FieldDelta, Text: "x"}, {Name: delta.FieldNodesAdded}}, nil)
	if err != nil || string(b) != "graphwire_delta: x" {
		t.Fatalf("with an empty list: %q, %v; want the other field alone", b, err)
	}
}

// plainDocument checks that r, with no header, is written as AppendEncode
// writes it and read as Decode reads it.
func plainDocument(t fataler, c *toon.Codec, r *wire.GraphResponse) {
	t.Helper()
	want, err := c.AppendEncode([]byte("prefix"), r)
	if err != nil {
		return // a response the codec refuses
	}
	got, err := c.AppendDocument([]byte("prefix"), nil, r)
	if err != nil {
		t.Fatalf("AppendDocument: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendDocument with no header differs from AppendEncode: %s", wiretest.ByteDiff(want, got))
	}
	text := want[len("prefix"):]
	wantR, err := c.Decode(text)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	h, gotR, err := c.DecodeDocument(text)
	if err != nil {
		t.Fatalf("DecodeDocument: %v", err)
	}
	if h != nil {
		t.Fatalf("a plain response read with a header %v", h)
	}
	if diff := wiretest.Diff(wantR, gotR, wire.Exact); diff != "" {
		t.Fatalf("DecodeDocument differs from Decode (-want +got):\n%s", diff)
	}
}

// TestDocumentPlain: every response of the package's tests (the layout
// cases, the fixed responses, the corpus, generated ones) is its plain
// text through AppendDocument with no header, and DecodeDocument reads
// that text as Decode does.
func TestDocumentPlain(t *testing.T) {
	if raceEnabled {
		t.Skip("the whole corpus and generated responses on one goroutine; .ci/run runs it without -race")
	}
	c := toon.Default()
	for _, tc := range layoutCases {
		plainDocument(t, c, tc.r)
	}
	for _, r := range wiretest.FixedResponses() {
		plainDocument(t, c, r)
	}
	for _, cs := range corpus.Generate() {
		plainDocument(t, c, cs.Response)
	}
	rapid.Check(t, func(t *rapid.T) {
		plainDocument(t, c, wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}).Draw(t, "response"))
	})
}

// TestDocumentPlainCostsNothing: reading a plain response through
// DecodeDocument allocates what Decode allocates.
func TestDocumentPlainCostsNothing(t *testing.T) {
	c := toon.Default()
	text, err := c.AppendEncode(nil, layoutCases[0].r)
	if err != nil {
		t.Fatal(err)
	}
	plain := testing.AllocsPerRun(50, func() { _, _ = c.Decode(text) })
	doc := testing.AllocsPerRun(50, func() { _, _, _ = c.DecodeDocument(text) })
	if doc != plain {
		t.Fatalf("DecodeDocument allocates %v times on a plain response, Decode %v", doc, plain)
	}
}

// TestDocumentDecodeErrors: a header that is not what AppendDocument
// writes is a *wire.DecodeError at its line (and column, for TOON's
// syntax and limits), naming the limit it passes; an error of the content
// is at its place in the whole input.
func TestDocumentDecodeErrors(t *testing.T) {
	small, err := toon.New(toon.Options{Limits: wire.Limits{MaxElements: 4, MaxStringBytes: 12}})
	if err != nil {
		t.Fatal(err)
	}
	const content = "format_version: 1.2.0\nquery_type: traversal\nnodes: {}\nedges: []"
	tests := []struct {
		name, in      string
		line, col     int
		limit, substr string
	}{
		{"unknown field", "graphwire_delta: x\nbogus: 1\n" + content, 2, 0, "", "bogus"},
		{"unknown field, first", "graphwire_deltas: 2\n" + content, 1, 0, "", "graphwire_deltas"},
		{"unknown field, a field's name and more", "graphwire_delta: x\ncheck2: x\n" + content, 2, 0, "", "check2"},
		{"field twice", "graphwire_delta: x\nsent_earlier: a\ngraphwire_delta: x\n" + content, 3, 1, "", "duplicate key"},
		{"text a number", "graphwire_delta: 2", 1, 0, "", "graphwire_delta: expected a string, found number 2"},
		{"text empty", "graphwire_delta: ", 1, 0, "", "expected a string, found an object"},
		{"text after a field", "nodes_removed[1]: 1\ngraphwire_delta: true", 2, 0, "", "expected a string, found true"},
		{"int list not a number", "nodes_removed[2]: 1,x\n" + content, 1, 0, "", `nodes_removed[1]: expected an integer, found string "x"`},
		{"int list not integers", "graphwire_delta: x\nnodes_removed[2]: 1,2.5", 2, 0, "", "nodes_removed[1]: expected an integer, found number 2.5"},
		{"int list too short", "nodes_removed[3]: 1,2", 1, 19, "", "declares 3 values but has 2"},
		{"int list too long", "nodes_removed[1]: 1,2", 1, 21, "", "declares 1 values but has more"},
		{"int list empty", "nodes_removed[0]:", 1, 0, "", "left out"},
		{"int list without a length", "nodes_removed: 1,2", 1, 0, "", `expected an array, found string "1,2"`},
		{"int list of objects", "nodes_removed[1]{a}:\n  1", 2, 0, "", "nodes_removed[0]: expected an integer, found an object"},
		{"int list past MaxElements", "nodes_removed[5]: 1,2,3,4,5", 1, 1, "MaxElements", "limit of 4"},
		{"text past MaxStringBytes", "graphwire_delta: abcdefghijklm", 1, 18, "MaxStringBytes", "limit of 12"},
		{"quoted text past MaxStringBytes", `graphwire_delta: "abcd\tefghijkl"`, 1, 18, "MaxStringBytes", "limit of 12"},
		{"text, bad escape", `graphwire_delta: "a\x"`, 1, 0, "", "escape"},
		{"text, characters after the quote", `graphwire_delta: "a"b`, 1, 21, "", "after closing quote"},
		{"truncated after the name", "graphwire_delta: x\nsent_earlier", 2, 13, "", "missing colon"},
		{"truncated in a string", "graphwire_delta: x\nsent_earlier: \"abc", 2, 15, "", "unterminated"},
		{"truncated in a length", "graphwire_delta: x\nrows_added[3", 2, 0, "", "missing colon"},
		{"truncated after a length", "graphwire_delta: x\nrows_added[3]", 2, 0, "", "missing colon"},
		{"not UTF-8", "graphwire_delta: a\xff", 1, 19, "", "UTF-8"},
		{"content error", "graphwire_delta: x\nsent_earlier: x\nnodes_changed[1]: 0\nformat_version: x\nquery_type: bogus\nnodes: {}\nedges: []", 5, 0, "", "unknown query type"},
		{"content syntax error", "graphwire_delta: x\nsent_earlier: x\nformat_version: x\nquery_type: traversal\nnodes:\n  User[2]{id}:\n    1\nedges: []", 7, 0, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, r, err := small.DecodeDocument([]byte(tc.in))
			if err == nil || h != nil || r != nil {
				t.Fatalf("DecodeDocument = %v, %v, %v; want an error", h, r, err)
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *wire.DecodeError", err, err)
			}
			if de.Codec != toon.Name || de.Line != tc.line || tc.col > 0 && de.Column != tc.col || de.Limit != tc.limit {
				t.Fatalf("error %v: line %d, column %d, limit %q; want line %d, column %d, limit %q", err, de.Line, de.Column, de.Limit, tc.line, tc.col, tc.limit)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.substr) || strings.ContainsAny(msg, "\n\r") || len(msg) > wiretest.MaxErrorLen {
				t.Fatalf("error %q: want one line of at most %d bytes containing %q", msg, wiretest.MaxErrorLen, tc.substr)
			}
		})
	}
}

// TestDocumentContentErrorPlace: a content error's line and byte offset
// are those of the whole input, the error the content alone gives moved
// by the header's lines and bytes.
func TestDocumentContentErrorPlace(t *testing.T) {
	c := toon.Default()
	const head = "graphwire_delta: x\nsent_earlier: x\n"
	for _, content := range []string{
		"format_version: x\nquery_type: bogus\nnodes: {}\nedges: []",
		"format_version: x\nquery_type: traversal\nnodes:\n  User[1]{id}:\n    x\nedges: []",
		"format_version: x\nquery_type: traversal\nedges[1]{from}:\n  \"unterminated",
		"format_version: x\nquery_type: traversal\nnodes: {}\nedges: []\nrows: 3",
	} {
		_, alone := c.Decode([]byte(content))
		_, _, whole := c.DecodeDocument([]byte(head + content))
		var a, w *wire.DecodeError
		if !errors.As(alone, &a) || !errors.As(whole, &w) {
			t.Fatalf("errors %v and %v are not both *wire.DecodeError", alone, whole)
		}
		want := *a
		want.Line += 2
		if want.Offset > 0 {
			want.Offset += int64(len(head))
		}
		if diff := cmp.Diff(&want, w); diff != "" {
			t.Fatalf("content %q: error (-want +got):\n%s", content, diff)
		}
	}
}

// TestDocumentTooLong: a document past MaxInputBytes is refused whole,
// when written and when read.
func TestDocumentTooLong(t *testing.T) {
	base, _, _ := docResponses()
	plain, err := toon.Encode(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := toon.New(toon.Options{Limits: wire.Limits{MaxInputBytes: int64(len(plain)) + 10}})
	if err != nil {
		t.Fatal(err)
	}
	header := []delta.Field{{Name: delta.FieldSentEarlier, Text: "User 1 2 3 4 5 6 7 8 9"}, {Name: delta.FieldSentEarlierAt, Ints: []int{9, 10, 11, 12, 13, 14, 15, 16, 17}}}
	if _, err := c.AppendDocument(nil, header, base); !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("AppendDocument of a long document: %v, want an error matching wire.ErrLimit", err)
	}
	doc, err := toon.Default().AppendDocument(nil, header, base)
	if err != nil {
		t.Fatal(err)
	}
	var de *wire.DecodeError
	if _, _, err := c.DecodeDocument(doc); !errors.As(err, &de) || de.Limit != "MaxInputBytes" {
		t.Fatalf("DecodeDocument of a long document: %v, want a MaxInputBytes error", err)
	}
}

// TestDocumentEncodeErrors: a header DecodeDocument would not read back
// is refused, dst as given.
func TestDocumentEncodeErrors(t *testing.T) {
	c, err := toon.New(toon.Options{Limits: wire.Limits{MaxElements: 2, MaxStringBytes: 4}})
	if err != nil {
		t.Fatal(err)
	}
	base, _, _ := docResponses()
	tests := []struct {
		name   string
		header []delta.Field
		limit  string
	}{
		{"unknown name", []delta.Field{{Name: "bogus", Ints: []int{1}}}, ""},
		{"name twice", []delta.Field{{Name: delta.FieldDelta, Text: "a"}, {Name: delta.FieldDelta, Text: "b"}}, ""},
		{"list past MaxElements", []delta.Field{{Name: delta.FieldNodesAdded, Ints: []int{1, 2, 3}}}, "MaxElements"},
		{"text past MaxStringBytes", []delta.Field{{Name: delta.FieldDelta, Text: "abcde"}}, "MaxStringBytes"},
		{"text not UTF-8", []delta.Field{{Name: delta.FieldDelta, Text: "a\xff"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("kept")
			out, err := c.AppendDocument(dst, tc.header, base)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Limit != tc.limit {
				t.Fatalf("AppendDocument: %v, want a *wire.EncodeError with limit %q", err, tc.limit)
			}
			if string(out) != "kept" || cap(out) != cap(dst) {
				t.Fatalf("AppendDocument returned %q, want dst as given", out)
			}
		})
	}
}

// TestDocumentHeaderIsNoResponse: Decode refuses a document with a header
// and Sniff rates it 0, so that neither takes it for a response.
func TestDocumentHeaderIsNoResponse(t *testing.T) {
	c := toon.Default()
	for _, doc := range []string{oneNodeDelta, unchangedDelta, referencing} {
		var de *wire.DecodeError
		if _, err := c.Decode([]byte(doc)); !errors.As(err, &de) || de.Line != 1 || !strings.Contains(err.Error(), "unknown field") {
			t.Fatalf("Decode of a document: %v, want an unknown field at line 1", err)
		}
		if got := c.Sniff([]byte(doc)); got != 0 {
			t.Fatalf("Sniff of a document = %v, want 0", got)
		}
	}
}

// FuzzDocument: DecodeDocument never panics; what it refuses is a
// one-line *wire.DecodeError inside the input; what it reads writes a
// document that reads back to the same header and content.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{oneNodeDelta, unchangedDelta, referencing, unchangedDelta + "\n",
		"graphwire_delta: x\nbogus: 1\nformat_version: 1\nquery_type: search\nnodes: {}\nedges: []",
		"graphwire_delta: x\ngraphwire_delta: x", "nodes_removed[2]: 1,x", "nodes_removed[3]: 1,2", "nodes_removed[0]:",
		"graphwire_delta: \"a\\tb\"", "graphwire_delta: 42", "graphwire_delta: \"abc", "graphwire_delta: x\nsent_earlier", "\uFEFFgraphwire_delta: a\r\nnodes_added[1]: 3\r\n"} {
		f.Add([]byte(s))
	}
	for _, tc := range layoutCases {
		if b, err := toon.Encode(tc.r); err == nil {
			f.Add(b)
		}
	}
	c := toon.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		h, r, err := c.DecodeDocument(data)
		if err != nil {
			if h != nil || r != nil {
				t.Fatalf("DecodeDocument returned a header or content with its error %v", err)
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *wire.DecodeError", err, err)
			}
			lines := bytes.Count(data, []byte{'\n'}) + 1
			if de.Codec != toon.Name || de.Line > lines || de.Line == 0 && de.Offset > int64(len(data)) {
				t.Fatalf("error %v outside the input of %d lines, %d bytes", err, lines, len(data))
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error text %q is not one line", msg)
			}
			return
		}
		b, err := c.AppendDocument(nil, h, r)
		if err != nil {
			t.Fatalf("AppendDocument of what was read: %v", err)
		}
		h2, r2, err := c.DecodeDocument(b)
		if err != nil {
			t.Fatalf("DecodeDocument of the text written: %v\n%s", err, b)
		}
		if diff := cmp.Diff(h, h2); diff != "" {
			t.Fatalf("header (-read +read again):\n%s\n%s", diff, b)
		}
		if (r == nil) != (r2 == nil) || r != nil && wiretest.Diff(r, r2, wire.NumbersByValue) != "" {
			t.Fatalf("content differs once written and read again:\n%s", b)
		}
	})
}

// TestDocumentHostileHeaders: a header at the limits, or past them, is
// read or refused within the decode memory bound: the numbers of a list
// are grown by what is read, whatever its [N] says.
func TestDocumentHostileHeaders(t *testing.T) {
	c := toon.Default()
	decode := func(in []byte) error { _, _, err := c.DecodeDocument(in); return err }
	max := c.Limits().MaxElements
	list := func(declared, held int) []byte {
		b := []byte("graphwire_delta: x\nnodes_removed[" + strconv.Itoa(declared) + "]: ")
		b = append(b, bytes.Repeat([]byte("7,"), held)...)
		return append(b[:len(b)-1], "\nsent_earlier: \""...)
	}
	tests := []struct {
		name    string
		in      []byte
		wantErr bool
	}{
		{"a list of MaxElements numbers", append(list(max, max), "x\""...), false},
		{"a list past MaxElements", append(list(max, 4*max), "x\""...), true},
		{"a list declaring MaxElements, holding three", append(list(max, 3), "x\""...), true},
		{"a text of escapes at MaxStringBytes", append(append(list(1, 1), bytes.Repeat([]byte(`\t`), c.Limits().MaxStringBytes)...), '"'), false},
		{"a text past MaxStringBytes", append(append(list(1, 1), bytes.Repeat([]byte("é"), c.Limits().MaxStringBytes/2+1)...), '"'), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { measureDecode(t, tc.in, tc.wantErr, decode) })
	}
}

// TestDocumentContract runs package deltatest's checks on the codec's
// documents: every generated delta and corpus re-query patches exactly,
// damaged deltas are errors, and session conversations resolve exactly.
func TestDocumentContract(t *testing.T) {
	t.Run("delta", func(t *testing.T) { deltatest.RunCodec(t, deltatest.CodecSuite{Codec: toon.Default()}) })
	t.Run("session", func(t *testing.T) { deltatest.RunSession(t, deltatest.SessionSuite{Codec: toon.Default()}) })
}
