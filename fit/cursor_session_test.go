package fit_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
)

// TestCursorWithinSessionOfInexactCodec: within a session, a codec that
// is not exact pages the response as its reader holds it (TOON writes
// 81.0 as 81), and the cursor of a page names a unit of that response: the
// next call, given the same response and the cursor, goes on from there.
func TestCursorWithinSessionOfInexactCodec(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}
	for i := range 40 {
		r.Nodes = append(r.Nodes, wire.Node{Type: "Project", ID: int64(i + 1), Properties: []wire.Property{
			wire.Prop("name", wire.String("project number "+string(rune('a'+i%26)))),
			wire.Prop("score", wire.Float(81.0)),
		}})
	}
	for _, codec := range []string{"toon", "gcf", "goon"} {
		t.Run(codec, func(t *testing.T) {
			sess, err := delta.NewSession(delta.SessionLimits{})
			if err != nil {
				t.Fatal(err)
			}
			seen, cursor := 0, ""
			for pages := 0; ; pages++ {
				res, err := fit.Page(r, fit.Options{Codec: codec, Budget: 200, Cursor: cursor, Session: sess})
				if err != nil {
					t.Fatalf("page %d: %v", pages+1, err)
				}
				seen += len(res.Page.Nodes)
				if !res.Stats.Truncated {
					break
				}
				if pages > 40 {
					t.Fatal("more pages than nodes")
				}
				cursor = res.Page.Pagination.NextCursor.V
			}
			if seen != len(r.Nodes) {
				t.Fatalf("the pages hold %d nodes, want %d", seen, len(r.Nodes))
			}
		})
	}
}
