package gcf_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

var _ delta.SessionCodec = gcf.Default()

// TestSessionSuite: graphwire's session checks on gcf.
func TestSessionSuite(t *testing.T) {
	c := gcf.Default()
	deltatest.RunSession(t, deltatest.SessionSuite{
		Codec:  c,
		Encode: func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
		Normalize: func(r *wire.GraphResponse) (*wire.GraphResponse, error) {
			text, err := c.AppendEncode(nil, r)
			if err != nil {
				return nil, err
			}
			return c.Decode(text)
		},
		Options: wiretest.Options{AwkwardNames: true},
	})
}

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

// TestReferencedText: the text of references, and what reads back.
func TestReferencedText(t *testing.T) {
	c := gcf.Default()
	r := sessionResponse()
	got, err := c.AppendReferenced(nil, r, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `GCF profile=generic session=true
format_version=1.2.0
query_type=traversal
## nodes [3]
@0 [2]{type,id,username,labels}
  @0 User|1001|ada|^
  .labels [1]: a
  User|1002  # previously transmitted
@1 [1]{type,id}
  "a|b"|-7  # previously transmitted
@2 [1]{type,id}
  Empty|3  # previously transmitted
## edges [1]{from,from_id,to,to_id,type}
User|1001|User|1002|KNOWS
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Fatalf("AppendReferenced (-want +got):\n%s", diff)
	}
	back, refs, err := c.DecodeReferenced(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	wantBack := sessionResponse()
	for _, i := range refs {
		wantBack.Nodes[i].Properties = nil
	}
	if diff := wiretest.Diff(wantBack, back, wire.Exact); diff != "" {
		t.Errorf("DecodeReferenced (-want +got):\n%s", diff)
	}

	// A node that is not a reference keeps a value that reads like the
	// marker, and a node without properties is a node.
	got, err = c.AppendReferenced(nil, r, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	back, refs, err = c.DecodeReferenced(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0}, refs); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	wantBack = sessionResponse()
	wantBack.Nodes[0].Properties = nil
	if diff := wiretest.Diff(wantBack, back, wire.Exact); diff != "" {
		t.Errorf("DecodeReferenced (-want +got):\n%s\n%s", diff, got)
	}
	if _, err := c.Decode(got); err == nil || !strings.Contains(err.Error(), "DecodeReferenced") {
		t.Errorf("Decode of a referenced document: %v, want an error naming DecodeReferenced", err)
	}
	if s := c.Sniff(got); s != 0.95 {
		t.Errorf("Sniff of a referenced document: %v, want 0.95", s)
	}
}

// TestReferencedPlain: no references write AppendEncode's bytes, and a
// plain document reads with none.
func TestReferencedPlain(t *testing.T) {
	c := gcf.Default()
	r := sessionResponse()
	plain, err := c.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.AppendReferenced(nil, r, nil)
	if err != nil || string(got) != string(plain) {
		t.Fatalf("AppendReferenced without refs: %v\n%s", err, got)
	}
	back, refs, err := c.DecodeReferenced(plain)
	if err != nil || refs != nil {
		t.Fatalf("DecodeReferenced of a plain document: refs %v, %v", refs, err)
	}
	if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Without session=true in the header, a marker is not a reference.
	text := strings.Replace(string(plain), "User|1002|bob|~", "User|1002  # previously transmitted", 1)
	if _, _, err := c.DecodeReferenced([]byte(text)); err == nil {
		t.Error("a reference in a document without session=true was read")
	}
}

// TestReferencedMalformed: a malformed reference is a positioned error.
func TestReferencedMalformed(t *testing.T) {
	c := gcf.Default()
	good, err := c.AppendReferenced(nil, sessionResponse(), []int{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"User|10x2  # previously transmitted",
		"User|1002|x  # previously transmitted",
		"User  # previously transmitted",
		"User|1002 # previously transmitted",
		"User|1002  # previously",
	} {
		text := strings.Replace(string(good), "User|1002  # previously transmitted", bad, 1)
		_, _, err := c.DecodeReferenced([]byte(text))
		var de *wire.DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), "line 8") {
			t.Errorf("%q: %v, want a *wire.DecodeError at line 8", bad, err)
		}
	}
	if _, err := c.AppendReferenced(nil, sessionResponse(), []int{2, 1}); err == nil {
		t.Error("references out of order were written")
	}
}

func ExampleCodec_AppendReferenced() {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal,
		Nodes: []wire.Node{
			{Type: "User", ID: 1001, Properties: []wire.Property{wire.Prop("username", wire.String("ada")), wire.Prop("name", wire.String("Ada"))}},
			{Type: "User", ID: 1002, Properties: []wire.Property{wire.Prop("username", wire.String("bob")), wire.Prop("name", wire.String("Bob"))}},
		},
		Edges: []wire.Edge{{From: "User", FromID: 1001, To: "User", ToID: 1002, Type: "KNOWS"}},
	}
	// User 1001 was sent earlier in the session.
	out, err := gcf.Default().AppendReferenced(nil, r, []int{0})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// GCF profile=generic session=true
	// format_version=1.2.0
	// query_type=traversal
	// ## nodes [2]{type,id,username,name}
	// User|1001  # previously transmitted
	// User|1002|bob|Bob
	// ## edges [1]{from,from_id,to,to_id,type}
	// User|1001|User|1002|KNOWS
}
