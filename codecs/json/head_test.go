package json_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestDocument: the header's fields in order, then the content; a
// response alone is AppendEncode's bytes and reads back with no header;
// the unchanged delta has no content.
func TestDocument(t *testing.T) {
	c := json.Default()
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 42, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}}}}
	h := []delta.Field{
		{Name: delta.FieldDelta, Text: "123456789012345678901234567890123456789"},
		{Name: delta.FieldNodesAdded, Ints: []int{0, 3}},
		{Name: delta.FieldSentEarlier, Text: `"Odd type" 1; A 2`},
	}
	for _, tc := range []struct {
		name    string
		h       []delta.Field
		content *wire.GraphResponse
		want    string
	}{
		{"fields and content", h, r, `{"graphwire_delta":"123456789012345678901234567890123456789","nodes_added":[0,3],"sent_earlier":"\"Odd type\" 1; A 2",` +
			`"content":{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"42","username":"ada"}]}}`},
		{"a fragment: no format_version, query_type or nodes", h[:1], &wire.GraphResponse{Nodes: []wire.Node{},
			Edges: []wire.Edge{{From: "User", FromID: 1, To: "Project", ToID: 2, Type: "MEMBER_OF"}}},
			`{"graphwire_delta":"123456789012345678901234567890123456789","content":{"edges":[{"from":"User","from_id":"1","to":"Project","to_id":"2","type":"MEMBER_OF"}]}}`},
		{"an empty fragment", h[:1], &wire.GraphResponse{Nodes: []wire.Node{}, Edges: []wire.Edge{}},
			`{"graphwire_delta":"123456789012345678901234567890123456789","content":{}}`},
		{"a fragment with rows only", h[:1], &wire.GraphResponse{Nodes: []wire.Node{}, Edges: []wire.Edge{}, Rows: []wire.Row{{{Name: "n", Value: wire.Int(3)}}}},
			`{"graphwire_delta":"123456789012345678901234567890123456789","content":{"rows":[{"n":3}]}}`},
		{"no content", h[:1], nil, `{"graphwire_delta":"123456789012345678901234567890123456789"}`},
	} {
		b, err := c.AppendDocument(nil, tc.h, tc.content)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(b) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, b, tc.want)
		}
		gh, gc, err := c.DecodeDocument(b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.h, gh); diff != "" {
			t.Errorf("%s: header (-want +got):\n%s", tc.name, diff)
		}
		if !wire.Equal(tc.content, gc, wire.Exact) {
			t.Errorf("%s: content %v, want %v", tc.name, gc, tc.content)
		}
	}
	for _, r := range wiretest.FixedResponses() {
		want, err := c.AppendEncode(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.AppendDocument(nil, nil, r)
		if err != nil || !bytes.Equal(want, got) {
			t.Fatalf("a response as a document: %v\n%s\nthen\n%s", err, want, got)
		}
		h, back, err := c.DecodeDocument(got)
		if err != nil || h != nil || !wire.Equal(r, back, wire.Exact) {
			t.Fatalf("a response read as a document: %v, header %v", err, h)
		}
	}
}

// TestFragmentOnlyUnderAHeader: a plain response still needs every field
// a fragment may leave out, and the query type and format version left out
// of a fragment read back as "".
func TestFragmentOnlyUnderAHeader(t *testing.T) {
	c := json.Default()
	for _, plain := range []string{
		`{"query_type":"search","nodes":[],"edges":[]}`,
		`{"format_version":"1","nodes":[],"edges":[]}`,
		`{"format_version":"1","query_type":"search","edges":[]}`,
		`{"format_version":"1","query_type":"search","nodes":[]}`,
		`{}`,
	} {
		if _, err := c.Decode([]byte(plain)); err == nil {
			t.Errorf("Decode(%s) accepted a response missing a required field", plain)
		}
		if _, _, err := c.DecodeDocument([]byte(plain)); err == nil {
			t.Errorf("DecodeDocument(%s), no header, accepted a response missing a required field", plain)
		}
	}
	h, got, err := c.DecodeDocument([]byte(`{"graphwire_delta":"x","content":{"rows":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &wire.GraphResponse{Nodes: []wire.Node{}, Edges: []wire.Edge{}, Rows: []wire.Row{}}
	if len(h) != 1 || !wire.Equal(want, got, wire.Exact) || got.QueryType != "" || got.FormatVersion != "" {
		t.Errorf("fragment read back as %+v, header %v", got, h)
	}
	if _, err := c.AppendEncode(nil, &wire.GraphResponse{}); err == nil {
		t.Error("AppendEncode wrote a response without a query type")
	}
}

// TestDocumentErrors: a content error is positioned in the whole
// document; a header past the limits names the limit.
func TestDocumentErrors(t *testing.T) {
	c, err := json.New(json.Options{Limits: wire.Limits{MaxElements: 2, MaxStringBytes: 8}})
	if err != nil {
		t.Fatal(err)
	}
	head := `{"graphwire_delta":"1","content":`
	for _, tc := range []struct {
		name, in string
		offset   int64
		limit    string
	}{
		{"content", head + `{"format_version":1}}`, int64(len(head)) + 18, ""},
		{"list", `{"graphwire_delta":"1","nodes_added":[1,2,3]}`, 42, "MaxElements"},
		{"text", `{"graphwire_delta":"0123456789"}`, 19, "MaxStringBytes"},
		{"after", `{"graphwire_delta":"1"} x`, 24, ""},
	} {
		_, _, err := c.DecodeDocument([]byte(tc.in))
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Offset != tc.offset || de.Limit != tc.limit {
			t.Errorf("%s: %v (offset %d, limit %q), want offset %d, limit %q", tc.name, err, offsetOf(de), limitOf(de), tc.offset, tc.limit)
		}
	}
}

func offsetOf(de *wire.DecodeError) int64 {
	if de == nil {
		return -1
	}
	return de.Offset
}

func limitOf(de *wire.DecodeError) string {
	if de == nil {
		return ""
	}
	return de.Limit
}

// FuzzDocument: DecodeDocument never panics; an error is a
// *wire.DecodeError; a document it reads writes bytes that read back to
// the same header and content.
func FuzzDocument(f *testing.F) {
	c := json.Default()
	rs := wiretest.FixedResponses()
	for i := range rs {
		d, err := delta.Diff(rs[i], rs[(i+1)%len(rs)])
		if err != nil {
			f.Fatal(err)
		}
		b, err := delta.AppendDelta(c, nil, d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if len(rs[i].Nodes) > 0 {
			b, err := delta.AppendReferenced(c, nil, rs[i], []int{0})
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{"graphwire_delta":"x","sent_earlier":"A 1; \"b\\\" c\" 2","content":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, r, err := c.DecodeDocument(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v, want *wire.DecodeError", err, err)
			}
			return
		}
		b, err := c.AppendDocument(nil, h, r)
		if err != nil {
			return // content the encoder refuses
		}
		h2, r2, err := c.DecodeDocument(b)
		if err != nil {
			t.Fatalf("reading back %s: %v", b, err)
		}
		if diff := cmp.Diff(h, h2); diff != "" || !wire.Equal(r, r2, wire.Exact) {
			t.Fatalf("round trip changed the document (-want +got):\n%s", diff)
		}
	})
}

// TestDocumentContract runs package deltatest's checks on the codec's
// documents: every generated delta and corpus re-query patches exactly,
// damaged deltas are errors, and session conversations resolve exactly.
func TestDocumentContract(t *testing.T) {
	t.Run("delta", func(t *testing.T) { deltatest.RunCodec(t, deltatest.CodecSuite{Codec: json.Default()}) })
	t.Run("session", func(t *testing.T) { deltatest.RunSession(t, deltatest.SessionSuite{Codec: json.Default()}) })
}
