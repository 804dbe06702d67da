package binary

import (
	"fmt"
	"math/rand/v2"

	"github.com/graphwire/graphwire/wire"
)

// benchCase is a named response the benchmarks and size tests share.
type benchCase struct {
	name string
	resp *wire.GraphResponse
}

// benchCases builds, from a fixed seed, the traversal of 50 users and 200
// merge requests joined by 200 edges, and a 10,000-node response.
func benchCases() []benchCase {
	return []benchCase{
		{"traversal_50u_200mr", traversalCase(rand.New(rand.NewPCG(1, 2)), 50, 200, 200)},
		{"nodes_10000", traversalCase(rand.New(rand.NewPCG(3, 4)), 2000, 8000, 10000)},
	}
}

var (
	states = []string{"opened", "merged", "closed", "locked"}
	words  = []string{"fix", "add", "refactor", "pipeline", "cache", "race", "auth", "\"quoted\"", "ünïcode", "日本", "flaky", "test", "docs", "perf"}
)

func sentence(rng *rand.Rand, n int) string {
	s := ""
	for i := 0; i < n; i++ {
		if i > 0 {
			s += " "
		}
		s += words[rng.IntN(len(words))]
	}
	return s
}

func datetime(rng *rand.Rand) string {
	return fmt.Sprintf("2026-%02d-%02d %02d:%02d:%02d.%06d", 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000000))
}

// traversalCase returns users authoring merge requests, GitLab-like
// properties with the awkward values real data has.
func traversalCase(rng *rand.Rand, users, mrs, edges int) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		name := fmt.Sprintf("user%d", i)
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(1000 + i), Properties: []wire.Property{
			wire.Prop("username", wire.String(name)),
			wire.Prop("name", wire.String("User "+sentence(rng, 2))),
			wire.Prop("state", wire.String("active")),
			wire.Prop("created_at", wire.String(datetime(rng))),
			wire.Prop("public_email", wire.Null()),
			wire.Prop("admin", wire.Bool(i%17 == 0)),
		}})
	}
	for i := 0; i < mrs; i++ {
		id := int64(9007199254740993) + int64(i) // above 2^53
		props := []wire.Property{
			wire.Prop("iid", wire.Int(int64(1+i))),
			wire.Prop("title", wire.String(sentence(rng, 3+rng.IntN(6)))),
			wire.Prop("description", wire.String(sentence(rng, 10+rng.IntN(30))+"\nline two\tend")),
			wire.Prop("state", wire.String(states[rng.IntN(len(states))])),
			wire.Prop("draft", wire.Bool(rng.IntN(5) == 0)),
			wire.Prop("created_at", wire.String(datetime(rng))),
			wire.Prop("merged_at", wire.Null()),
			wire.Prop("score", wire.Float(float64(rng.IntN(100000))/100)),
			wire.Prop("labels", wire.ListOf(wire.String("backend"), wire.String("bug"))),
		}
		if rng.IntN(2) == 0 {
			props[6] = wire.Prop("merged_at", wire.String(datetime(rng)))
		}
		r.Nodes = append(r.Nodes, wire.Node{Type: "MergeRequest", ID: id, Properties: props})
	}
	for i := 0; i < edges; i++ {
		mr := r.Nodes[users+i%mrs]
		u := r.Nodes[rng.IntN(users)]
		e := wire.Edge{From: "User", FromID: u.ID, To: "MergeRequest", ToID: mr.ID, Type: "AUTHORED"}
		if i%3 == 0 {
			e.Depth = wire.Some[int64](1)
		}
		r.Edges = append(r.Edges, e)
	}
	return r
}
