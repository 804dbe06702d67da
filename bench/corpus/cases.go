package corpus

import (
	"fmt"

	"github.com/graphwire/graphwire/wire"
)

// Seed is the generator's fixed seed. Changing it changes every corpus
// file (and so the scorecard).
const Seed uint64 = 20260510

// FormatVersion is the format_version every corpus response carries: the
// upstream RAW schema version of the GKG reference cases.
const FormatVersion = "1.2.0"

// ADRCase is the name of the case that reproduces ADR 012's example: a
// traversal of 50 users and 200 merge requests with 200 AUTHORED edges.
const ADRCase = "traversal_adr_50u_200mr"

// Case is one corpus response, its name and its profile. Its file is
// Profile/Name.json, or Name.json when Profile is empty (a corpus of one's
// own, without profiles).
type Case struct {
	Profile  string
	Name     string
	Response *wire.GraphResponse
}

// ID is the case's name qualified by its profile: "lean/traversal_s", or
// the bare name when the case has no profile.
func (c Case) ID() string {
	if c.Profile == "" {
		return c.Name
	}
	return c.Profile + "/" + c.Name
}

// spec describes one generated case.
type spec struct {
	name string
	make func(b *builder) *wire.GraphResponse
}

// onlyIn names the cases generated in one profile only: the XL traversal,
// for speed, whose columns are already few.
var onlyIn = map[string]string{"traversal_xl": TextHeavy}

// specs lists the generated cases: every query type in sizes S (≤ 10
// nodes), M (≈ 100) and L (≈ 1,000), the ADR case, a few shapes that
// stress particular value kinds, and one XL traversal (≥ 20,000 nodes) for
// speed.
var specs = []spec{
	{"traversal_s", func(b *builder) *wire.GraphResponse { return authored(b, 2, 4, 2, summary) }},
	{"traversal_m", func(b *builder) *wire.GraphResponse { return authored(b, 20, 70, 10, full) }},
	{"traversal_l", func(b *builder) *wire.GraphResponse { return authored(b, 180, 740, 80, full) }},
	{ADRCase, func(b *builder) *wire.GraphResponse { return adr(b) }},
	{"traversal_depth_m", func(b *builder) *wire.GraphResponse { return membership(b, 60, 12) }},
	{"traversal_xl", func(b *builder) *wire.GraphResponse { return xl(b, 8_000, 12_000) }},
	{"search_s", func(b *builder) *wire.GraphResponse { return search(b, 5, 37) }},
	{"search_m", func(b *builder) *wire.GraphResponse { return search(b, 100, 2_347) }},
	{"search_l", func(b *builder) *wire.GraphResponse { return search(b, 1_000, 48_211) }},
	{"search_pipelines_m", func(b *builder) *wire.GraphResponse { return pipelines(b, 100) }},
	{"neighbors_s", func(b *builder) *wire.GraphResponse { return neighbors(b, 8) }},
	{"neighbors_m", func(b *builder) *wire.GraphResponse { return neighbors(b, 100) }},
	{"neighbors_l", func(b *builder) *wire.GraphResponse { return neighbors(b, 1_000) }},
	{"neighbors_vulnerabilities_m", func(b *builder) *wire.GraphResponse { return vulnerabilities(b, 100) }},
	{"path_finding_s", func(b *builder) *wire.GraphResponse { return paths(b, 2, 1) }},
	{"path_finding_m", func(b *builder) *wire.GraphResponse { return paths(b, 50, 24) }},
	{"path_finding_l", func(b *builder) *wire.GraphResponse { return paths(b, 500, 220) }},
	{"aggregation_s", func(b *builder) *wire.GraphResponse { return severityCounts(b) }},
	{"aggregation_m", func(b *builder) *wire.GraphResponse { return authorStats(b, 100) }},
	{"aggregation_l", func(b *builder) *wire.GraphResponse { return projectStates(b, 340) }},
	{"aggregation_scalar_s", func(b *builder) *wire.GraphResponse { return totals(b) }},
}

// Generate returns the corpus: every case of every profile, profiles in
// Profiles order and cases in a fixed order, a pure function of Seed. Each
// case draws from its own stream, derived from the seed and its name (not
// its profile), so adding or changing one case leaves the others' bytes
// alone, and a case holds the same entities in every profile: profiles
// differ only in the properties they keep.
func Generate() []Case { return GenerateSeed(Seed) }

// SpreadSeeds are the seeds besides Seed that the scorecard measures the
// spread of its savings over: the corpus generated again from each, in
// memory, never written.
var SpreadSeeds = []uint64{Seed + 1, Seed + 2, Seed + 3, Seed + 4}

// GenerateSeed returns the corpus Generate returns, drawn from seed
// instead of Seed.
func GenerateSeed(seed uint64) []Case {
	root := newRNG(seed)
	var out []Case
	for _, p := range Profiles() {
		for _, s := range specs {
			if only := onlyIn[s.name]; only != "" && only != p {
				continue
			}
			b := newBuilder(root.fork(s.name))
			r := s.make(b)
			project(p, r)
			out = append(out, Case{Profile: p, Name: s.name, Response: r})
		}
	}
	return out
}

func response(q wire.QueryType) *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: FormatVersion, QueryType: q, Nodes: []wire.Node{}, Edges: []wire.Edge{}}
}

// authored: users who authored merge requests, and the projects those
// merge requests belong to.
func authored(b *builder, users, mrs, projects int, d detail) *wire.GraphResponse {
	r := response(wire.Traversal)
	us := make([]wire.Node, users)
	for i := range us {
		us[i] = b.user(d)
	}
	ps := make([]wire.Node, projects)
	for i := range ps {
		ps[i] = b.project(d, "")
	}
	r.Nodes = append(r.Nodes, us...)
	for i := 0; i < mrs; i++ {
		mr := b.mergeRequest(d)
		r.Nodes = append(r.Nodes, mr)
		// Every user authors at least one merge request, then at random.
		author := us[i%users]
		if i >= users {
			author = pick(b.r, us)
		}
		r.Edges = append(r.Edges, edge(author, Authored, mr))
		r.Edges = append(r.Edges, edge(mr, InProject, ps[i%projects]))
	}
	r.Nodes = append(r.Nodes, ps...)
	return r
}

// adr is ADR 012's example: 50 users, 200 merge requests, 200 AUTHORED
// edges, with the columns a traversal selects.
func adr(b *builder) *wire.GraphResponse {
	r := response(wire.Traversal)
	us := make([]wire.Node, 50)
	for i := range us {
		us[i] = b.user(summary)
	}
	r.Nodes = append(r.Nodes, us...)
	for i := 0; i < 200; i++ {
		mr := b.mergeRequest(summary)
		r.Nodes = append(r.Nodes, mr)
		author := us[i%len(us)]
		if i >= len(us) {
			author = pick(b.r, us)
		}
		r.Edges = append(r.Edges, edge(author, Authored, mr))
	}
	return r
}

// membership: a variable-length MEMBER_OF traversal through nested groups,
// with a depth on every edge.
func membership(b *builder, users, groups int) *wire.GraphResponse {
	r := response(wire.Traversal)
	gs := make([]wire.Node, groups)
	level := make([]int, groups) // 1 for a top-level group
	for i := range gs {
		parent := -1
		level[i] = 1
		if i > 0 {
			if p := b.r.intn(i); level[p] < 3 {
				parent, level[i] = p, level[p]+1
			}
		}
		path := ""
		if parent >= 0 {
			path, _ = fullPath(gs[parent])
		}
		gs[i] = b.group(full, path)
		if parent >= 0 {
			r.Edges = append(r.Edges, edge(gs[parent], Contains, gs[i]))
		}
	}
	r.Nodes = append(r.Nodes, gs...)
	for i := 0; i < users; i++ {
		u := b.user(full)
		r.Nodes = append(r.Nodes, u)
		for j, n := 0, 1+b.r.intn(3); j < n; j++ {
			g := b.r.intn(groups)
			e := edge(u, MemberOf, gs[g])
			e.Depth = wire.Some[int64](int64(level[g]))
			r.Edges = append(r.Edges, e)
		}
	}
	r.Pagination = &wire.Pagination{HasMore: false, TotalRows: wire.Some[int64](int64(len(r.Nodes)))}
	return r
}

func fullPath(n wire.Node) (string, bool) {
	v, ok := n.Get("full_path")
	return v.Text(), ok
}

// xl: a large traversal selecting few columns, for speed measurements.
func xl(b *builder, users, mrs int) *wire.GraphResponse {
	r := response(wire.Traversal)
	us := make([]wire.Node, users)
	for i := range us {
		u := b.user(summary)
		u.Properties = keep(u.Properties, "username", "state")
		us[i] = u
	}
	r.Nodes = append(r.Nodes, us...)
	for i := 0; i < mrs; i++ {
		mr := b.mergeRequest(summary)
		mr.Properties = keep(mr.Properties, "iid", "title", "state")
		r.Nodes = append(r.Nodes, mr)
		author := us[i%users]
		if i >= users {
			author = pick(b.r, us)
		}
		r.Edges = append(r.Edges, edge(author, Authored, mr))
	}
	r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](1_284_077)}
	return r
}

// keep returns the properties named in keys, in their stored order.
func keep(props []wire.Property, keys ...string) []wire.Property {
	out := props[:0]
	for _, p := range props {
		for _, k := range keys {
			if p.Key == k {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// search: merge requests and issues matching a text query, full
// properties, no edges, paginated.
func search(b *builder, n int, total int64) *wire.GraphResponse {
	r := response(wire.Search)
	for i := 0; i < n; i++ {
		if b.r.chance(60) {
			r.Nodes = append(r.Nodes, b.mergeRequest(full))
		} else {
			r.Nodes = append(r.Nodes, b.issue(full))
		}
	}
	r.Pagination = &wire.Pagination{HasMore: int64(n) < total, TotalRows: wire.Some[int64](total)}
	return r
}

// pipelines: a search over pipelines — floats, nulls, long error texts,
// ids above 2^53.
func pipelines(b *builder, n int) *wire.GraphResponse {
	r := response(wire.Search)
	for i := 0; i < n; i++ {
		r.Nodes = append(r.Nodes, b.pipeline(full))
	}
	r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](90_210)}
	return r
}

// neighbors: everything one hop from a project — members, merge requests,
// issues, pipelines, vulnerabilities.
func neighbors(b *builder, n int) *wire.GraphResponse {
	r := response(wire.Neighbors)
	center := b.project(full, "gitlab-org")
	r.Nodes = append(r.Nodes, center)
	for i := 0; i < n; i++ {
		var node wire.Node
		var e wire.Edge
		switch k := b.r.intn(10); {
		case k < 2:
			node = b.user(full)
			e = edge(node, MemberOf, center)
		case k < 5:
			node = b.mergeRequest(full)
			e = edge(node, InProject, center)
		case k < 7:
			node = b.issue(full)
			e = edge(node, InProject, center)
		case k < 9:
			node = b.pipeline(full)
			e = edge(node, InProject, center)
		default:
			node = b.vulnerability(full)
			e = edge(node, InProject, center)
		}
		r.Nodes = append(r.Nodes, node)
		r.Edges = append(r.Edges, e)
	}
	if n >= 100 {
		// What GKG serves today (schema v5, which has no search query
		// type): more neighbours behind an opaque cursor.
		r.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some(b.cursor())}
	}
	return r
}

// vulnerabilities: a project's vulnerabilities and the pipelines that
// detected them.
func vulnerabilities(b *builder, n int) *wire.GraphResponse {
	r := response(wire.Neighbors)
	center := b.project(full, "gitlab-org/security")
	r.Nodes = append(r.Nodes, center)
	var pipes []wire.Node
	for i := 0; i < n/10; i++ {
		p := b.pipeline(summary)
		pipes = append(pipes, p)
		r.Nodes = append(r.Nodes, p)
	}
	for i := len(pipes); i < n; i++ {
		v := b.vulnerability(full)
		r.Nodes = append(r.Nodes, v)
		r.Edges = append(r.Edges, edge(v, InProject, center))
		r.Edges = append(r.Edges, edge(pick(b.r, pipes), Detected, v))
	}
	return r
}

// paths: path_finding from users to groups through merge requests and
// projects, or through nested groups. Paths share nodes, as real ones do.
func paths(b *builder, nPaths, poolUsers int) *wire.GraphResponse {
	r := response(wire.PathFinding)
	seen := map[[2]string]bool{}
	add := func(n wire.Node) {
		k := [2]string{n.Type, fmt.Sprint(n.ID)}
		if !seen[k] {
			seen[k] = true
			r.Nodes = append(r.Nodes, n)
		}
	}
	users := make([]wire.Node, poolUsers)
	for i := range users {
		users[i] = b.user(summary)
	}
	nGroups := max(1, poolUsers/2)
	groups := make([]wire.Node, nGroups)
	for i := range groups {
		groups[i] = b.group(summary, "")
	}
	projects := make([]wire.Node, max(1, poolUsers))
	for i := range projects {
		projects[i] = b.project(summary, "")
	}
	for p := 0; p < nPaths; p++ {
		var chain []wire.Node
		var rels []string
		u := pick(b.r, users)
		if b.r.chance(70) {
			mr := b.mergeRequest(summary)
			chain = []wire.Node{u, mr, pick(b.r, projects), pick(b.r, groups)}
			rels = []string{Authored, InProject, InGroup}
			if b.r.chance(30) {
				chain, rels = chain[:3], rels[:2]
			}
		} else {
			g1 := b.r.intn(len(groups))
			g2 := (g1 + 1 + b.r.intn(max(1, len(groups)-1))) % len(groups)
			chain = []wire.Node{u, groups[g1], groups[g2]}
			rels = []string{MemberOf, Contains}
			if g1 == g2 { // a single group: the path ends there
				chain, rels = chain[:2], rels[:1]
			}
		}
		for _, n := range chain {
			add(n)
		}
		for s, rel := range rels {
			e := edge(chain[s], rel, chain[s+1])
			e.PathID = wire.Some[int64](int64(p))
			e.Step = wire.Some[int64](int64(s))
			r.Edges = append(r.Edges, e)
		}
	}
	if nPaths >= 500 {
		// Schema v5: the path search stopped at its limit, with no cursor.
		r.Pagination = &wire.Pagination{HasMore: false, Truncated: wire.Some(true)}
	}
	return r
}

// severityCounts: vulnerabilities per severity — a property-grouped
// aggregation with a count and a float average, and a null bucket.
func severityCounts(b *builder) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{{Name: "severity", Kind: wire.GroupByProperty, Node: "v", Property: wire.Some("severity")}}
	r.Columns = []wire.Column{
		{Name: "vulnerability_count", Function: "count", Target: wire.Some("v")},
		{Name: "avg_cvss", Function: "avg", Target: wire.Some("v"), Property: wire.Some("cvss_score")},
	}
	buckets := []wire.Value{str("medium"), str("high"), str("low"), str("critical"), str("info"), wire.Null()}
	count := int64(9000)
	for _, sev := range buckets {
		count = count/2 + int64(b.r.intn(int(count/3+1)))
		avg := wire.Null()
		if sev.Kind() != wire.KindNull && sev.Text() != "info" {
			lo, hi := cvssScore(b.r, sev.Text()), cvssScore(b.r, sev.Text())
			avg = wire.Float(lo + (hi-lo)*b.r.float()) // an average: full precision
		}
		r.Rows = append(r.Rows, wire.Row{{Name: "severity", Value: sev}, {Name: "vulnerability_count", Value: wire.Int(count)}, {Name: "avg_cvss", Value: avg}})
	}
	return r
}

// authorStats: merge requests per author — node-grouped, with a count, a
// float average, a max datetime and a collect list.
func authorStats(b *builder, n int) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some(User)}}
	r.Columns = []wire.Column{
		{Name: "merged_count", Function: "count", Target: wire.Some("mr")},
		{Name: "avg_hours_to_merge", Function: "avg", Target: wire.Some("mr"), Property: wire.Some("time_to_merge")},
		{Name: "latest_merge", Function: "max", Target: wire.Some("mr"), Property: wire.Some("merged_at")},
		{Name: "labels", Function: "collect", Target: wire.Some("mr"), Property: wire.Some("labels")},
	}
	count := int64(70_000)
	for i := 0; i < n; i++ {
		u := b.user(summary)
		count -= int64(b.r.intn(int(count/20 + 2)))
		ls := make([]wire.Value, b.r.intn(5))
		for j := range ls {
			ls[j] = str(pick(b.r, labels))
		}
		r.Rows = append(r.Rows, wire.Row{
			{Name: "u", Node: &u},
			{Name: "merged_count", Value: wire.Int(max(count, 1))},
			{Name: "avg_hours_to_merge", Value: wire.Float(round(b.r.float()*200, 4))},
			{Name: "latest_merge", Value: str(b.clickhouse(60))},
			{Name: "labels", Value: wire.ListOf(ls...)},
		})
	}
	r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](8_812)}
	return r
}

// projectStates: merge requests per project and state — a node group and
// a property group, with sums, a min datetime, and null and "null" cells.
func projectStates(b *builder, projects int) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{
		{Name: "p", Kind: wire.GroupByNode, Node: "p", Entity: wire.Some(Project)},
		{Name: "mr_state", Kind: wire.GroupByProperty, Node: "mr", Property: wire.Some("state")},
	}
	r.Columns = []wire.Column{
		{Name: "mr_count", Function: "count", Target: wire.Some("mr")},
		{Name: "notes", Function: "sum", Target: wire.Some("mr"), Property: wire.Some("user_notes_count")},
		{Name: "first_created", Function: "min", Target: wire.Some("mr"), Property: wire.Some("created_at")},
	}
	states := []wire.Value{str("merged"), str("opened"), str("closed"), wire.Null(), str("null")}
	for i := 0; i < projects; i++ {
		p := b.project(summary, "")
		for _, st := range states[:2+b.r.intn(len(states)-1)] {
			n := int64(1 + b.r.intn(4000))
			r.Rows = append(r.Rows, wire.Row{
				{Name: "p", Node: &p},
				{Name: "mr_state", Value: st},
				{Name: "mr_count", Value: wire.Int(n)},
				{Name: "notes", Value: wire.Int(n * int64(b.r.intn(30)))},
				{Name: "first_created", Value: str(b.clickhouse(3000))},
			})
		}
	}
	return r
}

// totals: an ungrouped aggregation — one row, group_columns present and
// empty.
func totals(b *builder) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{}
	r.Columns = []wire.Column{
		{Name: "total", Function: "count"},
		{Name: "avg_duration", Function: "avg", Target: wire.Some("p"), Property: wire.Some("duration")},
		{Name: "max_id", Function: "max", Target: wire.Some("p"), Property: wire.Some("id")},
	}
	r.Rows = []wire.Row{{
		{Name: "total", Value: wire.Int(int64(2_000 + b.r.intn(1_000)))},
		{Name: "avg_duration", Value: wire.Float(941.131772070606)},
		{Name: "max_id", Value: wire.Int(1<<53 + 1)},
	}}
	return r
}
