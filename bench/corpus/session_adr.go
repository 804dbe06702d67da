package corpus

import (
	"fmt"
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// Step is one query of ADRSession: a new query, or a re-query of an
// earlier one after the data changed.
type Step struct {
	Label    string
	Response *wire.GraphResponse
	// Of is the index of the step whose response this one re-queries, the
	// base of a delta; -1 for a new query.
	Of int
	// Changed is the percentage of Of's nodes that changed (0 for a new
	// query).
	Changed int
}

// ADRSession turns ADR 012's example (the ADRCase response r, of any
// profile) into a 10-query session over its 50 users and 200 merge
// requests, a pure function of r and Seed:
//
//  0. the ADR traversal itself;
//  1. traversal: the merge requests of 5 users (users 0–4);
//  2. search: the opened merge requests;
//  3. re-query of 0 after 1% of its nodes changed;
//  4. neighbors of user 5: its merge requests;
//  5. traversal: the merge requests of 10 users (users 10–19);
//  6. re-query of 1 after 5% changed;
//  7. search: the merged merge requests;
//  8. re-query of 3 (the latest answer to 0) after 5% changed;
//  9. re-query of 2 after 20% changed.
//
// The subsets keep r's nodes and edges as they are, in r's order; the
// changes are those of Sessions. It fails when r does not hold 20 users.
func ADRSession(r *wire.GraphResponse) ([]Step, error) {
	var users []wire.Node
	for _, n := range r.Nodes {
		if n.Type == User {
			users = append(users, n)
		}
	}
	if len(users) < 20 {
		return nil, fmt.Errorf("corpus: the ADR session needs 20 users, the response holds %d", len(users))
	}
	seed := newRNG(Seed).fork("adr-session")
	steps := make([]Step, 0, 10)
	add := func(label string, resp *wire.GraphResponse) {
		steps = append(steps, Step{Label: label, Response: resp, Of: -1})
	}
	again := func(of, pct int) {
		label := fmt.Sprintf("re-query of %d after %d%% changed", of, pct)
		resp := changed(steps[of].Response, pct, seed.fork(fmt.Sprint(len(steps))))
		steps = append(steps, Step{Label: label, Response: resp, Of: of, Changed: pct})
	}
	add("the ADR traversal: 50 users, 200 merge requests", r)
	add("traversal: the merge requests of 5 users", authoredBy(r, wire.Traversal, users[0:5]))
	add("search: the opened merge requests", inState(r, "opened"))
	again(0, 1)
	add("neighbors of one user: its merge requests", authoredBy(r, wire.Neighbors, users[5:6]))
	add("traversal: the merge requests of 10 users", authoredBy(r, wire.Traversal, users[10:20]))
	again(1, 5)
	add("search: the merged merge requests", inState(r, "merged"))
	again(3, 5)
	again(2, 20)
	return steps, nil
}

// authoredBy returns the part of r about users: the users, the nodes
// their AUTHORED edges reach, and those edges, in r's order, as a query of
// type q.
func authoredBy(r *wire.GraphResponse, q wire.QueryType, users []wire.Node) *wire.GraphResponse {
	type key struct {
		typ string
		id  int64
	}
	keep := map[key]bool{}
	for _, u := range users {
		keep[key{u.Type, u.ID}] = true
	}
	out := response(q)
	out.FormatVersion = r.FormatVersion
	for _, e := range r.Edges {
		if e.Type == Authored && keep[key{e.From, e.FromID}] {
			out.Edges = append(out.Edges, e)
			keep[key{e.To, e.ToID}] = true
		}
	}
	for _, n := range r.Nodes {
		if keep[key{n.Type, n.ID}] {
			out.Nodes = append(out.Nodes, n)
		}
	}
	return out
}

// inState returns r's merge requests in state s, as a search with a v2
// pagination.
func inState(r *wire.GraphResponse, s string) *wire.GraphResponse {
	out := response(wire.Search)
	out.FormatVersion = r.FormatVersion
	out.Nodes = slices.DeleteFunc(slices.Clone(r.Nodes), func(n wire.Node) bool {
		v, ok := n.Get("state")
		return n.Type != MergeRequest || !ok || v.Text() != s
	})
	out.Pagination = &wire.Pagination{HasMore: false, TotalRows: wire.Some[int64](int64(len(out.Nodes)))}
	return out
}
