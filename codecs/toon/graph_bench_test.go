package toon_test

import (
	gojson "encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
)

// Benchmark cases for the GraphResponse codec. Each runs toon/<case> beside
// encoding/json handling the same response's canonical JSON as
// map[string]any (encoding-json/<case>), in the same run.

type graphBenchCase struct {
	name string
	r    *wire.GraphResponse
}

func graphBenchCases() []graphBenchCase {
	return []graphBenchCase{
		{"traversal-50users-200mrs", richTraversal(50, 200)},
		{"traversal-adr-50users-200mrs", adrTraversal(50, 200)},
		{"traversal-10k-nodes", largeTraversal(10_000)},
	}
}

var (
	benchWords = strings.Fields(`the a to of fix add remove update refactor migrate pipeline runner cache query
		graph node edge index schema test flaky timeout memory leak deploy rollout feature flag api
		endpoint auth token permission project group merge request review approval docs typo build
		ci job artifact security vulnerability dependency bump gitaly sidekiq postgres clickhouse`)
	benchStates = []string{"opened", "merged", "closed", "locked"}
	benchFirst  = []string{"Ana", "Bo", "Chen", "Dmitri", "Eve", "Fatima", "Gus", "Hiro", "Ines", "José", "Kwame", "Lena", "Zoë"}
	benchLast   = []string{"Ng", "Smith", "Müller", "O'Brien", "García", "Kowalski", "Tanaka", "Okafor", "Dubois", "Li"}
)

func benchSentence(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(benchWords[rng.IntN(len(benchWords))])
	}
	return b.String()
}

func benchDatetime(rng *rand.Rand) string {
	t := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(int64(2 * 365 * 24 * time.Hour))))
	return t.Format("2006-01-02 15:04:05.000000")
}

func benchUsername(rng *rand.Rand, i int) (username, name string) {
	first, last := benchFirst[rng.IntN(len(benchFirst))], benchLast[rng.IntN(len(benchLast))]
	username = strings.ToLower(strings.NewReplacer("'", "", "é", "e", "ü", "u", "í", "i", "ë", "e").Replace(first+"_"+last)) + fmt.Sprint(i)
	return username, first + " " + last
}

// richTraversal is a traversal of users and the merge requests they
// authored, one AUTHORED edge per merge request, with the values real data
// has: long descriptions with newlines and quotes, label lists, nulls,
// floats, datetimes, ids beyond 2^53.
func richTraversal(users, mrs int) *wire.GraphResponse {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		username, name := benchUsername(rng, i)
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
			wire.Prop("created_at", wire.String(benchDatetime(rng))),
		}})
	}
	for i := 0; i < mrs; i++ {
		state := benchStates[rng.IntN(len(benchStates))]
		merged := wire.Null()
		if state == "merged" {
			merged = wire.String(benchDatetime(rng))
		}
		desc := "## What does this MR do?\n\n" + benchSentence(rng, 20+rng.IntN(40)) + ".\n\n" +
			"Closes #" + fmt.Sprint(rng.IntN(500000)) + " — see \"" + benchSentence(rng, 3) + "\".\n"
		labels := wire.ListOf(wire.String("type::"+benchWords[rng.IntN(len(benchWords))]), wire.String("group::knowledge graph"))
		mr := wire.Node{Type: "MergeRequest", ID: 9_007_199_254_740_000 + int64(i)*13, Properties: []wire.Property{
			wire.Prop("iid", wire.Int(int64(1+rng.IntN(200000)))),
			wire.Prop("title", wire.String(benchSentence(rng, 4+rng.IntN(8)))),
			wire.Prop("description", wire.String(desc)),
			wire.Prop("state", wire.String(state)),
			wire.Prop("draft", wire.Bool(rng.IntN(5) == 0)),
			wire.Prop("source_branch", wire.String(strings.ReplaceAll(benchSentence(rng, 3), " ", "-"))),
			wire.Prop("target_branch", wire.String("main")),
			wire.Prop("labels", labels),
			wire.Prop("score", wire.Float(float64(rng.IntN(100000))/100)),
			wire.Prop("created_at", wire.String(benchDatetime(rng))),
			wire.Prop("updated_at", wire.String(benchDatetime(rng))),
			wire.Prop("merged_at", merged),
		}}
		r.Nodes = append(r.Nodes, mr)
		author := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: author.ID, To: "MergeRequest", ToID: mr.ID, Type: "AUTHORED"})
	}
	r.Pagination = &wire.Pagination{HasMore: true, TotalRows: 4312}
	return r
}

// largeTraversal has n nodes: a fifth users, the rest merge requests, with
// AUTHORED edges and a REVIEWED edge (depth 1) for every other merge
// request.
func largeTraversal(n int) *wire.GraphResponse {
	users := n / 5
	r := richTraversal(users, n-users)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := users; i < n; i += 2 {
		reviewer := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: reviewer.ID, To: "MergeRequest", ToID: r.Nodes[i].ID, Type: "REVIEWED", Depth: wire.SomeInt(1)})
	}
	return r
}

// adrTraversal is the traversal of the GOON ADR's measurement: users users
// {username, name, state}, mrs merge requests {iid, title, state,
// created_at, merged_at} and one AUTHORED edge per merge request, with a
// few awkward values (quotes, commas, unicode, a name "true", nulls).
func adrTraversal(users, mrs int) *wire.GraphResponse {
	rng := rand.New(rand.NewPCG(7, 11))
	userStates := []string{"active", "active", "active", "blocked", "deactivated"}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		username, name := benchUsername(rng, i)
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
		state := benchStates[rng.IntN(len(benchStates))]
		merged := wire.Null()
		if state == "merged" {
			merged = wire.String(benchDatetime(rng))
		}
		title := benchSentence(rng, 3+rng.IntN(7))
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
			wire.Prop("created_at", wire.String(benchDatetime(rng))),
			wire.Prop("merged_at", merged),
		}}
		r.Nodes = append(r.Nodes, mr)
		author := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: author.ID, To: "MergeRequest", ToID: mr.ID, Type: "AUTHORED"})
	}
	return r
}

func BenchmarkGraphEncode(b *testing.B) {
	for _, bc := range graphBenchCases() {
		data, err := toon.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("toon/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var buf []byte
			for b.Loop() {
				buf, err = toon.AppendEncode(buf[:0], bc.r)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		canonical, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		var m map[string]any
		if err := gojson.Unmarshal(canonical, &m); err != nil {
			b.Fatal(err)
		}
		b.Run("encoding-json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(canonical)))
			for b.Loop() {
				if _, err := gojson.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGraphDecode(b *testing.B) {
	for _, bc := range graphBenchCases() {
		data, err := toon.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("toon/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := toon.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		canonical, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("encoding-json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(canonical)))
			for b.Loop() {
				var m map[string]any
				if err := gojson.Unmarshal(canonical, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
