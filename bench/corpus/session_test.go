package corpus

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// sessionJSON is every response of the sessions as canonical JSON.
func sessionJSON(t *testing.T, ss []Session) []string {
	t.Helper()
	var out []string
	for _, s := range ss {
		for _, q := range s.Queries {
			for _, r := range append([]*wire.GraphResponse{q.Response}, q.Requeries...) {
				b, err := cjson.Encode(r)
				if err != nil {
					t.Fatalf("%s: %s: %v", s.ID(), q.Label, err)
				}
				out = append(out, string(b))
			}
		}
	}
	return out
}

func TestSessionsDeterministic(t *testing.T) {
	a, b := sessionJSON(t, Sessions()), sessionJSON(t, Sessions())
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("two calls of Sessions differ (-first +second):\n%.2000s", diff)
	}
}

type key struct {
	typ string
	id  int64
}

func TestSessionsShape(t *testing.T) {
	ss := Sessions()
	if len(ss) != len(Profiles())*SessionCount {
		t.Fatalf("%d sessions, want %d", len(ss), len(Profiles())*SessionCount)
	}
	kinds := map[wire.QueryType]int{}
	for i, s := range ss {
		if want := Profiles()[i/SessionCount]; s.Profile != want {
			t.Fatalf("session %d: profile %q, want %q", i, s.Profile, want)
		}
		if n := len(s.Queries); n < 5 || n > 10 {
			t.Errorf("%s: %d queries, want 5 to 10", s.ID(), n)
		}
		seen := map[key]int{} // queries that return each node
		for _, q := range s.Queries {
			kinds[q.Response.QueryType]++
			if err := wire.Validate(q.Response); err != nil {
				t.Errorf("%s: %s: %v", s.ID(), q.Label, err)
			}
			here := map[key]bool{}
			for _, n := range q.Response.Nodes {
				here[key{n.Type, n.ID}] = true
			}
			for k := range here {
				seen[k]++
			}
			if len(q.Requeries) != len(RequeryRates) {
				t.Fatalf("%s: %d re-queries", s.ID(), len(q.Requeries))
			}
			for i, pct := range RequeryRates {
				checkChanged(t, s.ID()+": "+q.Label, q.Response, q.Requeries[i], pct)
			}
		}
		shared := 0
		for _, n := range seen {
			if n > 1 {
				shared++
			}
		}
		if shared == 0 {
			t.Errorf("%s: no entity is returned by two queries", s.ID())
		}
	}
	for _, q := range []wire.QueryType{wire.Traversal, wire.Search, wire.Neighbors, wire.PathFinding, wire.Aggregation} {
		if kinds[q] == 0 {
			t.Errorf("no %s query in any session", q)
		}
	}
}

// checkChanged checks that next is base with pct% of its nodes (rows, in
// an aggregation) changed, rounded, at least one, and nothing else.
func checkChanged(t *testing.T, label string, base, next *wire.GraphResponse, pct int) {
	t.Helper()
	if len(base.Nodes) != len(next.Nodes) || len(base.Rows) != len(next.Rows) ||
		!cmp.Equal(base.Edges, next.Edges) || !cmp.Equal(base.Pagination, next.Pagination) {
		t.Errorf("%s at %d%%: more than node contents changed", label, pct)
		return
	}
	items, diff := len(base.Nodes), 0
	for i := range base.Nodes {
		b, n := base.Nodes[i], next.Nodes[i]
		if b.Type != n.Type || b.ID != n.ID {
			t.Errorf("%s at %d%%: node %d is another node", label, pct, i)
		}
		if !wire.Equal(&wire.GraphResponse{Nodes: []wire.Node{b}}, &wire.GraphResponse{Nodes: []wire.Node{n}}, wire.Exact) {
			diff++
		}
	}
	if base.QueryType == wire.Aggregation {
		items = len(base.Rows)
		for i := range base.Rows {
			if !wire.Equal(&wire.GraphResponse{Rows: []wire.Row{base.Rows[i]}}, &wire.GraphResponse{Rows: []wire.Row{next.Rows[i]}}, wire.Exact) {
				diff++
			}
		}
	}
	if want := max(1, (items*pct+50)/100); items > 0 && diff != want {
		t.Errorf("%s at %d%%: %d of %d changed, want %d", label, pct, diff, items, want)
	}
}

func TestADRSession(t *testing.T) {
	for _, c := range Generate() {
		if c.Name != ADRCase {
			continue
		}
		steps, err := ADRSession(c.Response)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ADRSession(c.Response)
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) != 10 {
			t.Fatalf("%s: %d steps, want 10", c.ID(), len(steps))
		}
		for i, s := range steps {
			if err := wire.Validate(s.Response); err != nil {
				t.Errorf("%s: step %d: %v", c.ID(), i, err)
			}
			if !wire.Equal(s.Response, again[i].Response, wire.Exact) {
				t.Errorf("%s: step %d differs between two calls", c.ID(), i)
			}
			if len(s.Response.Nodes) == 0 {
				t.Errorf("%s: step %d (%s) is empty", c.ID(), i, s.Label)
			}
			if s.Of >= 0 {
				if s.Of >= i {
					t.Errorf("%s: step %d re-queries step %d", c.ID(), i, s.Of)
				}
				checkChanged(t, c.ID()+": "+s.Label, steps[s.Of].Response, s.Response, s.Changed)
			}
		}
		if !wire.Equal(steps[0].Response, c.Response, wire.Exact) {
			t.Errorf("%s: the first step is not the ADR case", c.ID())
		}
	}
	if _, err := ADRSession(&wire.GraphResponse{}); err == nil {
		t.Error("ADRSession of an empty response: no error")
	}
}
