package goon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.SessionCodec = goon.Default()

// The syntax, written out: each reference a row "id (sent earlier)" in
// its type's group, counted by sent_earlier: after nodes:.
func TestAppendReferencedText(t *testing.T) {
	r := resp(wire.Traversal, nodes(
		node("User", 7, P("name", S("ada"))),
		node("MergeRequest", 3, P("title", S("fix"))),
		node("User", 2, P("name", S("bo"))),
		node("User", 9),
	), edge("AUTHORED", "User", 2, "MergeRequest", 3))
	got, err := goon.Default().AppendReferenced([]byte("x"), r, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := "x" + doc("@header", "query_type:traversal", "goon_version:1.0.0", "nodes:4", "sent_earlier:2", "edges:1",
		"@nodes", "MergeRequest(1):", "3 (sent earlier)", "User(3):", "2 name=bo", "7 (sent earlier)", "9",
		"@edges", "AUTHORED(1):", "User:2 --> MergeRequest:3")
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	d, refs, err := goon.Default().DecodeReferenced(got[1:])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 2}, refs); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	wantNodes := nodes(node("MergeRequest", 3), node("User", 2, P("name", S("bo"))), node("User", 7), node("User", 9))
	if diff := cmp.Diff(wantNodes, d.Nodes, cmp.AllowUnexported(wire.Value{})); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	for _, i := range refs {
		if d.Nodes[i].Properties != nil {
			t.Errorf("reference nodes[%d] has properties %v", i, d.Nodes[i].Properties)
		}
	}
	if _, err := goon.Decode(got[1:]); err == nil || !strings.Contains(err.Error(), "line 5: sent_earlier:") {
		t.Errorf("Decode of a text with references: %v, want an error at line 5", err)
	}
	if g := wire.Sniff(got[1:]); len(g) == 0 || g[0].Name != goon.Name || g[0].Confidence < 0.9 {
		t.Errorf("Sniff of a text with references: %+v", g)
	}
}

// With no reference, AppendReferenced writes AppendEncode's bytes: every
// golden and corpus case.
func TestAppendReferencedPlain(t *testing.T) {
	for _, r := range sessionCases(t) {
		want, err := goon.Encode(r.r)
		if err != nil {
			continue
		}
		got, err := goon.Default().AppendReferenced(nil, r.r, nil)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if string(got) != string(want) {
			t.Fatalf("%s: without references the bytes differ", r.name)
		}
		d, refs, err := goon.Default().DecodeReferenced(want)
		if err != nil || refs != nil {
			t.Fatalf("%s: DecodeReferenced of a plain text: %v refs %v", r.name, err, refs)
		}
		plain, _ := goon.Decode(want)
		if diff := cmp.Diff(plain, d, cmp.AllowUnexported(wire.Value{})); diff != "" {
			t.Fatalf("%s: DecodeReferenced differs from Decode:\n%s", r.name, diff)
		}
	}
}

type sessionCase struct {
	name string
	r    *wire.GraphResponse
}

func sessionCases(t *testing.T) []sessionCase {
	var out []sessionCase
	for _, c := range goldenCases() {
		out = append(out, sessionCase{"golden/" + c.name, c.in})
	}
	cs := corpus.Generate()
	if testing.Short() {
		cs = cs[:min(len(cs), 20)]
	}
	for _, c := range cs {
		out = append(out, sessionCase{c.ID(), c.Response})
	}
	return out
}

// A response sent a second time in a session comes back, references
// resolved, as Decode(Encode(r)): every node of every golden and corpus
// case a reference, and every other one.
func TestSessionRoundTrip(t *testing.T) {
	c := goon.Default()
	for _, sc := range sessionCases(t) {
		r := sc.r
		text, err := goon.Encode(r)
		if err != nil {
			continue
		}
		want, err := goon.Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, every := range []int{1, 2} {
			ws, _ := delta.NewSession(delta.SessionLimits{})
			rs, _ := delta.NewSession(delta.SessionLimits{})
			first, err := ws.Encode(nil, goon.Name, r)
			if err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
			if string(first) != string(text) {
				t.Fatalf("%s: a session's first response differs from Encode", sc.name)
			}
			if _, err := rs.Decode(nil, goon.Name, first); err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
			refs := ws.Mark(r)
			if len(refs) == 0 && len(r.Nodes) > 0 {
				t.Fatalf("%s: no reference on the second send", sc.name)
			}
			refs = thin(refs, every)
			b, err := c.AppendReferenced(nil, r, refs)
			if err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
			d, got, err := c.DecodeReferenced(b)
			if err != nil {
				t.Fatalf("%s: DecodeReferenced: %v", sc.name, err)
			}
			if len(got) != len(refs) {
				t.Fatalf("%s: %d references written, %d read", sc.name, len(refs), len(got))
			}
			out, err := rs.Resolve(d, got, delta.Fingerprint(want))
			if err != nil {
				t.Fatalf("%s: Resolve: %v", sc.name, err)
			}
			if diff := cmp.Diff(want, out, cmp.AllowUnexported(wire.Value{})); diff != "" {
				t.Fatalf("%s: resolved (-Decode(Encode(r)) +got):\n%s", sc.name, diff)
			}
			if len(refs) > 0 && len(b) >= len(text) {
				t.Errorf("%s: %d bytes with %d references, %d whole", sc.name, len(b), len(refs), len(text))
			}
		}
	}
}

func thin(refs []int, every int) []int {
	var out []int
	for k, i := range refs {
		if k%every == 0 {
			out = append(out, i)
		}
	}
	return out
}

// The writer's Session counts each node it remembers as it holds it (the
// response given to the encoder), the reader's as it decodes it: they
// stay in step under MaxBytes only while no node decodes larger than it
// was written. GOON leaves out null and "" properties and restores a
// truncated value with one byte for each code point cut, so nodes often
// decode smaller (the reader then keeps a node the writer has forgotten,
// and the writer just sends it whole); on no corpus case does one decode
// larger, and the two sessions' node counts agree.
func TestSessionCountsCorpus(t *testing.T) {
	smaller := 0
	for _, c := range corpus.Generate() {
		text, err := goon.Encode(c.Response)
		if err != nil {
			continue
		}
		d, err := goon.Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := delta.NewSession(delta.SessionLimits{})
		rs, _ := delta.NewSession(delta.SessionLimits{})
		ws.Mark(c.Response)
		if _, err := rs.Resolve(d, nil, delta.Hash{}); err != nil {
			t.Fatal(err)
		}
		wn, wb := ws.Len()
		rn, rb := rs.Len()
		if wn != rn || rb > wb {
			t.Errorf("%s: the writer remembers %d nodes of %d bytes, the reader %d of %d", c.ID(), wn, wb, rn, rb)
		}
		if rb < wb {
			smaller++
		}
	}
	t.Logf("%d corpus cases decode to nodes the reader counts smaller", smaller)
}

// Malformed references are positioned errors.
func TestDecodeReferencedErrors(t *testing.T) {
	hdr := func(n, refs string) []string {
		h := []string{"@header", "query_type:traversal", "goon_version:1.0.0", "nodes:" + n}
		if refs != "" {
			h = append(h, "sent_earlier:"+refs)
		}
		return append(h, "edges:0")
	}
	tests := []struct {
		name string
		text string
		line int
		msg  string
	}{
		{"no sent_earlier", doc(cat(hdr("1", ""), []string{"@nodes", "User(1):", "1 (sent earlier)", "@edges"})...), 8, "header has no sent_earlier"},
		{"count above", doc(cat(hdr("2", "2"), []string{"@nodes", "User(2):", "1 (sent earlier)", "2 name=a", "@edges"})...), 5, "sent_earlier:2 but @nodes has 1 references"},
		{"count zero", doc(cat(hdr("1", "0"), []string{"@nodes", "User(1):", "1", "@edges"})...), 5, "at least 1"},
		{"count bad", doc(cat(hdr("1", "x"), []string{"@nodes", "User(1):", "1", "@edges"})...), 5, "at least 1"},
		{"out of order", doc("@header", "query_type:traversal", "goon_version:1.0.0", "nodes:1", "edges:0", "sent_earlier:1", "@nodes", "User(1):", "1 (sent earlier)", "@edges"), 6, "out of order"},
		{"other words", doc(cat(hdr("1", "1"), []string{"@nodes", "User(1):", "1 (sent later)", "@edges"})...), 9, `expected "(sent earlier)"`},
		{"with properties", doc(cat(hdr("1", "1"), []string{"@nodes", "User(1):", "1 (sent earlier) name=a", "@edges"})...), 9, `expected "(sent earlier)"`},
		{"bad id", doc(cat(hdr("1", "1"), []string{"@nodes", "User(1):", "x1 (sent earlier)", "@edges"})...), 9, "bad id"},
		{"a property named like it", doc(cat(hdr("1", "1"), []string{"@nodes", "User(1):", "1 sent_earlier=true", "@edges"})...), 5, "sent_earlier:1 but @nodes has 0 references"},
		{"lifted", doc("@header", "query_type:aggregation", "goon_version:1.0.0", "nodes:1", "sent_earlier:1", "edges:0", "rows:1", "group_by:g(node)",
			"@nodes", "User(1):", "1 (sent earlier)", "@edges", "@rows", "g=User:1"), 11, "lifted from rows"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, refs, err := goon.Default().DecodeReferenced([]byte(tc.text))
			var de *wire.DecodeError
			if !errors.As(err, &de) || r != nil || refs != nil {
				t.Fatalf("got %v, %v, %v; want a *wire.DecodeError", r, refs, err)
			}
			if de.Line != tc.line || !strings.Contains(de.Msg, tc.msg) {
				t.Errorf("error %q, want line %d and %q", err, tc.line, tc.msg)
			}
		})
	}
}

// A property named like the marker stays a property, a node without
// properties stays a node: neither is a reference.
func TestReferenceUnambiguous(t *testing.T) {
	r := resp(wire.Traversal, nodes(node("User", 1, P("sent_earlier", B(true))), node("User", 2), node("User", 3, P("note", S("(sent earlier)")))))
	text, err := goon.Default().AppendReferenced(nil, r, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	d, refs, err := goon.Default().DecodeReferenced(text)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1}, refs); diff != "" {
		t.Errorf("positions (-want +got):\n%s\n%s", diff, text)
	}
	want := nodes(node("User", 1, P("sent_earlier", B(true))), node("User", 2), node("User", 3, P("note", S("(sent earlier)"))))
	if diff := cmp.Diff(want, d.Nodes, cmp.AllowUnexported(wire.Value{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// AppendReferenced refuses positions that are not ascending positions in
// nodes, and a response that AppendEncode refuses, whatever it references.
func TestAppendReferencedErrors(t *testing.T) {
	r := resp(wire.Traversal, nodes(node("User", 1), node("User", 2, P("bad key", I(1)))))
	for _, refs := range [][]int{{-1}, {2}, {0, 0}, {1, 0}} {
		dst, err := goon.Default().AppendReferenced([]byte("x"), resp(wire.Traversal, nodes(node("User", 1), node("User", 2))), refs)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || string(dst) != "x" {
			t.Errorf("refs %v: %q, %v; want a *wire.EncodeError and dst unchanged", refs, dst, err)
		}
	}
	_, plainErr := goon.Encode(r)
	_, err := goon.Default().AppendReferenced(nil, r, []int{1})
	if plainErr == nil || err == nil || err.Error() != plainErr.Error() {
		t.Errorf("a bad key in a reference: %v, AppendEncode: %v", err, plainErr)
	}
}

// Where GOON decodes a node larger than it was written: a list whose JSON
// text escaping makes longer than the list's memory, and invalid UTF-8,
// each bad byte read back as the three bytes of U+FFFD.
func TestSessionCountsLarger(t *testing.T) {
	for _, v := range []wire.Value{L(S(strings.Repeat("\x01", 100))), S(strings.Repeat("\xff", 100))} {
		r := resp(wire.Traversal, nodes(node("User", 1, P("x", v))))
		text, err := goon.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		d, err := goon.Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := delta.NewSession(delta.SessionLimits{})
		rs, _ := delta.NewSession(delta.SessionLimits{})
		ws.Mark(r)
		if _, err := rs.Resolve(d, nil, delta.Hash{}); err != nil {
			t.Fatal(err)
		}
		_, wb := ws.Len()
		_, rb := rs.Len()
		if rb <= wb {
			t.Errorf("%v: the reader counts %d bytes, the writer %d: no longer larger (update the package documentation)", v.Kind(), rb, wb)
		}
	}
}

// TestRunSession: the suite's conversations write through Session.Encode,
// which reads GOON's output back and so remembers what the reader holds.
func TestRunSession(t *testing.T) {
	deltatest.RunSession(t, deltatest.SessionSuite{
		Codec:  goon.Default(),
		Encode: goon.Encode,
		Normalize: func(r *wire.GraphResponse) (*wire.GraphResponse, error) {
			text, err := goon.Encode(r)
			if err != nil {
				return nil, err
			}
			return goon.Decode(text)
		},
		Options: genOptions,
	})
}

// divergingConversation is two responses in sessions of 400 bytes:
// User:0, then User:1 with three null properties (too large for a writer
// counting it as written, small enough without them, as GOON reads it),
// then User:0 again.
func divergingConversation() (delta.SessionLimits, []*wire.GraphResponse) {
	first := resp(wire.Traversal, nodes(node("User", 0), node("User", 1, P("username", N()), P("name", N()), P("full_path", N()))))
	second := resp(wire.Traversal, nodes(node("User", 0)))
	return delta.SessionLimits{MaxBytes: 400}, []*wire.GraphResponse{first, second}
}

// Session.Encode and Session.Decode stay in step on the conversation
// where marking does not, and give Decode(Encode(r)).
func TestSessionEncodeInStep(t *testing.T) {
	lim, rs := divergingConversation()
	w, _ := delta.NewSession(lim)
	rd, _ := delta.NewSession(lim)
	refs := 0
	for _, r := range rs {
		b, err := w.Encode(nil, goon.Name, r)
		if err != nil {
			t.Fatal(err)
		}
		refs += strings.Count(string(b), "(sent earlier)")
		got, err := rd.Decode(nil, goon.Name, b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		text, _ := goon.Encode(r)
		want, _ := goon.Decode(text)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(wire.Value{})); diff != "" {
			t.Errorf("(-Decode(Encode(r)) +got):\n%s", diff)
		}
	}
	if refs != 0 {
		t.Errorf("%d references, want none (both sessions count User:1 as read, which pushes User:0 out)", refs)
	}
}

// A reader whose session missed the conversation gets ErrUnresolved,
// never a response.
func TestSessionUnresolved(t *testing.T) {
	r := goldenCases()[0].in
	ws, _ := delta.NewSession(delta.SessionLimits{})
	ws.Mark(r)
	b, err := ws.Encode(nil, goon.Name, r)
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := delta.NewSession(delta.SessionLimits{})
	if got, err := rs.Decode(nil, goon.Name, b); !errors.Is(err, delta.ErrUnresolved) || got != nil {
		t.Fatalf("a reader that missed the conversation: %v, %v; want ErrUnresolved", got, err)
	}
}

// A node listed twice with the same row, once as a reference: the whole
// row comes first, whichever listing is the reference.
func TestAppendReferencedDuplicates(t *testing.T) {
	r := resp(wire.Traversal, nodes(node("User", 1, P("name", S("a"))), node("User", 1, P("name", S("a")))))
	first, err := goon.Default().AppendReferenced(nil, r, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	second, err := goon.Default().AppendReferenced(nil, r, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	want := doc("@header", "query_type:traversal", "goon_version:1.0.0", "nodes:2", "sent_earlier:1", "edges:0",
		"@nodes", "User(2):", "1 name=a", "1 (sent earlier)", "@edges")
	if diff := cmp.Diff(want, string(first)); diff != "" {
		t.Errorf("reference at 0 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, string(second)); diff != "" {
		t.Errorf("reference at 1 (-want +got):\n%s", diff)
	}
}
