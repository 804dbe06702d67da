package deltatest

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// OneNodeDelta returns the base and the delta of the re-query every
// codec's delta price is measured on: the corpus's lean/traversal_m in
// which one user's state changed (the first user with a string state,
// set to "blocked", or "active" when it is). read, when not nil, gives
// the base as the codec's reader holds it (a lossy codec's).
func OneNodeDelta(tb testing.TB, read func(*wire.GraphResponse) *wire.GraphResponse) (*wire.GraphResponse, *delta.Delta) {
	tb.Helper()
	c, ok := corpus.Find(corpus.Generate(), "lean/traversal_m")
	if !ok {
		tb.Fatal("the corpus has no lean/traversal_m")
	}
	base := c.Response
	if read != nil {
		base = read(base)
	}
	next := wiretest.Clone(base)
	changed := false
	for i := range next.Nodes {
		n := &next.Nodes[i]
		for j := range n.Properties {
			if p := &n.Properties[j]; !changed && n.Type == "User" && p.Key == "state" && p.Value.Kind() == wire.KindString {
				state := "blocked"
				if p.Value.Text() == state {
					state = "active"
				}
				p.Value, changed = wire.String(state), true
			}
		}
	}
	if !changed {
		tb.Fatal("no user of lean/traversal_m has a state to change")
	}
	d, err := delta.Diff(base, next)
	if err != nil {
		tb.Fatal(err)
	}
	if len(d.Changed) != 1 {
		tb.Fatalf("the delta changes %d nodes, want 1", len(d.Changed))
	}
	return base, d
}
