package json_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func TestSession(t *testing.T) {
	c := json.Default()
	deltatest.RunSession(t, deltatest.SessionSuite{
		Codec:  c,
		Encode: func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
	})
}

// sessionResponse has a node whose properties are named like the marker,
// and one with none.
func sessionResponse() *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}},
			{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("sent_earlier_id", wire.String("1"))}},
			{Type: "Group", ID: -3},
			{Type: "Pro\"ject", ID: 4, Properties: []wire.Property{wire.Prop("name", wire.String("x"))}},
		},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "Group", ToID: -3, Type: "MEMBER_OF"}},
	}
}

// TestReferencedSyntax: the bytes of references, and what they decode to.
func TestReferencedSyntax(t *testing.T) {
	c := json.Default()
	r := sessionResponse()
	b, err := c.AppendReferenced([]byte("abc"), r, []int{0, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `abc{"format_version":"1.2.0","query_type":"traversal","nodes":[` +
		`{"type":"User","sent_earlier_id":"1"},` +
		`{"type":"User","id":"2","sent_earlier_id":"1"},` +
		`{"type":"Group","sent_earlier_id":"-3"},` +
		`{"type":"Pro\"ject","sent_earlier_id":"4"}],` +
		`"edges":[{"from":"User","from_id":"1","to":"Group","to_id":"-3","type":"MEMBER_OF"}]}`
	if string(b) != want {
		t.Fatalf("AppendReferenced:\n%s\nwant\n%s", b, want)
	}
	got, refs, err := c.DecodeReferenced(b[3:])
	if err != nil {
		t.Fatal(err)
	}
	wantR := sessionResponse()
	for _, i := range []int{0, 2, 3} {
		wantR.Nodes[i].Properties = nil
	}
	if diff := cmp.Diff([]int{0, 2, 3}, refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	if diff := wiretest.Diff(wantR, got, wire.Exact); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	// Without references: exactly AppendEncode, and no refs read back.
	plain, err := c.AppendReferenced(nil, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := json.Encode(r)
	if string(plain) != string(enc) {
		t.Fatalf("AppendReferenced without refs:\n%s\nAppendEncode:\n%s", plain, enc)
	}
	back, refs, err := c.DecodeReferenced(plain)
	if err != nil || refs != nil {
		t.Fatalf("DecodeReferenced(plain) refs %v, %v", refs, err)
	}
	if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
		t.Errorf("plain (-want +got):\n%s", diff)
	}
	if c.Sniff(b[3:]) != c.Sniff(enc) {
		t.Errorf("Sniff rates a document with references %v, a plain one %v", c.Sniff(b[3:]), c.Sniff(enc))
	}
}

// TestSessionRoundTrip: writer Mark → AppendReferenced, reader
// DecodeReferenced → Resolve gives Decode(Encode(r)).
func TestSessionRoundTrip(t *testing.T) {
	c := json.Default()
	ws, _ := delta.NewSession(delta.SessionLimits{})
	rs, _ := delta.NewSession(delta.SessionLimits{})
	first := sessionResponse()
	second := sessionResponse()
	second.Nodes[3].Properties = []wire.Property{wire.Prop("name", wire.String("changed"))}
	for i, r := range []*wire.GraphResponse{first, second} {
		refs := ws.Mark(r)
		b, err := c.AppendReferenced(nil, r, refs)
		if err != nil {
			t.Fatal(err)
		}
		dr, drefs, err := c.DecodeReferenced(b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(refs, drefs); diff != "" {
			t.Errorf("query %d: refs (-written +read):\n%s", i, diff)
		}
		got, err := rs.Resolve(dr, drefs, delta.Hash{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := wiretest.Diff(r, got, wire.Exact); diff != "" {
			t.Errorf("query %d (-want +got):\n%s", i, diff)
		}
		// The second time, the nodes unchanged are references, the one
		// changed is sent whole.
		if i == 1 && (!cmp.Equal(refs, []int{0, 1, 2}) || strings.Count(string(b), "sent_earlier_id") != 3) {
			t.Errorf("second query: refs %v in\n%s", refs, b)
		}
	}
}

func TestReferencedErrors(t *testing.T) {
	c := json.Default()
	doc := func(node string) string {
		return `{"format_version":"1","query_type":"search","nodes":[{"type":"A","id":"1"},` + node + `],"edges":[]}`
	}
	for _, tc := range []struct {
		in     string
		offset int64
		msg    string
	}{
		{doc(`{"type":"U","sent_earlier_id":"x1"}`), 105, "expected a decimal int64 string"},
		{doc(`{"type":"U","sent_earlier_id":7}`), 105, "expected a decimal string"},
		{doc(`{"type":"U","sent_earlier_id":"7","name":"a"}`), 75, `expected only "type" and "sent_earlier_id"`},
		{doc(`{"sent_earlier_id":"7"}`), 75, `missing "type"`},
		{doc(`{"type":"U","sent_earlier_id":"7","sent_earlier_id":"8"}`), 109, "duplicate property"},
	} {
		r, refs, err := c.DecodeReferenced([]byte(tc.in))
		var de *wire.DecodeError
		if !errors.As(err, &de) || r != nil || refs != nil {
			t.Errorf("%s: got %v, %v, %v; want a *wire.DecodeError", tc.in, r, refs, err)
			continue
		}
		if de.Offset != tc.offset || !strings.Contains(de.Msg, tc.msg) {
			t.Errorf("%s: offset %d %q; want offset %d, %q", tc.in, de.Offset, de.Msg, tc.offset, tc.msg)
		}
	}
	// Plain Decode does not take a reference for a node.
	_, err := json.Decode([]byte(doc(`{"type":"U","sent_earlier_id":"7"}`)))
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Offset != 75 || !strings.Contains(de.Msg, "read only in a session") {
		t.Errorf("Decode of a reference: %v", err)
	}
	// Positions out of order or range are refused, dst unchanged.
	for _, refs := range [][]int{{1, 0}, {0, 0}, {4}, {-1}} {
		b, err := c.AppendReferenced([]byte("x"), sessionResponse(), refs)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || string(b) != "x" {
			t.Errorf("refs %v: %q, %v", refs, b, err)
		}
	}
}
