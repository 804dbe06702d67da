package goon_test

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestFragmentLayouts: a delta's content that keeps the base's query type
// has none, and GOON writes it in the layout its content shows: an
// aggregation's (rows: and the columns in the header, nodes in server
// order), path_finding's (@paths) and a traversal's; an empty section is
// left out, but an empty content writes @nodes, told from no content.
// Each reads back as written and patches the base into the result.
func TestFragmentLayouts(t *testing.T) {
	c := goon.Default()
	user := func(id int64, name string) wire.Node { return node("User", id, P("name", S(name))) }
	agg := &wire.GraphResponse{QueryType: wire.Aggregation,
		Nodes:        nodes(user(2, "b"), user(1, "a")),
		GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode}},
		Columns:      []wire.Column{{Name: "n", Function: "count"}},
		Rows:         []wire.Row{{{Name: "u", Node: &wire.Node{Type: "User", ID: 1}}, {Name: "n", Value: wire.Int(3)}}}}
	aggNext := wiretest.Clone(agg)
	aggNext.Rows = append(aggNext.Rows, wire.Row{{Name: "u", Node: &wire.Node{Type: "User", ID: 2}}, {Name: "n", Value: wire.Int(1)}})
	path := resp(wire.PathFinding, nodes(user(1, "a"), user(2, "b")),
		wire.Edge{From: "User", FromID: 1, To: "User", ToID: 2, Type: "KNOWS", PathID: wire.Some[int64](0), Step: wire.Some[int64](0)})
	pathNext := wiretest.Clone(path)
	pathNext.Edges = append(pathNext.Edges, wire.Edge{From: "User", FromID: 2, To: "User", ToID: 1, Type: "KNOWS", PathID: wire.Some[int64](1), Step: wire.Some[int64](0)})
	trav := resp(wire.Traversal, nodes(user(1, "a"), user(2, "b")))
	travNext := resp(wire.Traversal, nodes(user(1, "a")))
	for _, tc := range []struct {
		name       string
		base, next *wire.GraphResponse
		content    string // the text after the document's fields
	}{
		{"aggregation", agg, aggNext, "rows:1\ngroup_by:u(node)\naggregations:n(count)\n@nodes\nUser(1):\n2\n@rows\nu=User:2 n=1\n"},
		{"path_finding", path, pathNext, "@paths\npath=1: User:2 --KNOWS--> User:1\n"},
		{"empty", trav, travNext, "@nodes\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, next := asRead(t, tc.base), asRead(t, tc.next)
			d, err := delta.Diff(base, next)
			if err != nil {
				t.Fatal(err)
			}
			if d.Content.QueryType != "" {
				t.Fatalf("the content has query type %q", d.Content.QueryType)
			}
			b, err := delta.AppendDelta(c, nil, d)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(b), "\n"+tc.content) || strings.Contains(string(b), "query_type:") || strings.Contains(string(b), "goon_version:") {
				t.Errorf("the document\n%s\ndoes not end in the fragment\n%s", b, tc.content)
			}
			back, err := delta.DecodeDelta(c, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := delta.Patch(base, back)
			if err != nil {
				t.Fatal(err)
			}
			if !wire.Equal(next, got, wire.Exact) {
				t.Errorf("patched %+v, want %+v", got, next)
			}
		})
	}
}

// TestFragmentOnlyUnderHeader: the omissions of a fragment are read only
// in a document with a header; the same text as a response is refused.
func TestFragmentOnlyUnderHeader(t *testing.T) {
	content := "@nodes\nUser(1):\n1 name=a\n"
	h, r, err := goon.Default().DecodeDocument([]byte("@header\nnodes_changed:0\n" + content))
	if err != nil || len(h) != 1 || len(r.Nodes) != 1 || r.QueryType != "" {
		t.Fatalf("DecodeDocument: %v, %v, %v", h, r, err)
	}
	_, err = goon.Decode([]byte("@header\n" + content))
	wiretest.WantDecodeError(t, err, "goon", 2, "header has no query_type field", "")
}
