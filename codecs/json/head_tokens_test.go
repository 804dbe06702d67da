package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// maxOneNodeDeltaTokens is the o200k tokens the one-node delta of the
// corpus's lean/traversal_m may take in json.
const maxOneNodeDeltaTokens = 60

// TestOneNodeDeltaTokens: the delta of lean/traversal_m in which one
// node's string property changed takes at most maxOneNodeDeltaTokens
// o200k tokens: its content is a fragment, without the query type and
// format version the base has and without the empty edges.
func TestOneNodeDeltaTokens(t *testing.T) {
	_, d := deltatest.OneNodeDelta(t, nil)
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
