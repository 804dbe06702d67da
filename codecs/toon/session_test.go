package toon_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func TestSession(t *testing.T) {
	c := toon.Default()
	deltatest.RunSession(t, deltatest.SessionSuite{
		Codec:  c,
		Encode: toon.Encode,
		Normalize: func(r *wire.GraphResponse) (*wire.GraphResponse, error) {
			b, err := toon.Encode(r)
			if err != nil {
				return nil, err
			}
			return toon.Decode(b)
		},
	})
}

// sessionResponse has two types whose nodes interleave, so that
// references need node_order.
func sessionResponse() *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal, Nodes: []wire.Node{
		{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("name", wire.String("Ann"))}},
		{Type: "Repo", ID: 7, Properties: []wire.Property{wire.Prop("name", wire.String("gw"))}},
		{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("name", wire.String("Bob"))}},
		{Type: "Merge Request", ID: 9},
		{Type: "sent_earlier", ID: 3, Properties: []wire.Property{wire.Prop("sent_earlier", wire.Bool(true))}},
	}, Edges: []wire.Edge{{From: "User", FromID: 1, To: "Repo", ToID: 7, Type: "OWNS"}}}
}

func TestReferencedText(t *testing.T) {
	r := sessionResponse()
	got, err := toon.Default().AppendReferenced(nil, r, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `format_version: "1"
query_type: traversal
nodes:
  User[1]{id,name}:
    1,Ann
  sent_earlier[1]{id,sent_earlier}:
    3,true
sent_earlier:
  Repo[1]: 7
  User[1]: 2
  "Merge Request"[1]: 9
node_order[5]: 0,2,3,4,1
edges[1]{from,from_id,to,to_id,type}:
  User,1,Repo,7,OWNS`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	back, refs, err := toon.Default().DecodeReferenced(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	wantR := sessionResponse()
	for _, i := range refs {
		wantR.Nodes[i].Properties = nil
	}
	if diff := cmp.Diff(wantR, back, wiretest.CmpOptions(wire.Exact)...); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	// A plain Decode refuses references rather than dropping them.
	if _, err := toon.Decode(got); err == nil || !strings.Contains(err.Error(), "sent_earlier") {
		t.Errorf("Decode of a referenced response: %v", err)
	}
	// Every node a reference: "nodes:" stays, empty.
	all, err := toon.Default().AppendReferenced(nil, r, []int{0, 1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(all, []byte("\nnodes:\nsent_earlier:\n")) {
		t.Errorf("every node a reference:\n%s", all)
	}
	if back, refs, err := toon.Default().DecodeReferenced(all); err != nil || len(refs) != 5 || len(back.Nodes) != 5 {
		t.Errorf("all references: %v, %v\n%s", refs, err, all)
	}
	// References that come after the nodes written in full need no
	// node_order.
	r.Nodes = []wire.Node{r.Nodes[0], r.Nodes[2], r.Nodes[1]}
	tail, err := toon.Default().AppendReferenced(nil, r, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(tail, []byte("node_order")) {
		t.Errorf("node_order written for references in order:\n%s", tail)
	}
}

// The example of the package documentation, Sessions.
func TestReferencedDocExample(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal, Nodes: []wire.Node{
		{Type: "Repo", ID: 7, Properties: []wire.Property{wire.Prop("name", wire.String("gw"))}},
		{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("name", wire.String("Ann"))}},
		{Type: "User", ID: 2, Properties: []wire.Property{wire.Prop("name", wire.String("Bob"))}},
	}, Edges: []wire.Edge{
		{From: "User", FromID: 1, To: "Repo", ToID: 7, Type: "OWNS"},
		{From: "User", FromID: 2, To: "Repo", ToID: 7, Type: "OWNS"},
	}}
	got, err := toon.Default().AppendReferenced(nil, r, []int{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := `format_version: "1"
query_type: traversal
nodes:
  User[1]{id,name}:
    1,Ann
sent_earlier:
  Repo[1]: 7
  User[1]: 2
node_order[3]: 1,0,2
edges[2]{from,from_id,to,to_id,type}:
  User,1,Repo,7,OWNS
  User,2,Repo,7,OWNS`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReferencedPlain(t *testing.T) {
	r := sessionResponse()
	plain, err := toon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := toon.Default().AppendReferenced([]byte("x"), r, nil)
	if err != nil || string(got) != "x"+string(plain) {
		t.Fatalf("no references: %v\n%s", err, got)
	}
	back, refs, err := toon.Default().DecodeReferenced(plain)
	if err != nil || refs != nil {
		t.Fatalf("a plain response: refs %v, %v", refs, err)
	}
	want, _ := toon.Decode(plain)
	if diff := cmp.Diff(want, back, wiretest.CmpOptions(wire.Exact)...); diff != "" {
		t.Errorf("(-Decode +DecodeReferenced):\n%s", diff)
	}
}

func TestReferencedRefusals(t *testing.T) {
	r := sessionResponse()
	for _, refs := range [][]int{{-1}, {5}, {2, 1}, {1, 1}} {
		out, err := toon.Default().AppendReferenced([]byte("keep"), r, refs)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || string(out) != "keep" {
			t.Errorf("refs %v: %q, %v", refs, out, err)
		}
	}
	head := "format_version: \"1\"\nquery_type: search\nnodes:\n  U[1]{id}:\n    1\n"
	for _, tc := range []struct{ name, in, msg string }{
		{"not an object", head + "sent_earlier: 3\nedges: []", "sent_earlier: expected an object"},
		{"not an array", head + "sent_earlier:\n  U: 3\nedges: []", "sent_earlier.U: expected an array"},
		{"not an id", head + "sent_earlier:\n  U[1]: x\nedges: []", "sent_earlier.U[0]: expected an integer"},
		{"a node", head + "sent_earlier:\n  U[1]{id}:\n    4\nedges: []", "sent_earlier.U[0]: expected an integer"},
		{"order past the groups", head + "sent_earlier:\n  U[1]: 2\nnode_order[2]: 0,2\nedges: []", "node_order[1]: group 2 out of range"},
	} {
		_, _, err := toon.Default().DecodeReferenced([]byte(tc.in))
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Line == 0 || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want a positioned error containing %q", tc.name, err, tc.msg)
		}
	}
}

// The round trip a user relies on: a writer's session marks, the reader's
// resolves, and the result is what Decode(Encode(r)) gives.
func TestReferencedResolve(t *testing.T) {
	r := sessionResponse()
	ws, _ := delta.NewSession(delta.SessionLimits{})
	rs, _ := delta.NewSession(delta.SessionLimits{})
	for range 2 {
		b, err := ws.Encode(nil, toon.Name, r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := rs.Decode(nil, toon.Name, b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		plain, _ := toon.Encode(r)
		want, _ := toon.Decode(plain)
		if diff := cmp.Diff(want, got, wiretest.CmpOptions(wire.Exact)...); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
	if s := toon.Default().Sniff(mustRef(t, r)); s < 0.9 {
		t.Errorf("Sniff of a referenced response: %v", s)
	}
}

func mustRef(t *testing.T, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := toon.Default().AppendReferenced(nil, r, []int{0, 3})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzDecodeReferenced: DecodeReferenced never panics; invalid input
// gives a *wire.DecodeError and nothing else; what it reads has its
// references ascending, in range and without properties, and writing it
// again with the same references reads back the same.
func FuzzDecodeReferenced(f *testing.F) {
	r := sessionResponse()
	for _, refs := range [][]int{nil, {0}, {1, 2, 3}, {0, 1, 2, 3, 4}, {4}} {
		b, err := toon.Default().AppendReferenced(nil, r, refs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("format_version: x\nquery_type: search\nnodes:\nsent_earlier:\n  U[2]: 1,-9223372036854775808\n  \"a b\"[1]: 3\nnode_order[3]: 1,0,0\nedges: []"))
	f.Add([]byte("format_version: x\nquery_type: search\nsent_earlier:\n  U[1]: 1\nnodes:\n  U[1]{id,p}:\n    1,2\nnode_order[2]: 1,0\nedges: []"))
	fidelity := toon.Default().Info().Fidelity
	f.Fuzz(func(t *testing.T, data []byte) {
		r, refs, err := toon.Default().DecodeReferenced(data)
		if err != nil {
			var de *wire.DecodeError
			if r != nil || refs != nil || !errors.As(err, &de) || de.Codec != "toon" {
				t.Fatalf("error %T %v with response %v, refs %v", err, err, r != nil, refs)
			}
			return
		}
		for k, i := range refs {
			if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] || r.Nodes[i].Properties != nil {
				t.Fatalf("refs %v over %d nodes", refs, len(r.Nodes))
			}
		}
		b, err := toon.Default().AppendReferenced(nil, r, refs)
		if err != nil {
			t.Fatalf("a response read does not write: %v", err)
		}
		r2, refs2, err := toon.Default().DecodeReferenced(b)
		if err != nil {
			t.Fatalf("written text does not read: %v\n%s", err, b)
		}
		if diff := cmp.Diff(refs, refs2); diff != "" {
			t.Fatalf("refs (-first +again):\n%s", diff)
		}
		if diff := cmp.Diff(r, r2, wiretest.CmpOptions(fidelity)...); diff != "" {
			t.Fatalf("(-first +again):\n%s", diff)
		}
	})
}
