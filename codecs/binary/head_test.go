package binary

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"

	"github.com/fxamacker/cbor/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// A decoded header holds nil for an empty list.
var headerOpts = cmpopts.EquateEmpty()

// The small responses of the golden documents: a search of two users,
// the same with one user's name changed, and a traversal whose first
// node the reader holds.
var (
	docAda   = wire.Node{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}}
	docBase  = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{docAda, docUser(2, "bob")}, Edges: []wire.Edge{}}
	docNext  = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{docAda, docUser(2, "bobby")}, Edges: []wire.Edge{}}
	docTrail = &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{docAda, {Type: "MergeRequest", ID: 7, Properties: []wire.Property{wire.Prop("title", wire.String("Fix"))}}},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "MergeRequest", ToID: 7, Type: "AUTHORED"}}}
)

func docUser(id int64, name string) wire.Node {
	return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("username", wire.String(name))}}
}

// goldenDocuments are the documents of the golden test, by name: a
// one-node delta, the unchanged delta, and a response with a reference.
func goldenDocuments(t testing.TB, c *Codec) map[string][]byte {
	t.Helper()
	changed, err := delta.Diff(docBase, docNext)
	if err != nil {
		t.Fatal(err)
	}
	unchanged, err := delta.Diff(docBase, docBase)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	if out["delta"], err = delta.AppendDelta(c, nil, changed); err != nil {
		t.Fatal(err)
	}
	if out["unchanged"], err = delta.AppendDelta(c, nil, unchanged); err != nil {
		t.Fatal(err)
	}
	if out["referenced"], err = delta.AppendReferenced(c, nil, docTrail, []int{0}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDocumentGolden: the exact bytes of a one-node delta, the unchanged
// delta and a response with a reference, in both formats, and CBOR's as
// RFC 8949 diagnostic notation.
func TestDocumentGolden(t *testing.T) {
	want := map[Format]map[string]string{
		Msgpack: {
			"delta":      "83af6772617068776972655f64656c7461d927313232333431313534353432333534323630363036343232323531323739313036323036333635ad6e6f6465735f6368616e6765649101a7636f6e74656e749502a0a09194a45573657202a8757365726e616d65a5626f62627990",
			"unchanged":  "81af6772617068776972655f64656c7461d927303033363139333238383634393538363238303434333937383038393735373237363232373239",
			"referenced": "83ac73656e745f6561726c696572a6557365722031af73656e745f6561726c6965725f61749100a7636f6e74656e749502a5312e322e30a974726176657273616c9194ac4d657267655265717565737407a57469746c65a34669789195a455736572010107a8415554484f524544",
		},
		CBOR: {
			"delta":      "a36f6772617068776972655f64656c746178273132323334313135343534323335343236303630363432323235313237393130363230363336356d6e6f6465735f6368616e676564810167636f6e74656e7485026060818464557365720268757365726e616d6565626f62627980",
			"unchanged":  "a16f6772617068776972655f64656c74617827303033363139333238383634393538363238303434333937383038393735373237363232373239",
			"referenced": "a36c73656e745f6561726c696572665573657220316f73656e745f6561726c6965725f6174810067636f6e74656e74850265312e322e306974726176657273616c81846c4d657267655265717565737407657469746c65634669788185645573657201010768415554484f524544",
		},
	}
	diagnostic := map[string]string{
		"delta":      `{"graphwire_delta": "122341154542354260606422251279106206365", "nodes_changed": [1], "content": [2, "", "", [["User", 2, "username", "bobby"]], []]}`,
		"unchanged":  `{"graphwire_delta": "003619328864958628044397808975727622729"}`,
		"referenced": `{"sent_earlier": "User 1", "sent_earlier_at": [0], "content": [2, "1.2.0", "traversal", [["MergeRequest", 7, "title", "Fix"]], [["User", 1, 1, 7, "AUTHORED"]]]}`,
	}
	for _, f := range formats {
		for name, b := range goldenDocuments(t, Default(f)) {
			if diff := cmp.Diff(want[f][name], hex.EncodeToString(b)); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", f, name, diff)
			}
			if f != CBOR {
				continue
			}
			got, err := cbor.Diagnose(b)
			if err != nil {
				t.Fatalf("%s: a generic CBOR decoder refuses the document: %v", name, err)
			}
			if diff := cmp.Diff(diagnostic[name], got); diff != "" {
				t.Errorf("cbor %s diagnostic (-want +got):\n%s", name, diff)
			}
		}
	}
}

// TestDocumentReadsBack: the golden documents read back as the delta and
// the response they carry.
func TestDocumentReadsBack(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		docs := goldenDocuments(t, c)
		d, err := delta.DecodeDelta(c, docs["delta"])
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := delta.Patch(docBase, d)
		if err != nil {
			t.Fatalf("%s: patch: %v", f, err)
		}
		if diff := wiretest.Diff(docNext, got, wire.Exact); diff != "" {
			t.Errorf("%s: patched (-want +got):\n%s", f, diff)
		}
		h, content, err := c.DecodeDocument(docs["unchanged"])
		if err != nil || content != nil || len(h) != 1 {
			t.Errorf("%s: unchanged delta: %v, content %v, header %v", f, err, content, h)
		}
		h, content, err = c.DecodeDocument(docs["referenced"])
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		wantHeader := []delta.Field{{Name: delta.FieldSentEarlier, Text: "User 1"}, {Name: delta.FieldSentEarlierAt, Ints: []int{0}}}
		if diff := cmp.Diff(wantHeader, h, headerOpts); diff != "" {
			t.Errorf("%s: references (-want +got):\n%s", f, diff)
		}
		want := *docTrail
		want.Nodes = want.Nodes[1:]
		if diff := wiretest.Diff(&want, content, wire.Exact); diff != "" {
			t.Errorf("%s: content (-want +got):\n%s", f, diff)
		}
	}
}

// everyField is a header with every field, of every kind, in order.
func everyField() []delta.Field {
	var h []delta.Field
	lists := [][]int{{0, 3, 5}, {}, {math.MaxInt64, math.MinInt64, -1}, {127, 128, 255, 256, 65535, 65536, 1 << 32}}
	for i, name := range []string{delta.FieldDelta, delta.FieldNodesChanged, delta.FieldNodesRemoved,
		delta.FieldNodesMoved, delta.FieldNodesMovedTo, delta.FieldNodesAdded, delta.FieldEdgesRemoved, delta.FieldEdgesMoved,
		delta.FieldEdgesMovedTo, delta.FieldEdgesAdded, delta.FieldRowsRemoved, delta.FieldRowsMoved, delta.FieldRowsMovedTo,
		delta.FieldRowsAdded, delta.FieldSentEarlier, delta.FieldSentEarlierAt} {
		switch k, _ := delta.FieldKind(name); k {
		case delta.IntList:
			h = append(h, delta.Field{Name: name, Ints: lists[i%len(lists)]})
		default:
			h = append(h, delta.Field{Name: name, Text: `User 1 2; "Ünï code" 3` + strings.Repeat("x", 40*i)})
		}
	}
	return h
}

// TestDocumentRoundTrip: a header of each field kind, one field or all of
// them (a map of 18 entries, past msgpack's one-byte map head), with
// content or without, reads back as written.
func TestDocumentRoundTrip(t *testing.T) {
	all := everyField()
	headers := [][]delta.Field{all}
	for _, f := range all {
		headers = append(headers, []delta.Field{f})
	}
	for _, f := range formats {
		c := Default(f)
		for _, h := range headers {
			for _, content := range []*wire.GraphResponse{docTrail, nil} {
				b, err := c.AppendDocument([]byte("x"), h, content)
				if err != nil {
					t.Fatalf("%s %s: %v", f, h[0].Name, err)
				}
				if b[0] != 'x' {
					t.Fatalf("%s: the prefix is lost", f)
				}
				gotH, gotC, err := c.DecodeDocument(b[1:])
				if err != nil {
					t.Fatalf("%s %s: %v", f, h[0].Name, err)
				}
				if diff := cmp.Diff(h, gotH, headerOpts); diff != "" {
					t.Errorf("%s: header (-want +got):\n%s", f, diff)
				}
				if (content == nil) != (gotC == nil) || content != nil && wiretest.Diff(content, gotC, wire.Exact) != "" {
					t.Errorf("%s %s: content %v, want %v", f, h[0].Name, gotC, content)
				}
			}
		}
	}
}

// plainResponses are the responses the package's other tests use: the
// fixed ones and generated ones with awkward names and non-finite floats.
func plainResponses() []*wire.GraphResponse {
	rs := wiretest.FixedResponses()
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true})
	for seed := range 200 {
		rs = append(rs, gen.Example(seed))
	}
	return rs
}

// TestDocumentPlain: with no header AppendDocument writes AppendEncode's
// bytes, and DecodeDocument reads them as Decode does, with no header.
func TestDocumentPlain(t *testing.T) {
	n := 0
	for _, f := range formats {
		c := Default(f)
		for i, r := range plainResponses() {
			want, wantErr := c.AppendEncode(nil, r)
			got, err := c.AppendDocument(nil, nil, r)
			if (err == nil) != (wantErr == nil) || !bytes.Equal(want, got) {
				t.Fatalf("%s response %d: AppendDocument % x, %v; AppendEncode % x, %v", f, i, got, err, want, wantErr)
			}
			if err != nil {
				continue
			}
			n++
			h, back, err := c.DecodeDocument(got)
			if err != nil || h != nil {
				t.Fatalf("%s response %d: header %v, error %v", f, i, h, err)
			}
			if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
				t.Fatalf("%s response %d (-want +got):\n%s", f, i, diff)
			}
		}
	}
	if n < 300 {
		t.Fatalf("only %d plain responses encoded", n)
	}
}

// docItems writes a document's map of n entries (n < 0: one per pair of
// items) with items written as the encoder writes them: string, int,
// []any (an array), or raw bytes (a content). at holds each item's
// offset.
func docItems(f Format, n int, items ...any) (data []byte, at []int) {
	s, out := newHeadSink(f, nil)
	if n < 0 {
		n = len(items) / 2
	}
	s.object(n)
	var item func(v any)
	item = func(v any) {
		switch v := v.(type) {
		case string:
			s.str(v)
		case int:
			s.integer(int64(v))
		case []any:
			s.array(len(v))
			for _, x := range v {
				item(x)
			}
		case []byte:
			*out = append(*out, v...)
		}
	}
	for _, v := range items {
		at = append(at, len(*out))
		item(v)
	}
	return *out, at
}

// TestDocumentErrors: each malformed document is refused with a
// *wire.DecodeError at the offending item's offset in the whole input.
func TestDocumentErrors(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		plain, err := c.AppendEncode(nil, docTrail)
		if err != nil {
			t.Fatal(err)
		}
		// A content whose node id is a string: Decode alone says where.
		badID := libraryEncode(t, f, []any{2, "1.2.0", "search", []any{[]any{"User", "1"}}, []any{}})
		_, contentErr := c.Decode(badID)
		var ce *wire.DecodeError
		if !errors.As(contentErr, &ce) || ce.Offset == 0 || !strings.Contains(ce.Msg, "node id") {
			t.Fatalf("%s: the bad content decodes with %v", f, contentErr)
		}
		small := codecbase.Must(New(f, Options{Limits: wire.Limits{MaxElements: 4, MaxStringBytes: 70}}))
		tiny := codecbase.Must(New(f, Options{Limits: wire.Limits{MaxStringBytes: 10}})) // below what the source bounds (64)
		tests := []struct {
			name  string
			c     *Codec
			n     int
			items []any
			at    func(data []byte, at []int) int // the error's offset
			msg   string
			limit string
		}{
			{"unknown field", c, -1, []any{"graphwire_delta", "x", "nodes_changd", []any{0}},
				func(_ []byte, at []int) int { return at[2] }, `unknown header field "nodes_changd"`, ""},
			{"a field twice", c, -1, []any{"graphwire_delta", "x", "sent_earlier", "x", "graphwire_delta", "x"},
				func(_ []byte, at []int) int { return at[4] }, "header field graphwire_delta given twice", ""},
			{"a list holding a string", c, -1, []any{"nodes_changed", []any{0, "1"}},
				func(_ []byte, at []int) int { return at[1] + 2 }, "nodes_changed: number 1: expected integer, found string", ""},
			{"a list written as text", c, -1, []any{"nodes_changed", "0,1"},
				func(_ []byte, at []int) int { return at[1] }, "nodes_changed: expected array of integers, found string", ""},
			{"a text written as a list", c, -1, []any{"graphwire_delta", []any{2}},
				func(_ []byte, at []int) int { return at[1] }, "graphwire_delta: expected string, found array", ""},
			{"a text written as an integer", c, -1, []any{"sent_earlier", 5},
				func(_ []byte, at []int) int { return at[1] }, "sent_earlier: expected string, found integer", ""},
			{"a list past MaxElements", small, -1, []any{"nodes_changed", []any{0, 1, 2, 3, 4}},
				func(_ []byte, at []int) int { return at[1] }, "nodes_changed: 5 integers, more than the limit of 4", "MaxElements"},
			{"a text past MaxStringBytes", small, -1, []any{"sent_earlier", strings.Repeat("x", 71)},
				func(_ []byte, at []int) int { return at[1] }, "sent_earlier: string of 71 bytes exceeds the limit of 70", "MaxStringBytes"},
			{"a text past a small MaxStringBytes", tiny, -1, []any{"sent_earlier", strings.Repeat("x", 11)},
				func(_ []byte, at []int) int { return at[1] }, "sent_earlier: a text of 11 bytes, longer than the limit of 10", "MaxStringBytes"},
			{"a key that is not a string", c, -1, []any{"graphwire_delta", "x", 7, 2},
				func(_ []byte, at []int) int { return at[2] }, "document key: expected string, found integer", ""},
			{"the content alone", c, -1, []any{"content", plain},
				func(_ []byte, at []int) int { return at[0] }, `"content" is the last entry of a document, after at least one header field`, ""},
			{"the content before a field", c, 3, []any{"graphwire_delta", "x", "content", plain},
				func(_ []byte, at []int) int { return at[2] }, `"content" is the last entry`, ""},
			{"an empty map", c, 0, nil,
				func([]byte, []int) int { return 0 }, "a document's map of 0 entries", ""},
			{"a map of 19 entries", c, 19, []any{"graphwire_delta", "x"},
				func([]byte, []int) int { return 0 }, "a document's map of 19 entries", ""},
			{"a truncated header", c, 3, []any{"graphwire_delta", "x", "sent_earlier", "x"},
				func(data []byte, _ []int) int { return len(data) }, "unexpected end of input", ""},
			{"trailing bytes", c, -1, []any{"graphwire_delta", "x", "sent_earlier", "x", []byte{0}},
				func(data []byte, _ []int) int { return len(data) - 1 }, "1 trailing bytes after the document", ""},
			{"an error in the content", c, -1, []any{"sent_earlier", "User 1", "content", badID},
				func(_ []byte, at []int) int { return at[3] + int(ce.Offset) }, "node id: expected integer, found string", ""},
			{"an empty content", c, -1, []any{"sent_earlier", "User 1", "content", []byte{}},
				func(data []byte, _ []int) int { return len(data) }, "empty input", ""},
		}
		for _, tc := range tests {
			data, at := docItems(f, tc.n, tc.items...)
			_, _, err := tc.c.DecodeDocument(data)
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Errorf("%s %s: error %v, want a *wire.DecodeError", f, tc.name, err)
				continue
			}
			if want := int64(tc.at(data, at)); de.Offset != want || !strings.Contains(de.Msg, tc.msg) || de.Limit != tc.limit || de.Codec != f.String() {
				t.Errorf("%s %s: %v (limit %q), want offset %d, %q (limit %q)", f, tc.name, err, de.Limit, want, tc.msg, tc.limit)
			}
		}
	}
	if _, _, err := Default(CBOR).DecodeDocument([]byte{0xbf, 0xff}); err == nil || !strings.Contains(err.Error(), "offset 0: indefinite-length map") {
		t.Errorf("cbor: an indefinite-length map: %v", err)
	}
}

// TestDocumentTruncated: every proper prefix of a document is refused
// with an error inside it, never a panic or a shorter document.
func TestDocumentTruncated(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		for name, b := range goldenDocuments(t, c) {
			for n := 0; n < len(b); n++ {
				_, _, err := c.DecodeDocument(b[:n])
				var de *wire.DecodeError
				if !errors.As(err, &de) || de.Offset < 0 || de.Offset > int64(n) {
					t.Fatalf("%s %s cut at %d: %v", f, name, n, err)
				}
			}
		}
	}
}

// TestAppendDocumentRefuses: a header DecodeDocument would refuse is not
// written.
func TestAppendDocumentRefuses(t *testing.T) {
	small := codecbase.Must(New(CBOR, Options{Limits: wire.Limits{MaxElements: 2, MaxStringBytes: 70}}))
	tests := []struct {
		name   string
		c      *Codec
		header []delta.Field
		msg    string
	}{
		{"an unknown field", Default(CBOR), []delta.Field{{Name: "base", Text: "x"}}, `header field "base" is not a document header field`},
		{"a field twice", Default(CBOR), []delta.Field{{Name: "sent_earlier", Text: "x"}, {Name: "sent_earlier", Text: "y"}}, "given twice"},
		{"a list with a text", Default(CBOR), []delta.Field{{Name: "nodes_added", Ints: []int{1}, Text: "1"}}, "holds integers, not a text"},
		{"a text with integers", Default(CBOR), []delta.Field{{Name: "sent_earlier", Ints: []int{1}}}, "holds a text, not integers"},
		{"a text not UTF-8", Default(CBOR), []delta.Field{{Name: "sent_earlier", Text: "\xff"}}, notUTF8},
		{"a list past MaxElements", small, []delta.Field{{Name: "nodes_added", Ints: []int{1, 2, 3}}}, "more than the limit of 2"},
		{"a text past MaxStringBytes", small, []delta.Field{{Name: "sent_earlier", Text: strings.Repeat("x", 71)}}, "more than the limit of 70"},
		{"18 fields", Default(CBOR), append(everyField(), delta.Field{Name: "sent_earlier"}), "a header of 17 fields, past the 16"},
	}
	for _, tc := range tests {
		out, err := tc.c.AppendDocument([]byte("x"), tc.header, docTrail)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || !strings.Contains(ee.Msg, tc.msg) || string(out) != "x" {
			t.Errorf("%s: % x, %v, want an *wire.EncodeError saying %q", tc.name, out, err, tc.msg)
		}
	}
}

// FuzzDocument: any input is refused with a positioned *wire.DecodeError
// or read as a document that writes back to bytes that read as the same
// header and content.
func FuzzDocument(f *testing.F) {
	for _, fm := range formats {
		for _, b := range goldenDocuments(f, Default(fm)) {
			f.Add(b)
		}
		b, _ := Default(fm).AppendDocument(nil, everyField(), docTrail)
		f.Add(b)
		b, _ = docItems(fm, -1, "graphwire_delta", "x", "nodes_changed", []any{0, "1"})
		f.Add(b)
		b, _ = docItems(fm, 3, "graphwire_delta", "x", "content", []byte{0x90})
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range formats {
			c := Default(fm)
			h, content, err := c.DecodeDocument(data)
			if err != nil {
				wantPositioned(t, fm, data, err)
				continue
			}
			b, err := c.AppendDocument(nil, h, content)
			if err != nil {
				t.Fatalf("%s: a document read does not write: %v", fm, err)
			}
			h2, content2, err := c.DecodeDocument(b)
			if err != nil {
				t.Fatalf("%s: a document written does not read: %v", fm, err)
			}
			if diff := cmp.Diff(h, h2, headerOpts); diff != "" {
				t.Fatalf("%s: header (-first +second):\n%s", fm, diff)
			}
			if (content == nil) != (content2 == nil) {
				t.Fatalf("%s: content %v, then %v", fm, content, content2)
			}
			if content != nil {
				if diff := wiretest.Diff(content, content2, wire.Exact); diff != "" {
					t.Fatalf("%s: content (-first +second):\n%s", fm, diff)
				}
			}
		}
	})
}

// TestOneNodeDeltaTokens measures the delta every codec's price is
// measured on (deltatest.OneNodeDelta): its bytes and its o200k tokens
// (the bytes read as UTF-8, as the tokenizer reads any text), all of it
// and the header (what precedes the content's encoding). A model does not
// read a binary format; the figures say what the document costs beside
// the text formats' (msgpack 54 and 26, CBOR 55 and 27). They are held to
// at most 71 and 31, what the version-3 payload took.
func TestOneNodeDeltaTokens(t *testing.T) {
	_, d := deltatest.OneNodeDelta(t, nil)
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range formats {
		c := Default(f)
		doc, err := delta.AppendDelta(c, nil, d)
		if err != nil {
			t.Fatal(err)
		}
		content, err := c.appendEncode(nil, d.Content, delta.Checkable(d.Content, true)) // a content without a query type
		if err != nil || !bytes.HasSuffix(doc, content) {
			t.Fatalf("%s: the document does not end with the content's encoding: %v", f, err)
		}
		all, err := o200k.Count(doc)
		if err != nil {
			t.Fatal(err)
		}
		head, err := o200k.Count(doc[:len(doc)-len(content)])
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes, %d o200k tokens; header %d bytes, %d tokens; %q", f, len(doc), all, len(doc)-len(content), head, doc)
		if all > 71 || head > 31 {
			t.Errorf("%s: %d tokens, %d in the header: want at most 71 and 31", f, all, head)
		}
	}
}

// TestDocumentContract runs package deltatest's checks on both formats'
// documents, over responses with names and floats of any kind: every
// generated delta and corpus re-query patches exactly, damaged deltas are
// errors, and session conversations resolve exactly.
func TestDocumentContract(t *testing.T) {
	o := wiretest.Options{AwkwardNames: true, NonFinite: true}
	for _, f := range []Format{Msgpack, CBOR} {
		c := Default(f)
		t.Run(c.Info().Name+"/delta", func(t *testing.T) { deltatest.RunCodec(t, deltatest.CodecSuite{Codec: c, Options: o}) })
		t.Run(c.Info().Name+"/session", func(t *testing.T) { deltatest.RunSession(t, deltatest.SessionSuite{Codec: c, Options: o}) })
	}
}
