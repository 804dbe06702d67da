package goon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// asRead is r as a GOON client holds it: Decode(Encode(r)).
func asRead(r *wire.GraphResponse) (*wire.GraphResponse, error) {
	b, err := goon.Encode(r)
	if err != nil {
		return nil, err
	}
	return goon.Decode(b)
}

func TestDelta(t *testing.T) {
	c := goon.Default()
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
	b, err := goon.Default().AppendDelta(nil, d)
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
	want := "@delta\n" +
		"base:" + d.Base.String() + "\n" +
		"result:" + d.Result.String() + "\n" +
		"query_type:traversal\n" +
		"@removed\nUser(1):\n2\n" +
		"@changed\nUser(1):\n1 name=\"ada lovelace\"\n" +
		"@added\nUser(1):\nat=2 3 name=cy\n" +
		"@edges_removed\nAUTHORED(1):\nUser:1 --> MergeRequest:7\n" +
		"@edges_added\nAUTHORED(1):\nat=0 User:3 --> MergeRequest:7\n" +
		"@content pagination\n" +
		`{"format_version":"","query_type":"traversal","nodes":[],"edges":[],"pagination":{"has_more":true,"total_rows":40}}` + "\n"
	if diff := cmp.Diff(want, text); diff != "" {
		t.Errorf("delta text (-want +got):\n%s", diff)
	}
	_, same := deltaOf(t, base, base)
	if want := "@delta unchanged " + delta.Fingerprint(base).String() + "\n"; same != want {
		t.Errorf("unchanged: %q, want %q", same, want)
	}
}

func TestDeltaRefusesWhatGOONDoesNotCarry(t *testing.T) {
	base := &wire.GraphResponse{QueryType: wire.Search}
	next := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "User", ID: 1,
		Properties: []wire.Property{wire.Prop("name", wire.String("42"))}}}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	dst := []byte("keep")
	got, err := goon.Default().AppendDelta(dst, d)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || string(got) != "keep" {
		t.Fatalf("AppendDelta = %q, %v; want dst unchanged and an *wire.EncodeError", got, err)
	}
}

func TestDecodeDeltaErrors(t *testing.T) {
	h1, h2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	head := "@delta\nbase:" + h1 + "\nresult:" + h2 + "\nquery_type:search\n"
	cases := []struct{ name, in, want string }{
		{"empty", "", "line 1: empty input"},
		{"a response", "@header\nquery_type:search\n", "line 1: expected @delta"},
		{"no final newline", head + "@removed\nUser(1):\n2", "line 7: the last line does not end"},
		{"missing result", "@delta\nbase:" + h1 + "\nquery_type:search\n", "line 3: expected result:"},
		{"bad hash", "@delta\nbase:sha256:zz\nresult:" + h2 + "\nquery_type:search\n", "line 2: base:"},
		{"equal hashes", "@delta\nbase:" + h1 + "\nresult:" + h1 + "\nquery_type:search\n", "@delta unchanged"},
		{"unchanged and more", "@delta unchanged " + h1 + "\n@removed\n", "line 2: a line after"},
		{"unknown section", head + "@nodes\n", "line 5: unknown section"},
		{"out of order", head + "@added\nUser(1):\nat=0 1\n@removed\nUser(1):\n1\n", `line 8: section "@removed" out of order`},
		{"empty section", head + "@removed\n@added\nUser(1):\nat=0 1\n", "line 5: @removed is empty"},
		{"moved without at", head + "@moved\nUser(1):\n1\n", "line 7: @moved: expected at=POSITION"},
		{"at where nothing is placed", head + "@removed\nUser(1):\nat=1 1\n", "line 7: @removed: at= has no place"},
		{"n=0", head + "@removed\nUser(1):\nn=0 1\n", "line 7: @removed: expected n=N (1 to"},
		{"removed with properties", head + "@removed\nUser(1):\n1 name=x\n", "line 7: @removed: expected a node id"},
		{"bad node row", head + "@added\nUser(1):\nat=0 x\n", "line 7: bad id"},
		{"group too short", head + "@added\nUser(2):\nat=0 1\n", "ends after 1"},
		{"bad edge", head + "@edges_added\nR(1):\nat=0 User:1 -> B:2\n", "line 7: expected \" --> \""},
		{"rows out of order", head + "@rows\nadded_at:1\nremoved:0\n", "line 7: @rows: expected removed:"},
		{"rows added without content", head + "@rows\nadded_at:1\n", "no @content holds them"},
		{"bad content", head + "@content\n{\"format_version\":\"\",\"query_type\":\"search\",\"nodes\":[}\n", "line 6, column"},
		{"content set not named", head + "@content\n{\"format_version\":\"\",\"query_type\":\"search\",\"nodes\":[],\"edges\":[],\"columns\":[]}\n", "does not name as set"},
		{"content of another query type", head + "@content\n{\"format_version\":\"\",\"query_type\":\"aggregation\",\"nodes\":[],\"edges\":[]}\n", "but the header says search"},
		{"line after content", head + "@content\n{\"format_version\":\"\",\"query_type\":\"search\",\"nodes\":[],\"edges\":[]}\nx\n", "line 7: a line after"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := goon.Default().DecodeDelta([]byte(c.in))
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
	c, err := goon.New(goon.Options{Limits: wire.Limits{MaxElements: 2}})
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	in := "@delta\nbase:" + h1 + "\nresult:" + h2 + "\nquery_type:search\n@removed\nUser(3):\n1\n2\n3\n"
	_, err = c.DecodeDelta([]byte(in))
	if !errors.Is(err, wire.ErrLimit) || !strings.Contains(err.Error(), "line 9") {
		t.Errorf("three removed nodes under MaxElements 2: %v, want a limit error at line 9", err)
	}
	c, _ = goon.New(goon.Options{Limits: wire.Limits{MaxInputBytes: 10}})
	if _, err := c.DecodeDelta([]byte(in)); !errors.Is(err, wire.ErrLimit) {
		t.Errorf("past MaxInputBytes: %v, want a limit error", err)
	}
}
