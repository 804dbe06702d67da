package corpus

import (
	"fmt"
	"math"
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// SessionCount is the number of simulated agent sessions Sessions
// generates in each profile.
const SessionCount = 16

// RequeryRates are the change rates of the re-queries, in percent of a
// response's nodes (of its rows, for an aggregation): 1%, 5%, 20% and
// 50%.
var RequeryRates = []int{1, 5, 20, 50}

// Session is a simulated agent session: 5 to 10 queries of mixed types
// over one universe of entities, so that later queries return entities
// earlier ones did (ADR 012 puts a session at 5–10 graph queries).
type Session struct {
	Profile string
	Name    string // session_00, session_01, ...
	Queries []Query
}

// ID is the session's name qualified by its profile: "lean/session_00".
func (s Session) ID() string { return s.Profile + "/" + s.Name }

// Query is one query of a session: what the agent asked, the response,
// and the same query asked again after the data changed.
type Query struct {
	// Label says what was asked: "traversal: authors of merge requests in
	// gitlab-org/gitaly".
	Label    string
	Response *wire.GraphResponse
	// Requeries[i] is Response after RequeryRates[i]% of its nodes (rows,
	// for an aggregation) changed, as the same query returns it later.
	Requeries []*wire.GraphResponse
}

// Sessions returns the simulated agent sessions of every profile, in
// Profiles order, SessionCount each: a pure function of Seed. Session i
// draws its universe and its queries from its own stream (derived from
// the seed and "session/i"), the same in every profile, so the profiles
// hold the same sessions with different properties, as the cases do.
//
// A session's universe is a group with two subgroups, 3–5 projects, 20–40
// users, 40–100 merge requests, 20–50 issues, 10–30 pipelines and 5–20
// vulnerabilities, each with the full property set, and the relations
// between them (a merge request's author and project, an issue's,
// pipeline's and vulnerability's project, the pipeline that detected a
// vulnerability). The agent works on one project at a time, moving to
// another with a chance of one in three per query, and asks 5–10 queries,
// each drawn from:
//
//   - traversal (weight 3): the authors of a project's merge requests,
//     with the merge requests and the project; the few properties a
//     traversal selects (AUTHORED and IN_PROJECT edges);
//   - search (2): up to 25 of a project's merge requests and issues, every
//     property, with the v2 pagination of a search;
//   - neighbors (2): everything one hop from a project (authors as
//     members, merge requests, issues, pipelines, vulnerabilities), every
//     property, at most 60, with a v5 cursor when cut;
//   - path_finding (1): paths from a user through its merge requests and
//     their projects to the projects' groups, the few properties;
//   - aggregation (1): merge requests per author in a project, the author
//     as a node cell, with a count and the latest creation time.
//
// A traversal and a search return one entity with different property
// sets (as GKG does), so a reference across them is not possible; queries
// of one kind, and every query in the lean profile, share entities whole.
//
// Every query comes with its re-queries (Query.Requeries): the response
// after RequeryRates[i]% of its nodes changed, rounded, and at least one.
// The nodes are chosen at random (from a stream of their own, the same in
// every profile), and of them, in response order, one in four is removed
// with its edges, one in four is edited and gains a sibling — a new node
// of its type, edited the same way, with the next free id, after the
// response's last node, and with a copy of each of its edges — and the
// rest are edited (churn). An edited node moves its state or status to the
// next in a fixed cycle (opened → merged → closed → opened, success →
// failed → success, ...) or, without one, gets " (edited)" after its first
// string property; its updated_at, last_activity_at and last_activity_on,
// when present, move to the corpus's "now". In an aggregation the rows
// are removed, edited and added alike; an edited row's first integer cell
// grows by one.
func Sessions() []Session {
	root := newRNG(Seed)
	var out []Session
	for _, p := range Profiles() {
		for i := range SessionCount {
			name := fmt.Sprintf("session_%02d", i)
			s := Session{Profile: p, Name: name}
			r := root.fork("session/" + name)
			u := newUniverse(newBuilder(r))
			k := r.between(5, 10)
			focus := r.intn(len(u.projects))
			for q := range k {
				if q > 0 && r.chance(33) {
					focus = r.intn(len(u.projects))
				}
				label, resp := u.query(focus)
				project(p, resp)
				s.Queries = append(s.Queries, Query{
					Label:     label,
					Response:  resp,
					Requeries: requeries(resp, root.fork(fmt.Sprintf("requery/%s/%d", name, q))),
				})
			}
			out = append(out, s)
		}
	}
	return out
}

// requeries returns r after each of RequeryRates, every one drawn from r
// with a stream of its own.
func requeries(r *wire.GraphResponse, seed *rng) []*wire.GraphResponse {
	out := make([]*wire.GraphResponse, len(RequeryRates))
	for i, pct := range RequeryRates {
		out[i] = changed(r, pct, seed.fork(fmt.Sprint(pct)))
	}
	return out
}

// changed returns a copy of r after pct% of its nodes (of its rows, for
// an aggregation) changed, as Sessions describes; r is not modified.
func changed(r *wire.GraphResponse, pct int, seed *rng) *wire.GraphResponse {
	next := *r
	if r.QueryType == wire.Aggregation && len(r.Rows) > 0 {
		var rows []wire.Row
		var added []wire.Row
		picked := churn(seed, len(r.Rows), pct)
		for i, row := range r.Rows {
			switch picked[i] {
			case churnRemove:
				continue
			case churnEdit, churnAdd:
				row = changedRow(row)
				if picked[i] == churnAdd {
					added = append(added, changedRow(row))
				}
			}
			rows = append(rows, row)
		}
		next.Rows = append(rows, added...)
		return &next
	}
	next.Rows = slices.Clone(r.Rows)
	picked := churn(seed, len(r.Nodes), pct)
	type ref struct {
		typ string
		id  int64
	}
	removed := map[ref]bool{}
	spawned := map[ref]int64{} // a template node → the id of the node added after it
	var nextID int64
	for _, n := range r.Nodes {
		nextID = max(nextID, n.ID)
	}
	var nodes, added []wire.Node
	for i, n := range r.Nodes {
		switch picked[i] {
		case churnRemove:
			removed[ref{n.Type, n.ID}] = true
			continue
		case churnEdit:
			n = changedNode(n)
		case churnAdd:
			n = changedNode(n)
			if nextID < math.MaxInt64 {
				nextID++
				fresh := n
				fresh.Properties = slices.Clone(n.Properties)
				fresh.ID = nextID
				added = append(added, fresh)
				spawned[ref{n.Type, n.ID}] = nextID
			}
		}
		nodes = append(nodes, n)
	}
	next.Nodes = append(nodes, added...)
	var edges, copies []wire.Edge
	for _, e := range r.Edges {
		if removed[ref{e.From, e.FromID}] || removed[ref{e.To, e.ToID}] {
			continue
		}
		edges = append(edges, e)
		if id, ok := spawned[ref{e.From, e.FromID}]; ok {
			c := e
			c.FromID = id
			copies = append(copies, c)
		} else if id, ok := spawned[ref{e.To, e.ToID}]; ok {
			c := e
			c.ToID = id
			copies = append(copies, c)
		}
	}
	next.Edges = append(edges, copies...)
	return &next
}

// What a re-query does to a node (a row) it picks.
const (
	churnNone = iota
	churnEdit
	churnRemove
	churnAdd
)

// churn picks pct% of n positions (see choose) and says what happens to
// each: of the positions picked, in ascending order, the second of every
// four is removed and the fourth is edited and gains a new sibling (a node
// added after the response's last, with the edges of the one it copies);
// the others are edited. So one change in four removes and one in four
// adds, and a response with one change is edited.
func churn(r *rng, n, pct int) []int {
	out := make([]int, n)
	for j, i := range choose(r, n, pct) {
		switch j % 4 {
		case 1:
			out[i] = churnRemove
		case 3:
			out[i] = churnAdd
		default:
			out[i] = churnEdit
		}
	}
	return out
}

// changedRow returns row with its first integer cell grown by one.
func changedRow(row wire.Row) wire.Row {
	row = slices.Clone(row)
	for j, c := range row {
		if c.Node == nil && c.Value.Kind() == wire.KindInt {
			row[j].Value = wire.Int(c.Value.Int() + 1)
			break
		}
	}
	return row
}

// choose returns pct% of n positions (rounded half up, at least one when
// n > 0), at random, ascending.
func choose(r *rng, n, pct int) []int {
	if n == 0 {
		return nil
	}
	k := max(1, (n*pct+50)/100)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := 0; i < k; i++ { // a partial Fisher–Yates shuffle
		j := i + r.intn(n-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	out := idx[:k]
	slices.Sort(out)
	return out
}

// nextState is the state a changed node moves to.
var nextState = map[string]string{
	"opened": "merged", "merged": "closed", "closed": "opened", "locked": "opened",
	"active": "blocked", "blocked": "active", "deactivated": "active",
	"success": "failed", "failed": "success", "running": "success", "canceled": "running",
	"skipped": "running", "manual": "running",
	"detected": "confirmed", "confirmed": "resolved", "resolved": "detected", "dismissed": "detected",
}

// changedNode returns n as it reads after a change (see Sessions).
func changedNode(n wire.Node) wire.Node {
	n.Properties = slices.Clone(n.Properties)
	done := false
	for i, p := range n.Properties {
		if (p.Key == "state" || p.Key == "status") && p.Value.Kind() == wire.KindString {
			if s, ok := nextState[p.Value.Text()]; ok {
				n.Properties[i].Value = wire.String(s)
				done = true
				break
			}
		}
	}
	for i, p := range n.Properties {
		if done {
			break
		}
		if p.Value.Kind() == wire.KindString {
			n.Properties[i].Value = wire.String(p.Value.Text() + " (edited)")
			done = true
		}
	}
	if !done {
		n.Properties = append(n.Properties, wire.Prop("edited", wire.Bool(true)))
	}
	now := epoch.Format("2006-01-02 15:04:05")
	for i, p := range n.Properties {
		switch p.Key {
		case "updated_at", "last_activity_at":
			n.Properties[i].Value = wire.String(now)
		case "last_activity_on":
			n.Properties[i].Value = wire.String(epoch.Format("2006-01-02"))
		}
	}
	return n
}

// universe is the entities of one session, with every property, and
// their relations.
type universe struct {
	b                  *builder
	groups             []wire.Node
	projects           []wire.Node
	projectGroup       []int
	users              []wire.Node
	mrs, issues, pipes []wire.Node
	vulns              []wire.Node
	mrAuthor           []int
	mrProject          []int
	issueProject       []int
	pipeProject        []int
	vulnProject        []int
	vulnPipe           []int // -1: no pipeline of its project
}

func newUniverse(b *builder) *universe {
	r := b.r
	u := &universe{b: b}
	top := b.group(full, "")
	u.groups = []wire.Node{top}
	topPath, _ := fullPath(top)
	for range 2 {
		u.groups = append(u.groups, b.group(full, topPath))
	}
	for range r.between(3, 5) {
		g := r.intn(len(u.groups))
		path, _ := fullPath(u.groups[g])
		u.projects = append(u.projects, b.project(full, path))
		u.projectGroup = append(u.projectGroup, g)
	}
	for range r.between(20, 40) {
		u.users = append(u.users, b.user(full))
	}
	for range r.between(40, 100) {
		u.mrs = append(u.mrs, b.mergeRequest(full))
		u.mrAuthor = append(u.mrAuthor, r.intn(len(u.users)))
		u.mrProject = append(u.mrProject, r.intn(len(u.projects)))
	}
	for range r.between(20, 50) {
		u.issues = append(u.issues, b.issue(full))
		u.issueProject = append(u.issueProject, r.intn(len(u.projects)))
	}
	for range r.between(10, 30) {
		u.pipes = append(u.pipes, b.pipeline(full))
		u.pipeProject = append(u.pipeProject, r.intn(len(u.projects)))
	}
	for range r.between(5, 20) {
		p := r.intn(len(u.projects))
		u.vulns = append(u.vulns, b.vulnerability(full))
		u.vulnProject = append(u.vulnProject, p)
		pipe := -1
		if ps := of(u.pipeProject, p); len(ps) > 0 {
			pipe = pick(r, ps)
		}
		u.vulnPipe = append(u.vulnPipe, pipe)
	}
	return u
}

// of returns the indexes i with owner[i] == x, ascending.
func of(owner []int, x int) []int {
	var out []int
	for i, o := range owner {
		if o == x {
			out = append(out, i)
		}
	}
	return out
}

// summaryKeys are the properties a traversal selects of each type: what
// the builder writes at summary detail.
var summaryKeys = map[string][]string{
	User:          {"username", "name", "state"},
	Group:         {"name", "full_path"},
	Project:       {"name", "full_path"},
	MergeRequest:  {"iid", "title", "state", "created_at", "merged_at"},
	Issue:         {"iid", "title", "state", "created_at"},
	Pipeline:      {"iid", "status", "ref", "sha", "created_at"},
	Vulnerability: {"uuid", "title", "severity", "state"},
}

// at returns n with the properties of detail d: its own (full), or a copy
// with the summary keys only.
func at(n wire.Node, d detail) wire.Node {
	if d == full {
		return n
	}
	n.Properties = keep(slices.Clone(n.Properties), summaryKeys[n.Type]...)
	return n
}

// query draws one query about project p: a label and the response.
func (u *universe) query(p int) (string, *wire.GraphResponse) {
	name, _ := fullPath(u.projects[p])
	switch k := u.b.r.intn(9); {
	case k < 3:
		return "traversal: authors of merge requests in " + name, u.authors(p)
	case k < 5:
		return "search: merge requests and issues in " + name, u.search(p)
	case k < 7:
		return "neighbors of " + name, u.neighbors(p)
	case k < 8:
		user := u.mrAuthor[pick(u.b.r, u.mrsOf(p))]
		v, _ := u.users[user].Get("username")
		return "path_finding: from " + v.Text() + " to the groups of its projects", u.paths(user)
	default:
		return "aggregation: merge requests per author in " + name, u.perAuthor(p)
	}
}

// mrsOf returns the merge requests of project p, or every one when it
// has none.
func (u *universe) mrsOf(p int) []int {
	if ms := of(u.mrProject, p); len(ms) > 0 {
		return ms
	}
	ms := make([]int, len(u.mrs))
	for i := range ms {
		ms[i] = i
	}
	return ms
}

// authors: a traversal of the authors of p's merge requests, the merge
// requests and p, the few properties a traversal selects.
func (u *universe) authors(p int) *wire.GraphResponse {
	r := response(wire.Traversal)
	ms := of(u.mrProject, p)
	seen := map[int]bool{}
	for _, m := range ms {
		if a := u.mrAuthor[m]; !seen[a] {
			seen[a] = true
			r.Nodes = append(r.Nodes, at(u.users[a], summary))
		}
	}
	proj := at(u.projects[p], summary)
	for _, m := range ms {
		mr := at(u.mrs[m], summary)
		r.Nodes = append(r.Nodes, mr)
		r.Edges = append(r.Edges, edge(u.users[u.mrAuthor[m]], Authored, mr), edge(mr, InProject, proj))
	}
	r.Nodes = append(r.Nodes, proj)
	return r
}

// search: up to 25 of p's merge requests and issues, in a random order,
// every property, with a v2 pagination.
func (u *universe) search(p int) *wire.GraphResponse {
	r := response(wire.Search)
	var hits []wire.Node
	for _, m := range of(u.mrProject, p) {
		hits = append(hits, u.mrs[m])
	}
	for _, i := range of(u.issueProject, p) {
		hits = append(hits, u.issues[i])
	}
	for i := len(hits) - 1; i > 0; i-- {
		j := u.b.r.intn(i + 1)
		hits[i], hits[j] = hits[j], hits[i]
	}
	total := len(hits)
	r.Nodes = append(r.Nodes, hits[:min(total, 25)]...)
	r.Pagination = &wire.Pagination{HasMore: total > 25, TotalRows: wire.Some[int64](int64(total))}
	return r
}

// neighbors: everything one hop from p, every property, at most 60
// neighbours, with a v5 cursor when cut.
func (u *universe) neighbors(p int) *wire.GraphResponse {
	r := response(wire.Neighbors)
	center := u.projects[p]
	r.Nodes = append(r.Nodes, center)
	type hop struct {
		n   wire.Node
		rel string
	}
	var hops []hop
	seen := map[int]bool{}
	for _, m := range of(u.mrProject, p) {
		if a := u.mrAuthor[m]; !seen[a] {
			seen[a] = true
			hops = append(hops, hop{u.users[a], MemberOf})
		}
	}
	for _, m := range of(u.mrProject, p) {
		hops = append(hops, hop{u.mrs[m], InProject})
	}
	for _, i := range of(u.issueProject, p) {
		hops = append(hops, hop{u.issues[i], InProject})
	}
	for _, i := range of(u.pipeProject, p) {
		hops = append(hops, hop{u.pipes[i], InProject})
	}
	for _, i := range of(u.vulnProject, p) {
		hops = append(hops, hop{u.vulns[i], InProject})
	}
	for _, h := range hops[:min(len(hops), 60)] {
		r.Nodes = append(r.Nodes, h.n)
		r.Edges = append(r.Edges, edge(h.n, h.rel, center))
	}
	if len(hops) > 60 {
		r.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some(u.b.cursor())}
	}
	return r
}

// paths: from user a through up to 4 of its merge requests and their
// projects to the projects' groups, the few properties.
func (u *universe) paths(a int) *wire.GraphResponse {
	r := response(wire.PathFinding)
	seen := map[[2]any]bool{}
	add := func(n wire.Node) wire.Node {
		n = at(n, summary)
		if k := [2]any{n.Type, n.ID}; !seen[k] {
			seen[k] = true
			r.Nodes = append(r.Nodes, n)
		}
		return n
	}
	user := add(u.users[a])
	for pid, m := range of(u.mrAuthor, a)[:min(len(of(u.mrAuthor, a)), 4)] {
		mr := add(u.mrs[m])
		p := u.mrProject[m]
		proj := add(u.projects[p])
		g := add(u.groups[u.projectGroup[p]])
		for s, e := range []wire.Edge{edge(user, Authored, mr), edge(mr, InProject, proj), edge(proj, InGroup, g)} {
			e.PathID = wire.Some[int64](int64(pid))
			e.Step = wire.Some[int64](int64(s))
			r.Edges = append(r.Edges, e)
		}
	}
	return r
}

// perAuthor: merge requests per author in p — a node-grouped aggregation
// with a count and the latest creation time.
func (u *universe) perAuthor(p int) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some(User)}}
	r.Columns = []wire.Column{
		{Name: "mr_count", Function: "count", Target: wire.Some("mr")},
		{Name: "latest_created", Function: "max", Target: wire.Some("mr"), Property: wire.Some("created_at")},
	}
	count := map[int]int64{}
	latest := map[int]string{}
	var order []int
	for _, m := range of(u.mrProject, p) {
		a := u.mrAuthor[m]
		if count[a] == 0 {
			order = append(order, a)
		}
		count[a]++
		if c, _ := u.mrs[m].Get("created_at"); c.Text() > latest[a] {
			latest[a] = c.Text()
		}
	}
	r.Rows = []wire.Row{}
	for _, a := range order {
		n := at(u.users[a], summary)
		r.Rows = append(r.Rows, wire.Row{
			{Name: "u", Node: &n},
			{Name: "mr_count", Value: wire.Int(count[a])},
			{Name: "latest_created", Value: str(latest[a])},
		})
	}
	return r
}
