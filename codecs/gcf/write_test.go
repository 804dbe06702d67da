package gcf_test

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sameAsGeneric checks that AppendEncode writes, for r, the bytes (or the
// error) of the generic path, and reports whether the writer took r
// itself.
func sameAsGeneric(t interface {
	Helper()
	Fatalf(string, ...any)
}, c *gcf.Codec, r *wire.GraphResponse) bool {
	t.Helper()
	want, wantErr := c.AppendGeneric([]byte("prefix"), r)
	got, err := c.AppendEncode([]byte("prefix"), r)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("AppendEncode error %v, generic path %v\n%s", err, wantErr, wiretest.Describe(r))
	}
	if err != nil {
		if diff := cmp.Diff(wantErr.Error(), err.Error()); diff != "" {
			t.Fatalf("errors differ (-generic +AppendEncode):\n%s", diff)
		}
		return false
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendEncode differs from the generic path:\n%s\ngeneric:\n%s\ngot:\n%s", wiretest.ByteDiff(want, got), want, got)
	}
	_, fast := c.AppendFast(nil, r)
	return fast
}

// TestWriterMatchesGenericCorpus: on every corpus case the writer, not the
// generic path, writes the document, and writes the generic path's bytes.
func TestWriterMatchesGenericCorpus(t *testing.T) {
	c := gcf.Default()
	for _, cs := range corpusCases(t) {
		if !sameAsGeneric(t, c, cs.Response) {
			t.Errorf("%s: the writer gave the response up", cs.ID())
		}
	}
}

// TestWriterMatchesGenericGenerated: generated responses, awkward names,
// lists, node cells and refused shapes included.
func TestWriterMatchesGenericGenerated(t *testing.T) {
	c := gcf.Default()
	small, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxDepth: 2, MaxStringBytes: 40}})
	if err != nil {
		t.Fatal(err)
	}
	fast := 0
	rapid.Check(t, func(rt *rapid.T) {
		awkward := rapid.Bool().Draw(rt, "awkward")
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: awkward, NonFinite: rapid.Bool().Draw(rt, "nonfinite")}).Draw(rt, "r")
		if sameAsGeneric(rt, c, r) {
			fast++
		}
		sameAsGeneric(rt, small, r)
	})
	rapid.Check(t, func(rt *rapid.T) {
		refuse := rapid.SampledFrom(wiretest.Refusals()).Draw(rt, "refuse")
		r := wiretest.ResponseWith(wiretest.Options{Refuse: refuse}).Draw(rt, "r")
		sameAsGeneric(rt, c, r)
	})
	if fast == 0 {
		t.Error("the writer gave up every generated response")
	}
}

// TestWriterShapes: the shapes the writer leaves to the generic path, and
// a few it writes, against the generic path's bytes.
func TestWriterShapes(t *testing.T) {
	c := gcf.Default()
	node := func(typ string, id int64, ps ...wire.Property) wire.Node {
		return wire.Node{Type: typ, ID: id, Properties: ps}
	}
	p := wire.Prop
	s, i, l := wire.String, wire.Int, wire.ListOf
	many := make([]wire.Property, 40)
	for k := range many {
		many[k] = p("k"+strconv.Itoa(k), i(int64(k)))
	}
	cases := []struct {
		name string
		r    *wire.GraphResponse
		fast bool
	}{
		{"sparse and reordered nodes", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{
			node("A", 1, p("x", i(1)), p("y", i(2))), node("A", 2, p("y", i(3))), node("A", 3, p("y", i(1)), p("x", i(2))),
			node("B", 4), node("A", 5, p("z", wire.Null())),
		}}, true},
		{"a wide union", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{
			node("A", 1, many...), node("A", 2, many[20:]...), node("A", 3, append(append([]wire.Property{}, many[30:]...), many[:5]...)...),
		}}, true},
		{"nested lists", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{
			node("A", 1, p("l", l(l(s("a"), l()), s("b,c"), wire.Float(2), wire.Float(1e-9)))), node("A", 2, p("l", l())),
		}}, true},
		{"a key with >", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{node("A", 1, p("a>b", i(1)))}}, false},
		{"a NaN", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{node("A", 1, p("f", wire.Float(math.NaN())))}}, false},
		{"node cells of different keys", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 1, Properties: []wire.Property{p("a", i(1))}}}},
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 2}}},
		}}, false},
		{"node cells, a null and an absent cell", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 1, Properties: []wire.Property{p("a b", i(1))}}}, {Name: "n", Value: i(3)}},
			{{Name: "u", Value: wire.Null()}, {Name: "n", Value: l(i(1))}},
			{{Name: "n", Value: i(4)}},
			{{Name: "n", Value: i(4)}, {Name: "u", Value: wire.Null()}},
		}}, true},
		{"empty rows", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{}, {}}}, false},
		{"edges and columns in first-seen order", &wire.GraphResponse{QueryType: wire.PathFinding,
			Edges:        []wire.Edge{{From: "A", To: "B", Type: "t", Step: wire.SomeInt(1)}, {From: "A", To: "B", Type: "t", Depth: wire.SomeInt(2), Step: wire.SomeInt(3)}},
			Columns:      []wire.Column{{Name: "n", Function: "count", Property: wire.SomeString("p")}, {Name: "m", Function: "max", Target: wire.SomeString("t"), Property: wire.SomeString("q")}},
			GroupColumns: []wire.GroupColumn{}, Rows: []wire.Row{},
			Pagination: &wire.Pagination{HasMore: true, Truncated: wire.SomeBool(false), NextCursor: wire.SomeString("a b|c")},
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameAsGeneric(t, c, tc.r); got != tc.fast {
				t.Errorf("the writer took the response: %v, want %v", got, tc.fast)
			}
		})
	}
}
