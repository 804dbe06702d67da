package toon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// asRead is r as a toon client holds it: Decode(Encode(r)).
func asRead(r *wire.GraphResponse) (*wire.GraphResponse, error) {
	b, err := toon.Encode(r)
	if err != nil {
		return nil, err
	}
	return toon.Decode(b)
}

func TestDelta(t *testing.T) {
	c := toon.Default()
	deltatest.RunCodec(t, deltatest.CodecSuite{
		Codec:         c,
		Normalize:     asRead,
		SniffResponse: c.Sniff,
		SniffDelta:    c.SniffDelta,
		Encode:        func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
	})
}

func deltaOf(t *testing.T, base, next *wire.GraphResponse) (*delta.Delta, string) {
	t.Helper()
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	b, err := toon.Default().AppendDelta(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	return d, string(b)
}

func TestDeltaText(t *testing.T) {
	user := func(id int64, name string) wire.Node {
		return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("name", wire.String(name))}}
	}
	mr := wire.Node{Type: "MergeRequest", ID: 7, Properties: []wire.Property{wire.Prop("iid", wire.Int(3))}}
	authored := func(id int64) wire.Edge {
		return wire.Edge{From: "User", FromID: id, To: "MergeRequest", ToID: 7, Type: "AUTHORED"}
	}
	base := &wire.GraphResponse{QueryType: wire.Traversal,
		Nodes: []wire.Node{mr, user(1, "ada"), user(2, "bob")}, Edges: []wire.Edge{authored(1)}}
	next := &wire.GraphResponse{QueryType: wire.Traversal,
		Nodes: []wire.Node{mr, user(1, "ada lovelace"), user(3, "cy")}, Edges: []wire.Edge{authored(3)},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.SomeInt(40)}}
	d, text := deltaOf(t, base, next)
	want := "graphwire_delta: 1\n" +
		"base: \"" + d.Base.String() + "\"\n" +
		"result: \"" + d.Result.String() + "\"\n" +
		"query_type: traversal\n" +
		"removed[1]{type,id}:\n  User,2\n" +
		"changed:\n  User[1]{id,name}:\n    1,ada lovelace\n" +
		"added_at[1]: 2\nadded:\n  User[1]{id,name}:\n    3,cy\n" +
		"edges_removed[1]{from,from_id,to,to_id,type}:\n  User,1,MergeRequest,7,AUTHORED\n" +
		"edges_added_at[1]: 0\nedges_added[1]{from,from_id,to,to_id,type}:\n  User,3,MergeRequest,7,AUTHORED\n" +
		"pagination:\n  has_more: true\n  total_rows: 40\n"
	if diff := cmp.Diff(want, text); diff != "" {
		t.Errorf("delta text (-want +got):\n%s", diff)
	}
	_, same := deltaOf(t, base, base)
	if want := "graphwire_delta: \"unchanged " + delta.Fingerprint(base).String() + "\"\n"; same != want {
		t.Errorf("unchanged: %q, want %q", same, want)
	}
	if got := toon.Default().Sniff([]byte(text)); got != 0 {
		t.Errorf("Sniff of a delta: %v, want 0", got)
	}
}

func TestDeltaRefusesWhatToonDoesNotCarry(t *testing.T) {
	base := &wire.GraphResponse{QueryType: wire.Search}
	next := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "User", ID: 1,
		Properties: []wire.Property{wire.Prop("score", wire.Float(1))}}}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	dst := []byte("keep")
	got, err := toon.Default().AppendDelta(dst, d)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || string(got) != "keep" {
		t.Fatalf("AppendDelta = %q, %v; want dst unchanged and an *wire.EncodeError", got, err)
	}
}

func TestDecodeDeltaErrors(t *testing.T) {
	h1, h2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	head := "graphwire_delta: 1\nbase: \"" + h1 + "\"\nresult: \"" + h2 + "\"\nquery_type: search\n"
	cases := []struct{ name, in, want string }{
		{"empty", "", "line 1: empty input"},
		{"a response", "format_version: \"\"\nquery_type: search\n", "expected a delta"},
		{"version", "graphwire_delta: 2\n", "unsupported delta version 2"},
		{"bad unchanged", "graphwire_delta: \"same " + h1 + "\"\n", "expected 1 or"},
		{"unchanged and more", "graphwire_delta: \"unchanged " + h1 + "\"\nbase: x\n", "line 2: base: a field after"},
		{"missing result", "graphwire_delta: 1\nbase: \"" + h1 + "\"\nquery_type: search\n", "has no result"},
		{"bad hash", "graphwire_delta: 1\nbase: \"sha256:zz\"\nresult: \"" + h2 + "\"\nquery_type: search\n", "line 2: base:"},
		{"equal hashes", "graphwire_delta: 1\nbase: \"" + h1 + "\"\nresult: \"" + h1 + "\"\nquery_type: search\n", "unchanged"},
		{"unknown field", head + "nodes:\n  User[1]{id}:\n    1\n", "line 5: nodes: unknown field"},
		{"out of order", head + "added_at[1]: 0\nadded:\n  User[1]{id}:\n    1\nremoved[1]{type,id}:\n  User,2\n", "line 9: removed: field out of order"},
		{"added without at", head + "added:\n  User[1]{id}:\n    1\n", "has no added_at"},
		{"at count", head + "added_at[2]: 0,1\nadded:\n  User[1]{id}:\n    1\n", "line 5: added_at: 2 positions, expected 1"},
		{"negative at", head + "added_at[1]: -1\nadded:\n  User[1]{id}:\n    1\n", "added_at[0]: expected a position"},
		{"bad node", head + "changed:\n  User[1]{id}:\n    x\n", "line 7: changed.User[0].id"},
		{"removed without id", head + "removed[1]{type}:\n  User\n", "missing id"},
		{"moved without at", head + "moved[1]{type,id}:\n  User,1\n", "missing at"},
		{"bad edge", head + "edges_added_at[1]: 0\nedges_added[1]{from,from_id,to}:\n  User,1,B\n", "missing to_id"},
		{"edge extras alone", head + "edges_moved_at[1]: 0\n", "without edges_moved"},
		{"rows at without rows", head + "rows_added_at[1]: 0\n", "without rows_added"},
		{"empty section", head + "removed[0]:\n", "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := toon.Default().DecodeDelta([]byte(c.in))
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("DecodeDelta = %+v, %v; want a *wire.DecodeError", d, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestDecodeDeltaLimits(t *testing.T) {
	c, err := toon.New(toon.Options{Limits: wire.Limits{MaxElements: 2}})
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	in := "graphwire_delta: 1\nbase: \"" + h1 + "\"\nresult: \"" + h2 + "\"\nquery_type: search\nremoved[3]{type,id}:\n  User,1\n  User,2\n  User,3\n"
	if _, err = c.DecodeDelta([]byte(in)); !errors.Is(err, wire.ErrLimit) {
		t.Errorf("three removed nodes under MaxElements 2: %v, want a limit error", err)
	}
	c, _ = toon.New(toon.Options{Limits: wire.Limits{MaxInputBytes: 10}})
	if _, err := c.DecodeDelta([]byte(in)); !errors.Is(err, wire.ErrLimit) {
		t.Errorf("past MaxInputBytes: %v, want a limit error", err)
	}
}
