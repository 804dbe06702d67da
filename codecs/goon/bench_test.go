package goon_test

import (
	stdjson "encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// benchTraversal builds a deterministic traversal of users who authored
// merge requests, with the values real data has: names with spaces and
// quotes, ClickHouse datetimes, long descriptions with newlines, nulls,
// floats and bools.
func benchTraversal(users, mrs int) *wire.GraphResponse {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("fix add remove refactor cache index query graph auth token pipeline runner merge request " +
		"review docs test flaky timeout memory leak batch stream cursor keyset offset page limit schema migration")
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	datetime := func() string {
		return fmt.Sprintf("2026-%02d-%02d %02d:%02d:%02d.%06d", 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000000))
	}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for i := 0; i < users; i++ {
		id := int64(1000 + i*7)
		username := "user_" + strconv.Itoa(i)
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: id, Properties: []wire.Property{
			P("username", S(username)),
			P("name", S("Person "+strconv.Itoa(i)+" O'Neil")),
			P("state", S([]string{"active", "blocked"}[rng.IntN(2)])),
			P("created_at", S(datetime())),
			P("web_url", S("https://gitlab.example.com/"+username)),
			P("bot", B(rng.IntN(10) == 0)),
		}})
	}
	for i := 0; i < mrs; i++ {
		id := int64(482927048 + i*3)
		desc := sentence(8) + ".\n\n" + sentence(30)
		if i%4 == 0 {
			desc += "\n\n## Details\n\n" + sentence(60) + " \"quoted\" and `code`."
		}
		merged := N()
		state := []string{"opened", "merged", "closed"}[rng.IntN(3)]
		if state == "merged" {
			merged = S(datetime())
		}
		r.Nodes = append(r.Nodes, wire.Node{Type: "MergeRequest", ID: id, Properties: []wire.Property{
			P("iid", I(int64(1+i))),
			P("title", S(sentence(3+rng.IntN(6)))),
			P("state", S(state)),
			P("description", S(desc)),
			P("created_at", S(datetime())),
			P("merged_at", merged),
			P("draft", B(rng.IntN(5) == 0)),
			P("source_branch", S("feature/"+words[rng.IntN(len(words))]+"-"+strconv.Itoa(i))),
			P("approvals", I(int64(rng.IntN(4)))),
			P("score", F(float64(rng.IntN(10000))/100)),
		}})
		author := r.Nodes[rng.IntN(users)]
		r.Edges = append(r.Edges, edge("AUTHORED", "User", author.ID, "MergeRequest", id))
	}
	return r
}

// jsonResponse is the same response as plain Go values in GKG's RAW shape,
// for encoding/json: what a service that has no codec would marshal.
type jsonResponse struct {
	FormatVersion string           `json:"format_version"`
	QueryType     string           `json:"query_type"`
	Nodes         []map[string]any `json:"nodes"`
	Edges         []jsonEdge       `json:"edges"`
}

type jsonEdge struct {
	From   string `json:"from"`
	FromID string `json:"from_id"`
	To     string `json:"to"`
	ToID   string `json:"to_id"`
	Type   string `json:"type"`
	Depth  *int64 `json:"depth,omitempty"`
	PathID *int64 `json:"path_id,omitempty"`
	Step   *int64 `json:"step,omitempty"`
}

func plain(r *wire.GraphResponse) *jsonResponse {
	out := &jsonResponse{FormatVersion: r.FormatVersion, QueryType: string(r.QueryType), Edges: []jsonEdge{}}
	for _, n := range r.Nodes {
		m := map[string]any{"type": n.Type, "id": strconv.FormatInt(n.ID, 10)}
		for _, p := range n.Properties {
			m[p.Key] = plainValue(p.Value)
		}
		out.Nodes = append(out.Nodes, m)
	}
	for _, e := range r.Edges {
		out.Edges = append(out.Edges, jsonEdge{From: e.From, FromID: strconv.FormatInt(e.FromID, 10), To: e.To,
			ToID: strconv.FormatInt(e.ToID, 10), Type: e.Type})
	}
	return out
}

func plainValue(v wire.Value) any {
	switch v.Kind() {
	case wire.KindBool:
		return v.Bool()
	case wire.KindInt:
		return v.Int()
	case wire.KindFloat:
		return v.Float()
	case wire.KindString:
		return v.Text()
	case wire.KindList:
		l := make([]any, len(v.List()))
		for i, x := range v.List() {
			l[i] = plainValue(x)
		}
		return l
	}
	return nil
}

type benchCase struct {
	name string
	r    *wire.GraphResponse
}

func benchCases() []benchCase {
	return []benchCase{
		{"traversal_50u_200mr", benchTraversal(50, 200)},
		{"traversal_10k_nodes", benchTraversal(2500, 7500)},
	}
}

// BenchmarkEncode compares GOON encoding with encoding/json's Marshal of the
// same response (as plain Go values) and with graphwire's canonical JSON.
func BenchmarkEncode(b *testing.B) {
	for _, c := range benchCases() {
		text, _ := goon.Encode(c.r)
		p := plain(c.r)
		raw, _ := stdjson.Marshal(p)
		canonical, _ := gjson.Encode(c.r)
		benchOp(b, "goon/"+c.name, len(text), func() (err error) { _, err = goon.Encode(c.r); return err })
		benchOp(b, "encoding_json/"+c.name, len(raw), func() (err error) { _, err = stdjson.Marshal(p); return err })
		benchOp(b, "json/"+c.name, len(canonical), func() (err error) { _, err = gjson.Encode(c.r); return err })
	}
}

// BenchmarkDecode compares GOON decoding with encoding/json's Unmarshal of
// the same response's canonical JSON into plain Go values.
func BenchmarkDecode(b *testing.B) {
	for _, c := range benchCases() {
		text, err := goon.Encode(c.r)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := gjson.Encode(c.r)
		if err != nil {
			b.Fatal(err)
		}
		benchOp(b, "goon/"+c.name, len(text), func() (err error) { _, err = goon.Decode(text); return err })
		benchOp(b, "encoding_json/"+c.name, len(raw), func() error { var p jsonResponse; return stdjson.Unmarshal(raw, &p) })
		benchOp(b, "json/"+c.name, len(raw), func() (err error) { _, err = gjson.Decode(raw); return err })
	}
}

// benchOp runs op as the sub-benchmark name, over n bytes an operation.
func benchOp(b *testing.B, name string, n int, op func() error) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEncodeAllocationsDoNotGrow: an encode makes the same few allocations
// for 250 nodes (or rows) as for 10,000, lists included.
func TestEncodeAllocationsDoNotGrow(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items at random")
	}
	small, large := benchTraversal(50, 200), benchTraversal(2500, 7500)
	// A list whose JSON text is quoted and longer than a short string.
	for _, r := range []*wire.GraphResponse{small, large} {
		for i := range r.Nodes {
			r.Nodes[i].Properties = append(r.Nodes[i].Properties,
				P("labels", L(S("type::x"), S("group::knowledge graph"))),
				P("weights", L(F(0.25), I(3), S("a \"b\""), L(S("nested list value")))))
		}
	}
	goon.Encode(small)
	goon.Encode(large)
	a := testing.AllocsPerRun(20, func() { goon.Encode(small) })
	b := testing.AllocsPerRun(20, func() { goon.Encode(large) })
	t.Logf("allocations per encode: %.1f (250 nodes), %.1f (10,000 nodes)", a, b)
	if b > a+1 || a > 4 {
		t.Errorf("allocations per encode: %.1f for 250 nodes, %.1f for 10,000", a, b)
	}

	// Aggregation rows whose cells hold such lists.
	rows := func(n int) *wire.GraphResponse {
		r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
			GroupColumns: []wire.GroupColumn{propGroup("labels", "")}, Columns: []wire.Column{count("n")}}
		for i := range n {
			r.Rows = append(r.Rows, row(cell("labels", L(S("type::x"), S("group::knowledge graph"), I(int64(i)))), cell("n", I(int64(i)))))
		}
		return r
	}
	smallRows, largeRows := rows(250), rows(10000)
	goon.Encode(smallRows)
	goon.Encode(largeRows)
	a = testing.AllocsPerRun(20, func() { goon.Encode(smallRows) })
	b = testing.AllocsPerRun(20, func() { goon.Encode(largeRows) })
	t.Logf("allocations per encode: %.1f (250 rows), %.1f (10,000 rows)", a, b)
	if b > a+1 || a > 8 { // column paths for error messages cost a few per column
		t.Errorf("allocations per encode: %.1f for 250 rows, %.1f for 10,000", a, b)
	}
}
