package binary

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sessionPair is a writer's and a reader's Session with default limits.
func sessionPair(t testing.TB) (ws, rs *delta.Session) {
	t.Helper()
	ws, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err = delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, rs
}

// sendReferenced writes r in the writer's session and reads it in the
// reader's: it returns the bytes, the references the reader saw, and
// fails unless the resolved response is exactly r.
func sendReferenced(t *testing.T, c *Codec, ws, rs *delta.Session, r *wire.GraphResponse) ([]byte, []int) {
	t.Helper()
	refs := ws.Mark(r)
	b, err := c.AppendReferenced(nil, r, refs)
	if err != nil {
		t.Fatalf("%s: AppendReferenced: %v", c.format, err)
	}
	back, got, err := c.DecodeReferenced(b)
	if err != nil {
		t.Fatalf("%s: DecodeReferenced: %v", c.format, err)
	}
	if diff := cmp.Diff(refs, got); diff != "" && len(refs)+len(got) > 0 {
		t.Fatalf("%s: references read (-written +read):\n%s", c.format, diff)
	}
	for _, i := range got {
		if back.Nodes[i].Properties != nil {
			t.Fatalf("%s: reference at %d decoded with properties %v", c.format, i, back.Nodes[i].Properties)
		}
	}
	resolved, err := rs.Resolve(back, got, delta.Fingerprint(r))
	if err != nil {
		t.Fatalf("%s: Resolve: %v", c.format, err)
	}
	if diff := wiretest.Diff(r, resolved, wire.Exact); diff != "" {
		t.Fatalf("%s: resolved response (-sent +resolved):\n%s", c.format, diff)
	}
	return b, got
}

// TestSessionCorpus: over a conversation of corpus cases and their
// re-queries, every response resolves back exactly, references are
// written for nodes delivered before, and the encodings with references
// are smaller than the plain ones.
func TestSessionCorpus(t *testing.T) {
	cases := corpus.Generate()
	cases = cases[:min(len(cases), 24)]
	if testing.Short() {
		cases = cases[:12]
	}
	for _, f := range formats {
		c := Default(f)
		ws, rs := sessionPair(t)
		var plainBytes, refBytes, refs int
		for _, cc := range cases {
			for _, r := range []*wire.GraphResponse{cc.Response, deltatest.ChangeRate(cc.Response, 20), cc.Response} {
				plain, err := c.AppendEncode(nil, r)
				if err != nil {
					t.Fatal(err)
				}
				b, got := sendReferenced(t, c, ws, rs, r)
				if len(got) == 0 && !bytes.Equal(b, plain) {
					t.Fatalf("%s %s: without references the bytes differ from AppendEncode's", f, cc.ID())
				}
				if len(got) > 0 && c.Sniff(b) < 0.9 {
					t.Errorf("%s %s: Sniff %v of a response with references", f, cc.ID(), c.Sniff(b))
				}
				plainBytes += len(plain)
				refBytes += len(b)
				refs += len(got)
			}
		}
		t.Logf("%s: %d references; %d bytes with them, %d plain (%.1f%%)", f, refs, refBytes, plainBytes, 100*float64(refBytes)/float64(plainBytes))
		if refs == 0 || refBytes >= plainBytes {
			t.Errorf("%s: %d references, %d bytes against %d plain", f, refs, refBytes, plainBytes)
		}
	}
}

// TestSessionPlainBytes: without references AppendReferenced writes
// exactly AppendEncode's bytes, and DecodeReferenced reads any response
// with no references.
func TestSessionPlainBytes(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true})
	for _, f := range formats {
		c := Default(f)
		for seed := range 300 {
			r := gen.Example(seed)
			want, err := c.AppendEncode([]byte("x"), r)
			if err != nil {
				continue
			}
			got, err := c.AppendReferenced([]byte("x"), r, nil)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s seed %d: AppendReferenced without references: %v\n% x\nwant\n% x", f, seed, err, got, want)
			}
			back, refs, err := c.DecodeReferenced(want[1:])
			if err != nil || refs != nil {
				t.Fatalf("%s seed %d: DecodeReferenced of a plain response: refs %v, %v", f, seed, refs, err)
			}
			if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
				t.Fatalf("%s seed %d: (-want +got)\n%s", f, seed, diff)
			}
		}
	}
}

// TestSessionReferenceUnambiguous: a node with no properties and a
// property named like the marker are not references; a reference is not
// a node with no properties; Decode refuses a response with references
// at its layout version, naming DecodeReferenced.
func TestSessionReferenceUnambiguous(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Traversal, Nodes: []wire.Node{
		{Type: "User", ID: 1},
		{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("sent_earlier", wire.String("sent_earlier"))}},
		{Type: "sent_earlier", ID: 3, Properties: []wire.Property{wire.Prop("name", wire.String("c"))}},
	}, Edges: []wire.Edge{}}
	for _, f := range formats {
		c := Default(f)
		plain, err := c.AppendEncode(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		back, refs, err := c.DecodeReferenced(plain)
		if err != nil || len(refs) != 0 {
			t.Fatalf("%s: plain response read with references %v (%v)", f, refs, err)
		}
		if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
			t.Fatalf("%s: (-want +got)\n%s", f, diff)
		}
		b, err := c.AppendReferenced(nil, r, []int{0, 2})
		if err != nil {
			t.Fatal(err)
		}
		back, refs, err = c.DecodeReferenced(b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int{0, 2}, refs); diff != "" {
			t.Errorf("%s: refs (-want +got)\n%s", f, diff)
		}
		want := wiretest.Clone(r)
		want.Nodes[2].Properties = nil
		if diff := wiretest.Diff(want, back, wire.Exact); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", f, diff)
		}
		_, err = c.Decode(b)
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Offset != 1 || !strings.Contains(de.Msg, "DecodeReferenced") {
			t.Errorf("%s: Decode of a response with references: %v, want an error at offset 1 naming DecodeReferenced", f, err)
		}
	}
}

// referencedBytes writes rec, the items of a response record, with a
// generic encoder of f.
func referencedBytes(t *testing.T, f Format, rec []any) []byte {
	t.Helper()
	var b []byte
	var err error
	if f == Msgpack {
		b, err = msgpack.Marshal(rec)
	} else {
		b, err = cborEnc.Marshal(rec)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSessionMalformedReference: each malformed reference is a
// *wire.DecodeError at the item at fault.
func TestSessionMalformedReference(t *testing.T) {
	doc := func(layout int, nodes ...any) []any {
		return []any{layout, "1.0", "traversal", nodes, []any{}}
	}
	tests := []struct {
		name string
		rec  []any
		want string
	}{
		{"a reference under layout 2", doc(2, []any{"User", 1, "sent_earlier"}), "node: 3 elements, expected an even number"},
		{"another marker", doc(3, []any{"User", 1, "sent_later"}), `expected the marker "sent_earlier"`},
		{"a marker that is not a name", doc(3, []any{"User", 1, true}), "reference marker: expected name"},
		{"a marker index out of the table", doc(3, []any{"User", 1, 7}), "reference marker: name index 7 out of range"},
		{"an id that is not an integer", doc(3, []any{"User", "1", "sent_earlier"}), "reference id: expected integer"},
		{"five items", doc(3, []any{"User", 1, "sent_earlier", "a", 1}), "node: 5 elements, expected an even number"},
		{"layout 3 without a reference", doc(3, []any{"User", 1}), "layout 3 without a reference"},
		{"layout 4", doc(4, []any{"User", 1, "sent_earlier"}), "unsupported layout version 4"},
	}
	for _, f := range formats {
		c := Default(f)
		for _, tc := range tests {
			b := referencedBytes(t, f, tc.rec)
			_, _, err := c.DecodeReferenced(b)
			var de *wire.DecodeError
			if !errors.As(err, &de) || !strings.Contains(de.Msg, tc.want) || de.Offset <= 0 || de.Offset >= int64(len(b)) {
				t.Errorf("%s %s: %v, want a positioned error containing %q", f, tc.name, err, tc.want)
			}
		}
	}
}

// TestSessionReferencedRefused: AppendReferenced refuses positions out of
// range, repeated or out of order, writing nothing.
func TestSessionReferencedRefused(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{{Type: "A", ID: 1}, {Type: "A", ID: 2}}, Edges: []wire.Edge{}}
	for _, f := range formats {
		for _, refs := range [][]int{{2}, {-1}, {1, 1}, {1, 0}} {
			out, err := Default(f).AppendReferenced([]byte("x"), r, refs)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || string(out) != "x" {
				t.Errorf("%s refs %v: %v, wrote %q; want an *EncodeError and nothing written", f, refs, err, out)
			}
		}
	}
}

// TestSessionExample: the bytes of the package documentation's example,
// as a generic decoder of each format reads them.
func TestSessionExample(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Traversal, Nodes: []wire.Node{
		{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("name", wire.String("ada"))}},
		{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("name", wire.String("bob"))}},
	}, Edges: []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 2, Type: "FOLLOWS"}}}
	want := []any{uint64(3), "1.0", "traversal",
		[]any{[]any{"User", uint64(1), "sent_earlier"}, []any{uint64(1), uint64(2), "name", "bob"}},
		[]any{[]any{uint64(1), uint64(1), uint64(1), uint64(2), "FOLLOWS"}}}
	for _, f := range formats {
		b, err := Default(f).AppendReferenced(nil, r, []int{0})
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if f == Msgpack {
			dec := msgpack.NewDecoder(bytes.NewReader(b))
			dec.UseLooseInterfaceDecoding(true)
			err = dec.Decode(&got)
		} else {
			err = cbor.Unmarshal(b, &got)
		}
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, normalizeInts(got)); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", f, diff)
		}
	}
}

// normalizeInts turns the integer types of the generic decoders into
// uint64 (the example has no negative integer).
func normalizeInts(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = normalizeInts(x[i])
		}
		return x
	case int8:
		return uint64(x)
	case int16:
		return uint64(x)
	case int32:
		return uint64(x)
	case int64:
		return uint64(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	}
	return v
}

// TestRunSession: the checks every codec's session syntax passes, for
// both formats.
func TestRunSession(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		t.Run(f.String(), func(t *testing.T) {
			deltatest.RunSession(t, deltatest.SessionSuite{
				Codec:   c,
				Encode:  func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
				Options: wiretest.Options{AwkwardNames: true, NonFinite: true},
			})
		})
	}
}

// TestSessionResent: a corpus case sent again in the same session is
// written with every node a reference, smaller than written whole; the
// figures are logged (go test -run SessionResent -v).
func TestSessionResent(t *testing.T) {
	want := map[string]bool{"lean/traversal_l": true, "text-heavy/traversal_l": true, "lean/neighbors_l": true, "text-heavy/search_l": true}
	seen := 0
	for _, cc := range corpus.Generate() {
		if !want[cc.ID()] {
			continue
		}
		seen++
		for _, f := range formats {
			c := Default(f)
			ws, rs := sessionPair(t)
			plain, _ := sendReferenced(t, c, ws, rs, cc.Response)
			again, refs := sendReferenced(t, c, ws, rs, cc.Response)
			t.Logf("%-22s %-7s %d nodes: %8d bytes whole, %8d resent with %d references (%.1f%%)",
				cc.ID(), f, len(cc.Response.Nodes), len(plain), len(again), len(refs), 100*float64(len(again))/float64(len(plain)))
			if len(refs) != len(cc.Response.Nodes) || len(again) >= len(plain) {
				t.Errorf("%s %s: resent with %d references of %d nodes, %d bytes against %d", cc.ID(), f, len(refs), len(cc.Response.Nodes), len(again), len(plain))
			}
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d cases", seen, len(want))
	}
}
