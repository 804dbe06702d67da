package toon_test

import (
	"bytes"
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
)

// The o200k tokens the one-node delta of the corpus's lean/traversal_m
// may take, whole and its header (the lines before the content's
// "nodes:"). Counted line by line: the header takes 26 (graphwire_delta
// and its check in 39 quoted digits, 18, of which the digits 13;
// nodes_changed[1]: 0, 8); the content, a fragment that leaves out the
// base's format_version and query_type and the empty edges, 31 ("nodes:"
// 2, the User table's header 12, its row 17).
const (
	maxOneNodeDeltaTokens = 60
	maxDeltaHeaderTokens  = 30
)

// TestOneNodeDeltaTokens: the delta of lean/traversal_m in which one
// node's string property changed takes at most 60 o200k tokens.
func TestOneNodeDeltaTokens(t *testing.T) {
	_, d := deltatest.OneNodeDelta(t, nil)
	text, err := delta.AppendDelta(toon.Default(), nil, d)
	if err != nil {
		t.Fatal(err)
	}
	n := testsupport.Tokens(t, tokens.O200k, text)
	at := bytes.Index(text, []byte("\nnodes:\n"))
	if at < 0 || bytes.Contains(text, []byte("format_version")) || bytes.Contains(text, []byte("edges")) {
		t.Fatalf("not a one-node delta written as a fragment:\n%s", text)
	}
	head := text[:at]
	nh := testsupport.Tokens(t, tokens.O200k, head)
	t.Logf("%d o200k tokens, %d of them the header's:\n%s", n, nh, text)
	if n > maxOneNodeDeltaTokens || nh > maxDeltaHeaderTokens {
		t.Fatalf("the delta takes %d o200k tokens (header %d), more than %d (%d)", n, nh, maxOneNodeDeltaTokens, maxDeltaHeaderTokens)
	}
}
