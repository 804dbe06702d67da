package json_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	gojson "encoding/json"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// Benchmark cases. Each runs our codec (json/<case>) beside encoding/json
// handling the same document as map[string]any (encoding-json/<case>), in
// the same run, so that the ratio is measured on one machine at one time.

type benchCase struct {
	name string
	r    *wire.GraphResponse
}

func benchCases() []benchCase {
	return []benchCase{
		{"traversal-50users-200mrs", traversalUsersMRs(50, 200)},
		{"traversal-10k-nodes", largeGraph(10_000)},
	}
}

var (
	words = strings.Fields(`the a to of fix add remove update refactor migrate pipeline runner cache query
		graph node edge index schema test flaky timeout memory leak deploy rollout feature flag api
		endpoint auth token permission project group merge request review approval docs typo build
		ci job artifact security vulnerability dependency bump gitaly sidekiq postgres clickhouse`)
	states    = []string{"opened", "merged", "closed", "locked"}
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

func datetime(rng *rand.Rand) string {
	t := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(int64(2 * 365 * 24 * time.Hour))))
	return t.Format("2006-01-02 15:04:05.000000")
}

func user(rng *rand.Rand, i int) wire.Node {
	first, last := firstName[rng.IntN(len(firstName))], lastName[rng.IntN(len(lastName))]
	username := strings.ToLower(strings.NewReplacer("'", "", "é", "e", "ü", "u", "í", "i", "ë", "e").Replace(first+"_"+last)) + fmt.Sprint(i)
	email := wire.Null()
	if rng.IntN(3) > 0 {
		email = wire.String(username + "@example.com")
	}
	return wire.Node{Type: "User", ID: 1_000_000 + int64(i)*7919, Properties: []wire.Property{
		wire.Prop("username", wire.String(username)),
		wire.Prop("name", wire.String(first+" "+last)),
		wire.Prop("state", wire.String("active")),
		wire.Prop("bot", wire.Bool(rng.IntN(20) == 0)),
		wire.Prop("public_email", email),
		wire.Prop("web_url", wire.String("https://gitlab.example.com/"+username)),
		wire.Prop("created_at", wire.String(datetime(rng))),
	}}
}

func mergeRequest(rng *rand.Rand, i int) wire.Node {
	state := states[rng.IntN(len(states))]
	merged := wire.Null()
	if state == "merged" {
		merged = wire.String(datetime(rng))
	}
	desc := "## What does this MR do?\n\n" + sentence(rng, 20+rng.IntN(40)) + ".\n\n" +
		"Closes #" + fmt.Sprint(rng.IntN(500000)) + " — see \"" + sentence(rng, 3) + "\".\n"
	labels := wire.ListOf(wire.String("type::"+words[rng.IntN(len(words))]), wire.String("group::knowledge graph"))
	return wire.Node{Type: "MergeRequest", ID: 9_007_199_254_740_000 + int64(i)*13, Properties: []wire.Property{
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
}

// traversalUsersMRs is the response of a traversal: users, the merge
// requests they authored, one AUTHORED edge per merge request.
func traversalUsersMRs(users, mrs int) *wire.GraphResponse {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		r.Nodes = append(r.Nodes, user(rng, i))
	}
	for i := 0; i < mrs; i++ {
		mr := mergeRequest(rng, i)
		r.Nodes = append(r.Nodes, mr)
		author := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: author.ID, To: "MergeRequest", ToID: mr.ID, Type: "AUTHORED"})
	}
	r.Pagination = &wire.Pagination{HasMore: true, TotalRows: 4312}
	return r
}

// largeGraph has n nodes: a fifth users, the rest merge requests, with
// AUTHORED edges and a REVIEWED edge for every other merge request.
func largeGraph(n int) *wire.GraphResponse {
	users := n / 5
	r := traversalUsersMRs(users, n-users)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := users; i < n; i += 2 {
		reviewer := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, wire.Edge{From: "User", FromID: reviewer.ID, To: "MergeRequest", ToID: r.Nodes[i].ID, Type: "REVIEWED", Depth: wire.SomeInt(1)})
	}
	return r
}

// TestBenchCases checks that the benchmarks measure what they say: the
// documents round-trip, and encoding/json reads the same document.
func TestBenchCases(t *testing.T) {
	for _, bc := range benchCases() {
		b, err := json.Encode(bc.r)
		if err != nil {
			t.Fatal(err)
		}
		r, err := json.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		// A full structural comparison of the large case is slow under the
		// race detector; the fixed point of the encoding is checked there.
		if len(bc.r.Nodes) <= 1000 {
			roundTrip(t, bc.r)
		}
		if b2, err := json.Encode(r); err != nil || string(b2) != string(b) {
			t.Fatalf("%s: re-encoding differs (%v)", bc.name, err)
		}
		var m map[string]any
		if err := gojson.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if nodes, _ := m["nodes"].([]any); len(nodes) != len(bc.r.Nodes) {
			t.Errorf("%s: encoding/json reads %d nodes, want %d", bc.name, len(nodes), len(bc.r.Nodes))
		}
		t.Logf("%s: %d nodes, %d edges, %d bytes", bc.name, len(bc.r.Nodes), len(bc.r.Edges), len(b))
	}
	if r := largeGraph(10_000); len(r.Nodes) < 10_000 {
		t.Errorf("large case has %d nodes", len(r.Nodes))
	}
	if r := traversalUsersMRs(50, 200); len(r.Nodes) != 250 || len(r.Edges) != 200 {
		t.Errorf("traversal case has %d nodes, %d edges", len(r.Nodes), len(r.Edges))
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, bc := range benchCases() {
		data, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			// A fresh buffer each time, as Marshal has; AppendEncode into a
			// reused buffer would allocate nothing.
			for b.Loop() {
				if _, err := json.Encode(bc.r); err != nil {
					b.Fatal(err)
				}
			}
		})
		var m map[string]any
		if err := gojson.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
		b.Run("encoding-json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := gojson.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, bc := range benchCases() {
		data, err := json.Encode(bc.r)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := json.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("encoding-json/"+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var m map[string]any
				if err := gojson.Unmarshal(data, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
