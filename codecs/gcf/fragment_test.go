package gcf_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// fragmentHeader is the header the fragment tests write their contents
// under.
var fragmentHeader = []delta.Field{{Name: delta.FieldNodesChanged, Ints: []int{0}}}

// TestFragmentContent: under a header, the content leaves out an empty
// format_version, query_type, nodes and edges, and reads back exactly as
// written; an empty content still writes its (empty) nodes.
func TestFragmentContent(t *testing.T) {
	node := wire.Node{Type: "User", ID: 7, Properties: []wire.Property{wire.Prop("name", wire.String("ada"))}}
	edge := wire.Edge{From: "User", FromID: 7, To: "User", ToID: 8, Type: "KNOWS"}
	for _, tc := range []struct {
		name string
		r    *wire.GraphResponse
		want string // the content's lines
	}{
		{"empty", &wire.GraphResponse{}, "## nodes [0]\n"},
		{"one node", &wire.GraphResponse{Nodes: []wire.Node{node}}, "## nodes [1]{type,id,name}\nUser|7|ada\n"},
		{"one edge", &wire.GraphResponse{Edges: []wire.Edge{edge}}, "## edges [1]{from,from_id,to,to_id,type}\nUser|7|User|8|KNOWS\n"},
		{"format version", &wire.GraphResponse{FormatVersion: "v2"}, "format_version=v2\n"},
		{"query type", &wire.GraphResponse{QueryType: wire.Search}, "query_type=search\n"},
		{"pagination", &wire.GraphResponse{Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.SomeInt(3)}},
			"## pagination\n  has_more=true\n  total_rows=3\n"},
		{"rows", &wire.GraphResponse{QueryType: wire.Aggregation, Columns: []wire.Column{}, Rows: []wire.Row{{{Name: "n", Value: wire.Int(2)}}}},
			"query_type=aggregation\n## columns [0]\n## rows [1]{n}\n2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gcf.Default()
			out, err := c.AppendDocument(nil, fragmentHeader, tc.r)
			if err != nil {
				t.Fatal(err)
			}
			want := "GCF profile=generic\nnodes_changed=0\n" + tc.want
			if string(out) != want {
				t.Fatalf("document:\n%s\nwant:\n%s", out, want)
			}
			h, r, err := c.DecodeDocument(out)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(fragmentHeader, h); d != "" {
				t.Errorf("header (-want +got):\n%s", d)
			}
			if r == nil {
				t.Fatal("no content")
			}
			if d := wiretest.Diff(tc.r, r, c.Info().Fidelity); d != "" {
				t.Errorf("content (-want +got):\n%s", d)
			}
		})
	}
}

// TestFragmentOnlyUnderHeader: a response (no header) still needs its
// format_version, query_type, nodes and edges, and a plain response is
// written whole even when they are empty; under a header, a query type
// that is written must be a valid one.
func TestFragmentOnlyUnderHeader(t *testing.T) {
	c := gcf.Default()
	out, err := c.AppendDocument(nil, nil, &wire.GraphResponse{QueryType: wire.Traversal})
	if err != nil {
		t.Fatal(err)
	}
	if want := "GCF profile=generic\nformat_version=\"\"\nquery_type=traversal\n## nodes [0]\n## edges [0]\n"; string(out) != want {
		t.Errorf("plain response:\n%s\nwant:\n%s", out, want)
	}
	if _, err := c.AppendEncode(nil, &wire.GraphResponse{}); err == nil {
		t.Error("AppendEncode wrote a response without a query type")
	}
	for _, in := range []string{
		"GCF profile=generic\n## nodes [0]\n",
		"GCF profile=generic\nquery_type=traversal\n## nodes [0]\n## edges [0]\n",
		"GCF profile=generic\nformat_version=1\n## nodes [0]\n## edges [0]\n",
		"GCF profile=generic\nformat_version=1\nquery_type=traversal\n## edges [0]\n",
		"GCF profile=generic\nformat_version=1\nquery_type=traversal\n## nodes [0]\n",
		"GCF profile=generic\n\nformat_version=1\n\nquery_type=traversal\n## nodes [0]\n", // the generic path
		"GCF profile=generic\nnodes_changed=0\nquery_type=nope\n",
		"GCF profile=generic\nnodes_changed=0\n\nquery_type=nope\n",
	} {
		_, r, err := c.DecodeDocument([]byte(in))
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%q: read %+v, %v; want a *wire.DecodeError", in, r, err)
		}
	}
	// Blank lines take the same text to the same content.
	_, r, err := c.DecodeDocument([]byte("GCF profile=generic\nnodes_changed=0\n\nquery_type=search\n\n## nodes [0]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := wiretest.Diff(&wire.GraphResponse{QueryType: wire.Search}, r, wire.NumbersByValue); d != "" {
		t.Errorf("content (-want +got):\n%s", d)
	}
	if _, err := c.AppendDocument(nil, fragmentHeader, &wire.GraphResponse{QueryType: "nope"}); err == nil || !strings.Contains(err.Error(), "query type") {
		t.Errorf("a fragment of query type nope: %v", err)
	}
}
