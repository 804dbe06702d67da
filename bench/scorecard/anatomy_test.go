package scorecard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// anatomyResponse has a value of every kind, a long description GOON
// truncates, a ClickHouse datetime, a null and an empty string in a node,
// and aggregation cells, one of them null.
func anatomyResponse() (*wire.GraphResponse, *wire.GraphResponse) {
	long := strings.Repeat("word ", 60) // 300 code points
	nodes := &wire.GraphResponse{
		FormatVersion: corpus.FormatVersion, QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "MergeRequest", ID: 7, Properties: []wire.Property{
			wire.Prop("iid", wire.Int(42)),
			wire.Prop("title", wire.String(`say "hi"`)),
			wire.Prop("draft", wire.Bool(true)),
			wire.Prop("merged_at", wire.Null()),
			wire.Prop("due_date", wire.String("")),
			wire.Prop("created_at", wire.String("2026-05-08 14:47:05.123456")),
			wire.Prop("score", wire.Float(7)),
			wire.Prop("labels", wire.ListOf(wire.String("bug"), wire.String("a,b"))),
			wire.Prop("description", wire.String(long)),
		}}},
	}
	u := wire.Node{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("username", wire.String("ada"))}}
	agg := &wire.GraphResponse{
		FormatVersion: corpus.FormatVersion, QueryType: wire.Aggregation, Nodes: []wire.Node{}, Edges: []wire.Edge{},
		GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")}},
		Columns:      []wire.Column{{Name: "n", Function: "count"}},
		Rows: []wire.Row{
			{{Name: "u", Node: &u}, {Name: "n", Value: wire.Int(3)}},
			{{Name: "u", Node: &u}, {Name: "n", Value: wire.Null()}},
		},
	}
	return nodes, agg
}

// TestValueWriters pins, for each format, the texts the anatomy counts as
// values: what the format writes for each value, quotes left out.
func TestValueWriters(t *testing.T) {
	nodes, agg := anatomyResponse()
	long := strings.Repeat("word ", 60)
	tests := []struct {
		name  string
		write valueWriter
		r     *wire.GraphResponse
		want  []string
	}{
		{"json", jsonValues, nodes, []string{"42", `say \"hi\"`, "true", "null", "", "2026-05-08 14:47:05.123456", "7.0", "bug", "a,b", long}},
		{"toon", toonValues, nodes, []string{"42", `say \"hi\"`, "true", "null", "", "2026-05-08 14:47:05.123456", "7", "bug", "a,b", long}},
		// GOON: null and "" omitted, the datetime in T-form, the list as one
		// JSON text, the description cut at 197 code points plus "...".
		{"goon", goonValues, nodes, []string{"42", `say \"hi\"`, "true", "", "", "2026-05-08T14:47:05.123456", "7", `[\"bug\",\"a,b\"]`, long[:197] + "..."}},
		// Rows: JSON and TOON repeat the node cell in every row; GOON lists it once.
		{"json rows", jsonValues, agg, []string{"ada", "3", "ada", "null"}},
		{"toon rows", toonValues, agg, []string{"ada", "3", "ada", "null"}},
		{"goon rows", goonValues, agg, []string{"ada", "3", "null"}},
		// GCF: null as -, a string's quotes left out (escapes kept), the
		// list's items one by one; the node cell in every row.
		{"gcf", gcfValues, nodes, []string{"42", `say \"hi\"`, "true", "-", "", "2026-05-08 14:47:05.123456", "7", "bug", "a,b", long}},
		{"gcf rows", gcfValues, agg, []string{"ada", "3", "ada", "-"}},
	}
	for _, tt := range tests {
		got, err := tt.write(tt.r)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s values (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestAnatomyAddsUp: values and structure add up to the o200k total; the
// value part is the sum of each value text counted alone; a lossless
// format carries JSON's values, GOON fewer on a case it truncates.
func TestAnatomyAddsUp(t *testing.T) {
	var cases []corpus.Case
	for _, c := range corpus.Generate() {
		if c.Name == "search_s" || c.Name == "aggregation_s" {
			cases = append(cases, c)
		}
	}
	card, err := Build(cases)
	if err != nil {
		t.Fatal(err)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	for ci, cs := range card.Cases {
		for fi, f := range card.Formats {
			r := cs.Results[fi]
			if !f.Text {
				if r.HasValues {
					t.Errorf("%s: binary %s has an anatomy", cs.Name, f.Name)
				}
				continue
			}
			if !r.HasValues {
				t.Errorf("%s: %s has no anatomy", cs.Name, f.Name)
				continue
			}
			if r.Values+r.Structure() != r.Tokens[0] || r.Values <= 0 || r.Structure() <= 0 {
				t.Errorf("%s/%s: values %d + structure %d, total %d", cs.Profile, cs.Name, r.Values, r.Structure(), r.Tokens[0])
			}
			texts, err := f.values(cases[ci].Response)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0
			for _, s := range texts {
				n, err := o200k.Count([]byte(s))
				if err != nil {
					t.Fatal(err)
				}
				sum += n
			}
			if sum != r.Values {
				t.Errorf("%s/%s %s: values %d, value texts count %d", cs.Profile, cs.Name, f.Name, r.Values, sum)
			}
			switch f.Name {
			case "toon", "json-pretty", "toon-plain":
				if r.Values != cs.Results[0].Values {
					t.Errorf("%s/%s %s: values %d, JSON's %d", cs.Profile, cs.Name, f.Name, r.Values, cs.Results[0].Values)
				}
			}
		}
		if cs.Profile == corpus.TextHeavy && cs.Name == "search_s" {
			if g := cs.Results[card.formatIndex("goon")].Values; g >= cs.Results[0].Values {
				t.Errorf("text-heavy/search_s: GOON values %d, JSON's %d; GOON truncates long descriptions", g, cs.Results[0].Values)
			}
		}
	}
}
