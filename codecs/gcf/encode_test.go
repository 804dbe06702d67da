package gcf_test

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// canonical checks that AppendEncode writes, for r, GCF in the canonical
// form: gcfvalue reads it and writes the value it reads as the same
// bytes. A refusal must be an *wire.EncodeError that leaves dst as it
// was. It reports whether r was written.
func canonical(t interface {
	Helper()
	Fatalf(string, ...any)
}, c *gcf.Codec, r *wire.GraphResponse) bool {
	t.Helper()
	got, err := c.AppendEncode([]byte("prefix"), r)
	if err != nil {
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || string(got) != "prefix" {
			t.Fatalf("AppendEncode = %q, %v", got, err)
		}
		return false
	}
	got = got[len("prefix"):]
	opts := gcfvalue.Options{Limits: wire.Limits{MaxDepth: wirecodec.HardMaxDepth}}
	v, err := gcfvalue.Decode(got, opts)
	if err != nil {
		t.Fatalf("gcfvalue reads the text: %v\n%s", err, got)
	}
	want, err := gcfvalue.AppendEncode(nil, v, opts)
	if err != nil {
		t.Fatalf("gcfvalue writes the value read: %v\n%s", err, got)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendEncode differs from the canonical form:\n%s\ncanonical:\n%s\ngot:\n%s", wiretest.ByteDiff(want, got), want, got)
	}
	return true
}

// TestWriterCanonicalCorpus: every corpus case is written, in the
// canonical form.
func TestWriterCanonicalCorpus(t *testing.T) {
	c := gcf.Default()
	for _, cs := range corpusCases(t) {
		if !canonical(t, c, cs.Response) {
			t.Errorf("%s: refused", cs.ID())
		}
	}
}

// TestWriterCanonicalGenerated: generated responses, awkward names,
// lists, node cells and refused shapes included.
func TestWriterCanonicalGenerated(t *testing.T) {
	c := gcf.Default()
	small, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxDepth: 2, MaxStringBytes: 40}})
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	rapid.Check(t, func(rt *rapid.T) {
		awkward := rapid.Bool().Draw(rt, "awkward")
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: awkward, NonFinite: rapid.Bool().Draw(rt, "nonfinite")}).Draw(rt, "r")
		if canonical(rt, c, r) {
			written++
		}
		canonical(rt, small, r)
	})
	rapid.Check(t, func(rt *rapid.T) {
		refuse := rapid.SampledFrom(wiretest.Refusals()).Draw(rt, "refuse")
		r := wiretest.ResponseWith(wiretest.Options{Refuse: refuse}).Draw(rt, "r")
		if canonical(rt, c, r) {
			rt.Fatalf("AppendEncode wrote a response with %v", refuse)
		}
	})
	if written == 0 {
		t.Error("AppendEncode refused every generated response")
	}
}

// TestWriterShapes: the awkward shapes of the layout (names with '>',
// node cells a table cannot flatten, rows with no column, lists) in the
// canonical form, and refusals.
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
		want bool // written, not refused
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
		{"a key with >", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{node("A", 1, p("a>b", i(1)))}}, true},
		{"keys with > out of order", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{
			node("A", 1, p("a>b", i(1)), p("x", s("y")), p("d>", l(i(1), i(2)))), node("A", 2, p("x", i(2)), p("a>b", l())),
		}}, true},
		{"a NaN", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{node("A", 1, p("f", wire.Float(math.NaN())))}}, false},
		{"node cells of different keys", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 1, Properties: []wire.Property{p("a", i(1))}}}},
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 2}}},
		}}, true},
		{"node cells with lists, a scalar beside them, > names", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 1, Properties: []wire.Property{p("a", l(i(1), l(s("q")))), p("b>c", i(3)), p("", i(1))}}}, {Name: "x", Value: l(i(1))}, {Name: "y>z", Value: s("w")}},
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 2, Properties: []wire.Property{p("a", l())}}}, {Name: "y>z", Node: &wire.Node{Type: "V", ID: 3}}},
			{{Name: "u", Value: i(5)}},
		}}, true},
		{"rows of > names only", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{
			{{Name: "a>b", Value: i(1)}, {Name: "c>d", Value: l(i(1))}}, {{Name: "c>d", Value: i(1)}, {Name: "a>b", Node: &wire.Node{Type: "U", ID: 1}}}, {},
		}}, true},
		{"node cells, a null and an absent cell", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{
			{{Name: "u", Node: &wire.Node{Type: "U", ID: 1, Properties: []wire.Property{p("a b", i(1))}}}, {Name: "n", Value: i(3)}},
			{{Name: "u", Value: wire.Null()}, {Name: "n", Value: l(i(1))}},
			{{Name: "n", Value: i(4)}},
			{{Name: "n", Value: i(4)}, {Name: "u", Value: wire.Null()}},
		}}, true},
		{"empty rows", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{}, {}}}, true},
		{"edges and columns in first-seen order", &wire.GraphResponse{QueryType: wire.PathFinding,
			Edges:        []wire.Edge{{From: "A", To: "B", Type: "t", Step: wire.Some[int64](1)}, {From: "A", To: "B", Type: "t", Depth: wire.Some[int64](2), Step: wire.Some[int64](3)}},
			Columns:      []wire.Column{{Name: "n", Function: "count", Property: wire.Some("p")}, {Name: "m", Function: "max", Target: wire.Some("t"), Property: wire.Some("q")}},
			GroupColumns: []wire.GroupColumn{}, Rows: []wire.Row{},
			Pagination: &wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("a b|c")},
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := canonical(t, c, tc.r); got != tc.want {
				t.Errorf("written: %v, want %v", got, tc.want)
			}
		})
	}
}
