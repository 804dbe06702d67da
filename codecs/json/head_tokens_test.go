package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// maxOneNodeDeltaTokens is the o200k tokens the one-node delta of the
// corpus's lean/traversal_m may take in json.
const maxOneNodeDeltaTokens = 60

// TestOneNodeDeltaTokens: the delta of lean/traversal_m in which one
// node's string property changed takes at most maxOneNodeDeltaTokens
// o200k tokens: its content is a fragment, without the query type and
// format version the base has and without the empty edges.
func TestOneNodeDeltaTokens(t *testing.T) {
	var base *wire.GraphResponse
	for _, c := range corpus.Generate() {
		if c.ID() == "lean/traversal_m" {
			base = c.Response
		}
	}
	if base == nil {
		t.Fatal("the corpus has no lean/traversal_m")
	}
	// One user is blocked: the first node with a state property.
	next := wiretest.Clone(base)
	changed := false
	for i := range next.Nodes {
		for j, p := range next.Nodes[i].Properties {
			if p.Key == "state" && p.Value.Kind() == wire.KindString && !changed {
				next.Nodes[i].Properties[j].Value = wire.String("blocked")
				changed = p.Value.Text() != "blocked"
			}
		}
	}
	if !changed {
		t.Fatal("no node of lean/traversal_m has a state to change")
	}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Changed) != 1 {
		t.Fatalf("the delta changes %d nodes, want 1", len(d.Changed))
	}
	// The delta layer leaves out of the content a format version and a
	// query type equal to the base's (delta payload version 4); for a
	// delta made before it, they are left out here.
	if d.Content.FormatVersion == base.FormatVersion {
		d.Content.FormatVersion = ""
	}
	if d.Content.QueryType == base.QueryType {
		d.Content.QueryType = ""
	}
	text, err := delta.AppendDelta(json.Default(), nil, d)
	if err != nil {
		t.Fatal(err)
	}
	if _, back, err := json.Default().DecodeDocument(text); err != nil || !wire.Equal(d.Content, back, wire.Exact) {
		t.Fatalf("the delta's content does not read back: %v", err)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	n, err := o200k.Count(text)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d o200k tokens:\n%s", n, text)
	if n > maxOneNodeDeltaTokens {
		t.Fatalf("the delta takes %d o200k tokens, more than %d", n, maxOneNodeDeltaTokens)
	}
}
