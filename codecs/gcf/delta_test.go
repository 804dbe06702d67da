package gcf_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// asRead is r as a gcf client holds it: Decode(Encode(r)).
func asRead(r *wire.GraphResponse) (*wire.GraphResponse, error) {
	b, err := gcf.Default().AppendEncode(nil, r)
	if err != nil {
		return nil, err
	}
	return gcf.Default().Decode(b)
}

func TestDelta(t *testing.T) {
	c := gcf.Default()
	deltatest.RunCodec(t, deltatest.CodecSuite{
		Codec:         c,
		Normalize:     asRead,
		SniffResponse: c.Sniff,
		SniffDelta:    c.SniffDelta,
		Encode:        func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
		Partial:       true,
	})
}

func TestDeltaText(t *testing.T) {
	user := func(id int64, name string) wire.Node {
		return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("name", wire.String(name))}}
	}
	base := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{user(1, "ada"), user(2, "bob")}}
	next := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{user(1, "ada lovelace"), user(3, "cy")}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	b, err := gcf.Default().AppendDelta(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=generic tool=graphwire delta=true base_root=" + d.Base.String() + " new_root=" + d.Result.String() +
		" key=node_key query_type=search format_version=1.2.0 added_at=1\n" +
		"## added [1]{@node_key,type,id,name}\nUser:3|User|3|cy\n" +
		"## changed [1]{@node_key,type,id,name}\nUser:1|User|1|ada lovelace\n" +
		"## removed [1]{@node_key}\nUser:2\n"
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("delta text (-want +got):\n%s", diff)
	}
	same, _ := delta.Diff(base, base)
	b, err = gcf.Default().AppendDelta(nil, same)
	if want := "GCF profile=generic tool=graphwire unchanged=true pack_root=" + same.Base.String() + "\n"; err != nil || string(b) != want {
		t.Errorf("unchanged: %q, %v; want %q", b, err, want)
	}
}

func TestDeltaRefusesWhatGCFCannotExpress(t *testing.T) {
	e := func(from int64) wire.Edge {
		return wire.Edge{From: "User", FromID: from, To: "User", ToID: 9, Type: "FOLLOWS"}
	}
	base := &wire.GraphResponse{QueryType: wire.Traversal, Edges: []wire.Edge{e(1)}}
	next := &wire.GraphResponse{QueryType: wire.Traversal, Edges: []wire.Edge{e(2)}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	got, err := gcf.Default().AppendDelta([]byte("keep"), d)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || string(got) != "keep" || !strings.Contains(err.Error(), "cannot express edges") {
		t.Errorf("an edge delta: %q, %v; want dst unchanged and an error naming edges", got, err)
	}
}

func TestDecodeDeltaErrors(t *testing.T) {
	h1, h2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	head := "GCF profile=generic tool=graphwire delta=true base_root=" + h1 + " new_root=" + h2 + " key=node_key"
	for _, c := range []struct{ name, in, want string }{
		{"a response", "GCF profile=generic\nformat_version=1\n", "delta=true"},
		{"no query type", head + "\n## removed [1]{@node_key}\nUser:2\n", "query_type"},
		{"bad root", strings.Replace(head, h1, "sha256:x", 1) + " query_type=search\n## removed [1]{@node_key}\nUser:2\n", "base_root"},
		{"another key", strings.Replace(head, "key=node_key", "key=id", 1) + " query_type=search\n## removed [1]{@id}\n2\n", "key=id"},
		{"bad removed key", head + " query_type=search\n## removed [1]{@node_key}\nUser\n", "removed[0]"},
		{"added without added_at", head + " query_type=search\n## added [1]{@node_key,type,id}\nUser:3|User|3\n", "added_at"},
		{"key and node disagree", head + " query_type=search added_at=0\n## added [1]{@node_key,type,id}\nUser:4|User|3\n", "added[0].node_key"},
		{"truncated", head + " query_type=search\n## removed [2]{@node_key}\nUser:2\n", "gcf:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := gcf.Default().DecodeDelta([]byte(c.in))
			var de *wire.DecodeError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want a *wire.DecodeError holding %q", err, c.want)
			}
		})
	}
}

func TestDeltaPropertyOrders(t *testing.T) {
	node := func(typ string, id int64, keys ...string) wire.Node {
		n := wire.Node{Type: typ, ID: id}
		for _, k := range keys {
			n.Properties = append(n.Properties, wire.Prop(k, wire.Int(1)))
		}
		return n
	}
	base := &wire.GraphResponse{QueryType: wire.Search}
	// Orders one table keeps: a b c and x b y merge as a x b c y or so.
	ok := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{node("A", 1, "a", "b", "c"), node("B", 2, "x", "b", "y")}}
	d, _ := delta.Diff(base, ok)
	b, err := gcf.Default().AppendDelta(nil, d)
	if err != nil {
		t.Fatalf("compatible orders: %v", err)
	}
	back, err := gcf.Default().DecodeDelta(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := delta.Patch(base, back); err != nil || !wire.Equal(ok, got, wire.Exact) {
		t.Errorf("compatible orders: patched %v, %v", got, err)
	}
	// a before b, and b before a: no one table.
	bad := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{node("A", 1, "a", "b"), node("A", 2, "b", "a")}}
	d, _ = delta.Diff(base, bad)
	if _, err := gcf.Default().AppendDelta(nil, d); err == nil || !strings.Contains(err.Error(), "no one table keeps") {
		t.Errorf("contradicting orders: %v, want a refusal", err)
	}
}
