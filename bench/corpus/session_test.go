package corpus

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
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
			if err := wirecodec.Validate(wire.DefaultRegistry(), q.Response); err != nil {
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

// checkChanged checks that next is base after pct% of its nodes (rows, in
// an aggregation) were picked, rounded, at least one, and churned as
// Sessions says: of the picks, one in four (the second of each four)
// removed with its edges, one in four (the fourth) edited and copied as a
// new node with copies of its edges, the rest edited; nothing else.
func checkChanged(t *testing.T, label string, base, next *wire.GraphResponse, pct int) {
	t.Helper()
	items := len(base.Nodes)
	if base.QueryType == wire.Aggregation {
		items = len(base.Rows)
	}
	if items == 0 {
		return
	}
	k := max(1, (items*pct+50)/100)
	wantRemoved, wantAdded := (k+2)/4, (k)/4
	if !cmp.Equal(base.Pagination, next.Pagination) {
		t.Errorf("%s at %d%%: pagination changed", label, pct)
	}
	if base.QueryType == wire.Aggregation {
		if got, want := len(next.Rows), len(base.Rows)-wantRemoved+wantAdded; got != want {
			t.Errorf("%s at %d%%: %d rows, want %d", label, pct, got, want)
		}
		return
	}
	old := map[key]wire.Node{}
	for _, n := range base.Nodes {
		old[key{n.Type, n.ID}] = n
	}
	now := map[key]bool{}
	added, edited := map[key]bool{}, 0
	for _, n := range next.Nodes {
		k := key{n.Type, n.ID}
		now[k] = true
		b, ok := old[k]
		switch {
		case !ok:
			added[k] = true
		case !wire.Equal(&wire.GraphResponse{Nodes: []wire.Node{b}}, &wire.GraphResponse{Nodes: []wire.Node{n}}, wire.Exact):
			edited++
		}
	}
	removed := map[key]bool{}
	for k := range old {
		if !now[k] {
			removed[k] = true
		}
	}
	if len(removed) != wantRemoved || len(added) != wantAdded || edited != k-wantRemoved {
		t.Errorf("%s at %d%%: %d removed, %d added, %d edited of %d; want %d, %d, %d", label, pct,
			len(removed), len(added), edited, items, wantRemoved, wantAdded, k-wantRemoved)
	}
	kept := 0
	for _, e := range next.Edges {
		from, to := key{e.From, e.FromID}, key{e.To, e.ToID}
		if removed[from] || removed[to] {
			t.Errorf("%s at %d%%: edge %v of a removed node", label, pct, e)
		}
		if !added[from] && !added[to] {
			kept++
		}
	}
	want := 0
	for _, e := range base.Edges {
		if !removed[key{e.From, e.FromID}] && !removed[key{e.To, e.ToID}] {
			want++
		}
	}
	if kept != want {
		t.Errorf("%s at %d%%: %d edges kept, want %d", label, pct, kept, want)
	}
}

func TestADRSession(t *testing.T) {
	for _, c := range generated() {
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
			if err := wirecodec.Validate(wire.DefaultRegistry(), s.Response); err != nil {
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
