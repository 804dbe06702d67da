package testsupport

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/graphwire/graphwire/wire"
)

// The responses the benchmarks measure. Each is built from a fixed seed:
// the same arguments give the same response.

var (
	words = strings.Fields(`the a to of fix add remove update refactor migrate pipeline runner cache query
		graph node edge index schema test flaky timeout memory leak deploy rollout feature flag api
		endpoint auth token permission project group merge request review approval docs typo build
		ci job artifact security vulnerability dependency bump gitaly sidekiq postgres clickhouse`)
	mrStates  = []string{"opened", "merged", "closed", "locked"}
	firstName = []string{"Ana", "Bo", "Chen", "Dmitri", "Eve", "Fatima", "Gus", "Hiro", "Ines", "José", "Kwame", "Lena", "Zoë"}
	lastName  = []string{"Ng", "Smith", "Müller", "O'Brien", "García", "Kowalski", "Tanaka", "Okafor", "Dubois", "Li"}
)

func sentence(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[rng.IntN(len(words))])
	}
	return b.String()
}

// datetime is a ClickHouse DateTime64(6) in 2024 or 2025.
func datetime(rng *rand.Rand) string {
	t := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(int64(2 * 365 * 24 * time.Hour))))
	return t.Format("2006-01-02 15:04:05.000000")
}

// person returns the username and full name of user i.
func person(rng *rand.Rand, i int) (username, name string) {
	first, last := firstName[rng.IntN(len(firstName))], lastName[rng.IntN(len(lastName))]
	username = strings.ToLower(strings.NewReplacer("'", "", "é", "e", "ü", "u", "í", "i", "ë", "e").Replace(first+"_"+last)) + fmt.Sprint(i)
	return username, first + " " + last
}

// Traversal is a traversal of users users and mrs merge requests, each
// merge request with one AUTHORED edge from its author, and a pagination
// block. The values are those real data has: long descriptions with
// newlines and quotes, label lists, nulls, floats, datetimes, ids beyond
// 2^53.
func Traversal(users, mrs int) *wire.GraphResponse {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		username, name := person(rng, i)
		email := wire.Null()
		if rng.IntN(3) > 0 {
			email = wire.String(username + "@example.com")
		}
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: 1_000_000 + int64(i)*7919, Properties: []wire.Property{
			wire.Prop("username", wire.String(username)),
			wire.Prop("name", wire.String(name)),
			wire.Prop("state", wire.String("active")),
			wire.Prop("bot", wire.Bool(rng.IntN(20) == 0)),
			wire.Prop("public_email", email),
			wire.Prop("web_url", wire.String("https://gitlab.example.com/"+username)),
			wire.Prop("created_at", wire.String(datetime(rng))),
		}})
	}
	for i := 0; i < mrs; i++ {
		state := mrStates[rng.IntN(len(mrStates))]
		merged := wire.Null()
		if state == "merged" {
			merged = wire.String(datetime(rng))
		}
		desc := "## What does this MR do?\n\n" + sentence(rng, 20+rng.IntN(40)) + ".\n\n" +
			"Closes #" + fmt.Sprint(rng.IntN(500000)) + " — see \"" + sentence(rng, 3) + "\".\n"
		labels := wire.ListOf(wire.String("type::"+words[rng.IntN(len(words))]), wire.String("group::knowledge graph"))
		mr := wire.Node{Type: "MergeRequest", ID: 9_007_199_254_740_000 + int64(i)*13, Properties: []wire.Property{
			wire.Prop("iid", wire.Int(int64(1+rng.IntN(200000)))),
			wire.Prop("title", wire.String(sentence(rng, 4+rng.IntN(8)))),
			wire.Prop("description", wire.String(desc)),
			wire.Prop("state", wire.String(state)),
			wire.Prop("draft", wire.Bool(rng.IntN(5) == 0)),
			wire.Prop("source_branch", wire.String(strings.ReplaceAll(sentence(rng, 3), " ", "-"))),
			wire.Prop("target_branch", wire.String("main")),
			wire.Prop("labels", labels),
			wire.Prop("score", wire.Float(float64(rng.IntN(100000))/100)),
			wire.Prop("created_at", wire.String(datetime(rng))),
			wire.Prop("updated_at", wire.String(datetime(rng))),
			wire.Prop("merged_at", merged),
		}}
		r.Nodes = append(r.Nodes, mr)
		author := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: author.ID, To: "MergeRequest", ToID: mr.ID, Type: "AUTHORED"})
	}
	r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)}
	return r
}

// LargeTraversal has n nodes: the Traversal of n/5 users and the rest
// merge requests, with a REVIEWED edge (depth 1) for every other merge
// request besides the AUTHORED ones.
func LargeTraversal(n int) *wire.GraphResponse {
	users := n / 5
	r := Traversal(users, n-users)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := users; i < n; i += 2 {
		reviewer := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: reviewer.ID, To: "MergeRequest", ToID: r.Nodes[i].ID, Type: "REVIEWED", Depth: wire.Some[int64](1)})
	}
	return r
}

// ADRTraversal is the traversal of the GOON ADR's measurement: users users
// {username, name, state}, mrs merge requests {iid, title, state,
// created_at, merged_at} and one AUTHORED edge per merge request, with a
// few awkward values (quotes, commas, unicode, a name "true", nulls).
func ADRTraversal(users, mrs int) *wire.GraphResponse {
	rng := rand.New(rand.NewPCG(7, 11))
	userStates := []string{"active", "active", "active", "blocked", "deactivated"}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		username, name := person(rng, i)
		switch i {
		case 13:
			name = "O'Neil, Shaq"
		case 24:
			name = "true"
		case 31:
			name = "محمد علي"
		}
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: 1_000_000 + int64(i)*4517, Properties: []wire.Property{
			wire.Prop("username", wire.String(username)),
			wire.Prop("name", wire.String(name)),
			wire.Prop("state", wire.String(userStates[rng.IntN(len(userStates))])),
		}})
	}
	for i := 0; i < mrs; i++ {
		state := mrStates[rng.IntN(len(mrStates))]
		merged := wire.Null()
		if state == "merged" {
			merged = wire.String(datetime(rng))
		}
		title := sentence(rng, 3+rng.IntN(7))
		switch rng.IntN(6) {
		case 0:
			title = "fix: " + title
		case 1:
			title = "Draft: " + title + ", part " + fmt.Sprint(1+rng.IntN(3))
		case 2:
			title = `Resolve "` + title + `"`
		}
		mr := wire.Node{Type: "MergeRequest", ID: 480_000_000 + int64(i)*2311, Properties: []wire.Property{
			wire.Prop("iid", wire.Int(int64(1+rng.IntN(200000)))),
			wire.Prop("title", wire.String(title)),
			wire.Prop("state", wire.String(state)),
			wire.Prop("created_at", wire.String(datetime(rng))),
			wire.Prop("merged_at", merged),
		}}
		r.Nodes = append(r.Nodes, mr)
		author := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: author.ID, To: "MergeRequest", ToID: mr.ID, Type: "AUTHORED"})
	}
	return r
}

// People is a traversal of n Person nodes, each with a name and an age:
// a response as large as a test needs, cheap to build.
func People(n int) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal, Nodes: make([]wire.Node, n)}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: "Person", ID: int64(i + 1), Properties: []wire.Property{
			wire.Prop("name", wire.String("person number "+strconv.Itoa(i))),
			wire.Prop("age", wire.Int(int64(20+i%50))),
		}}
	}
	return r
}
