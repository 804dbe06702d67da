package scorecard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// TestSurvival: what survives GOON's round trip of a node with a truncated
// title, a null and a digit string, counted by field and by code point,
// and the o200k count of the read-back's JSON.
func TestSurvival(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{}, Nodes: []wire.Node{{
		Type: "Issue", ID: 1, Properties: []wire.Property{
			wire.Prop("iid", wire.String("42")),
			wire.Prop("note", wire.Null()),
			wire.Prop("state", wire.String("opened")),
			wire.Prop("title", wire.String(strings.Repeat("x", 250))),
		},
	}}}
	text, err := goon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := goon.Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	got, err := survive(r, back)
	if err != nil {
		t.Fatal(err)
	}
	j, err := cjson.Encode(back)
	if err != nil {
		t.Fatal(err)
	}
	n, err := countO200k(j)
	if err != nil {
		t.Fatal(err)
	}
	// iid reads back as the int 42 (its text kept, the field not equal),
	// note not at all, state equal, title as its first 197 code points
	// and "...".
	want := &Survival{Fields: 4, FieldsEqual: 1, Chars: 2 + 6 + 250, CharsKept: 2 + 6 + 197, JSON: n}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("survival (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(j), `"title_len":250`) {
		t.Errorf("the read-back's JSON does not carry the title's length:\n%s", j)
	}
}

// TestCommonCases: a case that one profile lacks is left out of every
// profile, and named.
func TestCommonCases(t *testing.T) {
	resp := func() *wire.GraphResponse {
		return &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{}, Edges: []wire.Edge{}}
	}
	cases := []corpus.Case{
		{Profile: "a", Name: "x", Response: resp()}, {Profile: "a", Name: "y", Response: resp()},
		{Profile: "b", Name: "x", Response: resp()}, {Profile: "b", Name: "y", Response: resp()}, {Profile: "b", Name: "z", Response: resp()},
	}
	kept, omitted := common(cases)
	var ids []string
	for _, c := range kept {
		ids = append(ids, c.ID())
	}
	if diff := cmp.Diff([]string{"a/x", "a/y", "b/x", "b/y"}, ids); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"z"}, omitted); diff != "" {
		t.Errorf("omitted (-want +got):\n%s", diff)
	}
}
