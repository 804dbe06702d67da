package goon_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

type goldenCase struct {
	name string
	in   *wire.GraphResponse
}

// goldenCases cover every query type. Their encodings live in
// testdata/golden/NAME.goon (inputs beside them as canonical JSON,
// NAME.json); go test -update rewrites both.
func goldenCases() []goldenCase {
	user := func(id int64, username, name, state string) wire.Node {
		return node("User", id, P("username", S(username)), P("name", S(name)), P("state", S(state)),
			P("created_at", S("2024-01-15 09:30:00")), P("web_url", S("https://gitlab.example.com/"+username)))
	}
	mr := func(id, iid int64, title, state string, extra ...wire.Property) wire.Node {
		props := append([]wire.Property{P("iid", I(iid)), P("title", S(title)), P("state", S(state)),
			P("created_at", S("2026-05-08 14:47:05.123456")), P("draft", B(false))}, extra...)
		return node("MergeRequest", id, props...)
	}
	project := node("Project", 278964, P("name", S("GitLab")), P("full_path", S("gitlab-org/gitlab")), P("visibility_level", I(20)),
		P("star_count", I(4521)), P("description", S("GitLab is an open source end-to-end software development platform with built-in version control, issue tracking, code review, CI/CD, and more. Self-host GitLab on your own servers, in a container, or on a cloud provider. Learn more at about.gitlab.com.")))
	longDescription := "## What does this MR do?\n\nReplaces the offset cursor with a keyset cursor so that deep pages stay fast.\r\n\n" +
		strings.Repeat("Details: \"quoted\" text, a tab\there, a backslash \\ and unicode ✓. ", 6)

	traversal := resp(wire.Traversal,
		nodes(
			user(1, "alice", "Alice Smith", "active"),
			user(2, "bob", "Bob \"the builder\" Chen", "active"),
			user(3, "carol", "Carol Davis", "blocked"),
			mr(482927048, 18, "Fix auth bug", "merged", P("merged_at", S("2026-05-09 08:00:01")), P("description", S(longDescription))),
			mr(482927049, 19, "chore: move skill to project scope", "opened", P("merged_at", N()), P("labels", L(S("backend"), S("security")))),
			mr(482927050, 20, "true", "closed", P("score", F(0.75)), P("approvals", I(0))),
			project,
		),
		edge("AUTHORED", "User", 1, "MergeRequest", 482927048),
		edge("AUTHORED", "User", 2, "MergeRequest", 482927049),
		edge("AUTHORED", "User", 1, "MergeRequest", 482927050),
		edge("IN_PROJECT", "MergeRequest", 482927050, "Project", 278964),
		edge("IN_PROJECT", "MergeRequest", 482927048, "Project", 278964),
		edge("IN_PROJECT", "MergeRequest", 482927049, "Project", 278964),
		edge("AUTHORED", "User", 1, "MergeRequest", 482927048), // a duplicate
		withDepth(edge("MEMBER_OF", "User", 3, "Project", 278964), 2),
		withDepth(edge("MEMBER_OF", "User", 3, "Project", 278964), 1),
	)

	search := resp(wire.Search,
		nodes(
			mr(482821625, 247, "Add per-activity reduction policy overrides", "opened"),
			mr(482821001, 12, "Reduce memory of the indexer: stream batches", "merged", P("merged_at", S("2026-04-30 23:59:59"))),
			node("Issue", 9001, P("iid", I(77)), P("title", S("Indexer OOM on large groups")), P("state", S("opened")),
				P("weight", I(3)), P("confidential", B(true)), P("due_date", S("2026-06-01"))),
		))

	neighbors := resp(wire.Neighbors,
		nodes(
			node("Group", 9970, P("name", S("gitlab-org")), P("full_path", S("gitlab-org")), P("visibility_level", I(20))),
			project,
			node("Project", 13083, P("name", S("GitLab FOSS")), P("full_path", S("gitlab-org/gitlab-foss")), P("archived", B(true))),
			user(1, "alice", "Alice Smith", "active"),
		),
		edge("CONTAINS", "Group", 9970, "Project", 278964),
		edge("CONTAINS", "Group", 9970, "Project", 13083),
		edge("MEMBER_OF", "User", 1, "Group", 9970),
	)

	pathFinding := resp(wire.PathFinding,
		nodes(
			user(64248, "stanhu", "Stan Hu", "active"),
			mr(482927048, 18, "Fix auth bug", "merged"),
			mr(482927051, 31, "Review: cache invalidation", "merged"),
			project,
		),
		// Two paths, given out of order.
		onPath(edge("IN_PROJECT", "MergeRequest", 482927051, "Project", 278964), 1, 1),
		onPath(edge("IN_PROJECT", "MergeRequest", 482927048, "Project", 278964), 0, 1),
		onPath(edge("REVIEWED", "User", 64248, "MergeRequest", 482927051), 1, 0),
		onPath(edge("AUTHORED", "User", 64248, "MergeRequest", 482927048), 0, 0),
	)

	byNode := agg([]wire.GroupColumn{nodeGroup("u", "User")},
		[]wire.Column{{Name: "merged_count", Function: "count", Target: wire.Some("mr")}},
		row(ref("u", node("User", 1243277, P("username", S("ghost1")))), cell("merged_count", I(65555))),
		row(ref("u", node("User", 35702613, P("username", S("bot_a")), P("bot", B(true)))), cell("merged_count", I(21277))),
		row(ref("u", node("User", 26832240, P("username", S("bot_b")), P("bot", B(true)))), cell("merged_count", I(20289))),
	)

	byProperty := agg([]wire.GroupColumn{propGroup("severity_bucket", "severity")},
		[]wire.Column{
			{Name: "vulnerability_count", Function: "count", Target: wire.Some("v")},
			{Name: "latest_update", Function: "max", Target: wire.Some("v"), Property: wire.Some("updated_at")},
			{Name: "avg_score", Function: "avg", Target: wire.Some("v"), Property: wire.Some("cvss")},
		},
		row(cell("severity_bucket", S("critical")), cell("vulnerability_count", I(120)), cell("latest_update", S("2026-05-08 22:55:58")), cell("avg_score", F(9.4125))),
		row(cell("severity_bucket", S("high")), cell("vulnerability_count", I(2350)), cell("latest_update", S("2026-05-08 21:00:00")), cell("avg_score", F(7.5))),
		row(cell("severity_bucket", N()), cell("vulnerability_count", I(42)), cell("latest_update", N()), cell("avg_score", F(0))),
	)

	byBoth := agg([]wire.GroupColumn{nodeGroup("project", "Project"), propGroup("state", "state")},
		[]wire.Column{count("mr_count"), {Name: "authors", Function: "collect", Target: wire.Some("u"), Property: wire.Some("username")}},
		row(ref("project", project), cell("state", S("merged")), cell("mr_count", I(45)), cell("authors", L(S("alice"), S("bob")))),
		row(ref("project", project), cell("state", S("opened")), cell("mr_count", I(12)), cell("authors", L(S("carol")))),
		row(ref("project", node("Project", 13083, P("name", S("GitLab FOSS")))), cell("state", S("closed")), cell("mr_count", I(3)), cell("authors", L())),
	)

	ungrouped := agg([]wire.GroupColumn{}, []wire.Column{
		{Name: "total", Function: "count", Target: wire.Some("u")},
		{Name: "avg_age_days", Function: "avg", Target: wire.Some("u"), Property: wire.Some("age_days")},
	}, row(cell("total", I(2347)), cell("avg_age_days", F(941.131772070606))))

	paginated := resp(wire.Traversal, nodes(mr(1, 42, "First page only", "opened")))
	paginated.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](100)}

	aggPaginated := agg([]wire.GroupColumn{propGroup("state", "state")}, []wire.Column{count("n")},
		row(cell("state", S("opened")), cell("n", I(1000))), row(cell("state", S("merged")), cell("n", I(900))))
	aggPaginated.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](5)}

	// Schema v5 pagination: GKG's current header, and a cursor the value
	// rule quotes.
	paginatedV5 := resp(wire.Traversal, nodes(mr(1, 42, "First page only", "opened"), mr(2, 43, "Second result", "merged")))
	paginatedV5.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("eyJoIjoiYWQyMTczMWM5MTZmIiwibyI6Mn0")}

	aggPaginatedV5 := agg([]wire.GroupColumn{propGroup("state", "state")}, []wire.Column{count("n")},
		row(cell("state", S("opened")), cell("n", I(1000))))
	aggPaginatedV5.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("page 2 \"after\"=☃\n")}

	return []goldenCase{
		{"traversal", traversal},
		{"search", search},
		{"neighbors", neighbors},
		{"path_finding", pathFinding},
		{"aggregation_by_node", byNode},
		{"aggregation_by_property", byProperty},
		{"aggregation_by_node_and_property", byBoth},
		{"aggregation_ungrouped", ungrouped},
		{"pagination", paginated},
		{"aggregation_paginated", aggPaginated},
		{"pagination_v5", paginatedV5},
		{"aggregation_paginated_v5", aggPaginatedV5},
	}
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			got := encode(t, c.in)
			input, err := gjson.Encode(c.in)
			if err != nil {
				t.Fatal(err)
			}
			testsupport.Golden(t, filepath.Join("testdata", "golden", c.name+".goon"), got, *update)
			testsupport.Golden(t, filepath.Join("testdata", "golden", c.name+".json"), input, *update)
			fixedPoint(t, goon.Default(), got)
		})
	}
}
