package toon_test

import (
	"bytes"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// streamed returns what EncodeTo writes for r and its error.
func streamed(r *wire.GraphResponse) ([]byte, error) {
	var buf bytes.Buffer
	err := toon.EncodeTo(&buf, r)
	return buf.Bytes(), err
}

// checkStream fails unless EncodeTo writes AppendEncode's bytes for r, or
// refuses it with AppendEncode's error having written nothing.
func checkStream(t interface{ Fatalf(string, ...any) }, r *wire.GraphResponse) {
	want, err := toon.AppendEncode(nil, r)
	got, serr := streamed(r)
	if err != nil {
		if serr == nil || serr.Error() != err.Error() || len(got) != 0 {
			t.Fatalf("AppendEncode: %v; EncodeTo: %v after %d bytes", err, serr, len(got))
		}
		return
	}
	if serr != nil {
		t.Fatalf("EncodeTo: %v", serr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("streamed text differs from AppendEncode's: %s", wiretest.ByteDiff(got, want))
	}
}

// Each rule of the layout (the golden cases) streams the same text.
func TestStreamLayoutCases(t *testing.T) {
	for _, tc := range layoutCases {
		t.Run(tc.name, func(t *testing.T) { checkStream(t, tc.r) })
	}
}

// The node shapes EncodeTo writes without building a document: types
// interleaved (node_order), a type split by key order, a type with lists
// (nested too), a type with different key sets; and their refusals, in
// the order AppendEncode finds them.
func TestStreamNodeShapes(t *testing.T) {
	list := wire.ListOf
	cases := map[string][]wire.Node{
		"interleaved": {node("U", 1, "a", vInt(1)), node("M", 2, "b", vStr("x")), node("U", 3, "a", vInt(2))},
		"split": {node("U", 1, "a", vInt(1), "b", vInt(2)), node("V", 2), node("U", 3, "b", vInt(3), "a", vInt(4)),
			node("U", 4, "a", vInt(5), "b", vInt(6)), node("W", 5, "l", list(vInt(1)))},
		"lists": {node("M", 1, "l", list(), "s", vStr("- x")), node("M", 2, "l", list(vInt(1), vStr("a,b"), wire.Null()), "s", vFloat(0.5)),
			node("M", 3, "l", list(list(vInt(1), list()), vStr("y")), "s", wire.Bool(true))},
		"key sets":          {node("U", 1, "a", vInt(1)), node("U", 2, "b", vInt(1)), node("U", 3)},
		"NaN group order":   {node("U", 1, "a", vInt(1)), node("V", 2, "a", vFloat(math.NaN())), node("U", 3, "a", vFloat(math.Inf(1)))},
		"NaN in a list":     {node("U", 1, "l", list(vInt(1))), node("U", 2, "l", list(list(vFloat(math.NaN()))))},
		"NaN in a split":    {node("U", 1, "a", vInt(1), "b", vInt(2)), node("U", 2, "b", vInt(3), "a", vFloat(math.NaN()))},
		"bad key after NaN": {node("U", 1, "a", vFloat(math.NaN())), node("V", 2, "id", vInt(1))},
	}
	for name, nodes := range cases {
		t.Run(name, func(t *testing.T) {
			r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal, Nodes: nodes,
				Edges: []wire.Edge{{From: "U", FromID: 1, To: "M", ToID: 2, Type: "true"}, {From: "U", FromID: 3, To: "M", ToID: 2, Type: "A", Step: wire.Some[int64](2)}}}
			checkStream(t, r)
		})
	}
}

// The refusals of TestGraphEncodeErrors are EncodeTo's too.
func TestStreamEncodeErrors(t *testing.T) {
	ok := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal,
		Nodes: []wire.Node{node("U", 1, "a", vInt(1)), node("U", 2, "a", vFloat(math.NaN()))},
		Rows:  []wire.Row{{{Name: "c"}, {Name: "c"}}}}
	_, want := toon.AppendEncode(nil, ok)
	got, err := streamed(ok)
	if want == nil || err == nil || err.Error() != want.Error() || len(got) != 0 {
		t.Fatalf("EncodeTo: %v after %d bytes; AppendEncode: %v", err, len(got), want)
	}
}

// Generated responses with the shapes above mixed in.
func TestStreamGenerated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.Response().Draw(t, "response")
		keys := []string{"a", "b", "c"}
		for i := range r.Nodes {
			if rapid.Bool().Draw(t, "reshape") {
				r.Nodes[i].Type = rapid.SampledFrom([]string{"U", "V"}).Draw(t, "type")
				r.Nodes[i].Properties = shuffled(t, "props", keys)
			}
		}
		checkStream(t, r)
	})
}

// A list nested as deep as wirecodec.HardMaxDepth passes the limits but not
// the generic encoder's nesting bound; a NaN in a later section is still
// the refusal, in both forms, as the document is checked before it is
// encoded. It walks 10,000 levels on one goroutine, which the race
// detector slows severalfold with nothing to watch; .ci/run runs it
// without -race.
func TestStreamErrorPrecedence(t *testing.T) {
	if raceEnabled {
		t.Skip("10,000 levels on one goroutine; .ci/run runs this without -race")
	}
	c, err := toon.New(toon.Options{Limits: wire.Limits{MaxDepth: wirecodec.HardMaxDepth}})
	if err != nil {
		t.Fatal(err)
	}
	deep := vInt(1)
	for range wirecodec.HardMaxDepth - 1 {
		deep = wire.ListOf(deep)
	}
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Aggregation,
		Nodes: []wire.Node{node("U", 1, "l", deep)},
		Rows:  []wire.Row{{{Name: "c", Value: vFloat(math.NaN())}}}}
	for _, tc := range []struct{ name, want string }{
		{"NaN after", "toon: rows[0].c: unsupported float value NaN"},
		{"deep alone", "toon: value nested deeper than 10000 levels (a cycle?)"},
	} {
		if tc.name == "deep alone" {
			r.Rows = nil
		}
		_, aerr := c.AppendEncode(nil, r)
		var buf bytes.Buffer
		serr := c.EncodeTo(&buf, r)
		if aerr == nil || serr == nil || aerr.Error() != tc.want || serr.Error() != tc.want || buf.Len() != 0 {
			t.Errorf("%s: AppendEncode: %v; EncodeTo: %v after %d bytes; want %s", tc.name, aerr, serr, buf.Len(), tc.want)
		}
	}
}
