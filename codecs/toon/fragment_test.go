package toon_test

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestFragmentContent: a delta's content leaves out the format_version
// and query_type it keeps from the base and its empty edges; an empty
// content writes "nodes:", told from no content. Each reads back as
// written and patches the base into the result.
func TestFragmentContent(t *testing.T) {
	c := toon.Default()
	base, next, later := docResponses()
	removed := wiretest.Clone(base)
	removed.Nodes, removed.Edges = removed.Nodes[1:], nil
	for _, tc := range []struct {
		name       string
		base, next *wire.GraphResponse
		content    string
	}{
		{"one node changed", base, next, "\nnodes:\n  User[1]{id,username}:\n    1007430,ada.lovelace"},
		{"nodes and an edge added", base, later, "\nnodes:\n  User[1]{id,username}:\n    1007431,grace\nedges[1]{from,from_id,to,to_id,type}:\n  User,1007431,MergeRequest,480003477,REVIEWED"},
		{"removals only", base, removed, "\nnodes:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, b := deltatest.Document(t, c, tc.base, tc.next)
			if !strings.HasSuffix(string(b), tc.content) || strings.Contains(string(b), "format_version") || strings.Contains(string(b), "query_type") {
				t.Errorf("the document\n%s\ndoes not end in the fragment%s", b, tc.content)
			}
			back, err := delta.DecodeDelta(c, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := delta.Patch(tc.base, back)
			if err != nil {
				t.Fatal(err)
			}
			if !wire.Equal(tc.next, got, wire.Exact) {
				t.Errorf("patched %+v, want %+v", got, tc.next)
			}
		})
	}
}

// TestFragmentOnlyUnderHeader: the omissions of a fragment are read only
// in a document with a header; the same text as a response is refused.
func TestFragmentOnlyUnderHeader(t *testing.T) {
	content := "nodes:\n  User[1]{id,name}:\n    1,a"
	h, r, err := toon.Default().DecodeDocument([]byte("nodes_changed[1]: 0\n" + content))
	if err != nil || len(h) != 1 || len(r.Nodes) != 1 || r.QueryType != "" || r.FormatVersion != "" {
		t.Fatalf("DecodeDocument: %v, %v, %v", h, r, err)
	}
	if _, err := toon.Decode([]byte(content)); err == nil || !strings.Contains(err.Error(), "missing format_version") {
		t.Fatalf("Decode of the fragment as a response: %v, want missing format_version", err)
	}
}
