package gcfvalue_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

func init() {
	handlers["graph-stream-encode"] = runGraphStreamEncode
	handlers["session"] = runGraphSession
	handlers["delta"] = runGraphDelta
	handlers["delta-verify"] = runGraphDelta
	handlers["pack-root"] = runGraphPackRoot
}

func isGraphText(s string) bool { return strings.HasPrefix(s, "GCF profile=graph") }

func num(v gcfvalue.Value) float64 {
	n, _ := v.(jsonvalue.Number)
	return n.Float64()
}

// graphFrom reads a graph fixture's JSON ({tool, tokenBudget, tokensUsed,
// symbols: [{qualifiedName, kind, score, provenance, distance}], edges:
// [{source, target, edgeType, status}]}).
func graphFrom(v gcfvalue.Value) *gcfvalue.Graph {
	g := &gcfvalue.Graph{Tool: strMember(v, "tool"), TokenBudget: int(num(member(v, "tokenBudget"))),
		TokensUsed: int(num(member(v, "tokensUsed")))}
	g.Symbols = symbolsFrom(member(v, "symbols"))
	g.Edges = edgesFrom(member(v, "edges"))
	return g
}

func symbolsFrom(v gcfvalue.Value) []gcfvalue.Symbol {
	return itemsFrom(v, func(s gcfvalue.Value) gcfvalue.Symbol {
		return gcfvalue.Symbol{QualifiedName: strMember(s, "qualifiedName"), Kind: strMember(s, "kind"),
			Score: num(member(s, "score")), Provenance: strMember(s, "provenance"), Distance: int(num(member(s, "distance")))}
	})
}

func edgesFrom(v gcfvalue.Value) []gcfvalue.Edge {
	return itemsFrom(v, func(e gcfvalue.Value) gcfvalue.Edge {
		return gcfvalue.Edge{Source: strMember(e, "source"), Target: strMember(e, "target"),
			EdgeType: strMember(e, "edgeType"), Status: strMember(e, "status")}
	})
}

// itemsFrom converts each item of the array v, nil when v is none.
func itemsFrom[T any](v gcfvalue.Value, conv func(gcfvalue.Value) T) []T {
	var out []T
	items, _ := v.([]jsonvalue.Value)
	for _, it := range items {
		out = append(out, conv(it))
	}
	return out
}

// graphValue is g as the fixtures write it, limited to the top-level
// fields want has.
func graphValue(g *gcfvalue.Graph, want gcfvalue.Value) gcfvalue.Value {
	all := map[string]jsonvalue.Value{
		"tool": g.Tool, "tokenBudget": jsonvalue.Int(int64(g.TokenBudget)), "tokensUsed": jsonvalue.Int(int64(g.TokensUsed)), "packRoot": g.PackRoot,
	}
	syms := []jsonvalue.Value{}
	for _, s := range g.Symbols {
		syms = append(syms, &jsonvalue.Object{Members: []jsonvalue.Member{{Key: "qualifiedName", Value: s.QualifiedName}, {Key: "kind", Value: s.Kind},
			{Key: "score", Value: jsonvalue.Float(s.Score)}, {Key: "provenance", Value: s.Provenance}, {Key: "distance", Value: jsonvalue.Int(int64(s.Distance))}}})
	}
	edges := []jsonvalue.Value{}
	for _, e := range g.Edges {
		edges = append(edges, &jsonvalue.Object{Members: []jsonvalue.Member{{Key: "source", Value: e.Source}, {Key: "target", Value: e.Target},
			{Key: "edgeType", Value: e.EdgeType}, {Key: "status", Value: e.Status}}})
	}
	all["symbols"], all["edges"] = syms, edges
	out := &jsonvalue.Object{}
	w, _ := want.(*jsonvalue.Object)
	for _, m := range w.Members {
		out.Add(m.Key, all[m.Key])
	}
	return out
}

// graphSnapshotValue is a snapshot ({symbols, edges}) with edges' status
// left out, as the delta fixtures write it.
func graphSnapshotValue(g *gcfvalue.Graph) gcfvalue.Value {
	for i := range g.Edges {
		g.Edges[i].Status = ""
	}
	return graphValue(g, &jsonvalue.Object{Members: []jsonvalue.Member{{Key: "symbols"}, {Key: "edges"}}})
}

func runGraphEncode(t *testing.T, f *fixture) {
	g := graphFrom(f.value(t, "input"))
	got, err := gcfvalue.AppendGraph(nil, g, gcfvalue.GraphOptions{})
	f.expect(t, "graph encode", got, err)
	back, err := gcfvalue.DecodeGraph(got, gcfvalue.Options{})
	if err != nil {
		t.Fatalf("decode back: %v", err)
	}
	if len(back.Symbols) != len(g.Symbols) || len(back.Edges) != len(g.Edges) {
		t.Fatalf("decoded back %d symbols, %d edges", len(back.Symbols), len(back.Edges))
	}
}

func runGraphDecode(t *testing.T, f *fixture) {
	g, err := gcfvalue.DecodeGraph([]byte(f.str(t, "input")), gcfvalue.Options{})
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	want := f.value(t, "expected")
	if d := cmp.Diff(norm(want), norm(graphValue(g, want))); d != "" {
		t.Fatalf("graph decode differs (-expected +decoded):\n%s", d)
	}
}

// graphError decodes a graph-profile error input with the decoder of its
// kind of payload.
func graphError(in []byte) error {
	if strings.Contains(strings.SplitN(string(in), "\n", 2)[0], " delta=true") {
		_, err := gcfvalue.DecodeGraphDelta(in, gcfvalue.Options{})
		return err
	}
	_, err := gcfvalue.DecodeGraph(in, gcfvalue.Options{})
	return err
}

func runGraphStreamEncode(t *testing.T, f *fixture) {
	opts := gcfvalue.GraphOptions{Streaming: true}
	if o, ok := f.fields["options"]; ok {
		v, err := gcfvalue.ParseJSON(o)
		if err != nil {
			t.Fatal(err)
		}
		opts.LabeledCounts, _ = member(v, "labeledTrailerCounts").(bool)
	}
	got, err := gcfvalue.AppendGraph(nil, graphFrom(f.value(t, "input")), opts)
	f.expect(t, "stream encode", got, err)
	if _, err := gcfvalue.DecodeGraph(got, gcfvalue.Options{}); err != nil {
		t.Fatalf("decode back: %v", err)
	}
}

func runGraphSession(t *testing.T, f *fixture) {
	calls, _ := f.value(t, "calls").([]jsonvalue.Value)
	if len(calls) == 0 {
		t.Fatal("no calls")
	}
	s := gcfvalue.NewGraphSession()
	for i, c := range calls {
		got, err := s.Append(nil, graphFrom(member(c, "input")))
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if want := strMember(c, "expected"); string(got) != want {
			t.Fatalf("call %d\n got: %q\nwant: %q", i, got, want)
		}
	}
}

func runGraphDelta(t *testing.T, f *fixture) {
	var in string
	if json := f.raw(t, "input"); len(json) > 0 && json[0] != '"' {
		v := f.value(t, "input")
		d := &gcfvalue.GraphDelta{Tool: strMember(v, "tool"), BaseRoot: strMember(v, "baseRoot"), NewRoot: strMember(v, "newRoot"),
			Removed: symbolsFrom(member(v, "removed")), Added: symbolsFrom(member(v, "added")),
			RemovedEdges: edgesFrom(member(v, "removedEdges")), AddedEdges: edgesFrom(member(v, "addedEdges"))}
		dt, ft := int(num(member(v, "deltaTokens"))), int(num(member(v, "fullTokens")))
		d.TokensUsed = dt
		if ft > 0 {
			d.Savings = gcfvalue.SavingsPercent(dt, ft)
		}
		got, err := gcfvalue.AppendGraphDelta(nil, d)
		f.expect(t, "graph delta", got, err)
		if _, err := gcfvalue.DecodeGraphDelta(got, gcfvalue.Options{}); err != nil {
			t.Fatalf("decode back: %v", err)
		}
		return
	}
	in = f.str(t, "input")
	d, err := gcfvalue.DecodeGraphDelta([]byte(in), gcfvalue.Options{})
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	base := graphFrom(f.value(t, "base_snapshot"))
	next, err := d.Apply(base)
	if _, ok := f.fields["expectedError"]; ok {
		checkErr(t, err, f.str(t, "expectedError"))
		return
	}
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if r, _ := gcfvalue.GraphPackRoot(base); r != f.str(t, "base_root") {
		t.Fatalf("base root %s, want %s", r, f.str(t, "base_root"))
	}
	if d.NewRoot != f.str(t, "new_root") {
		t.Fatalf("new_root %s, want %s", d.NewRoot, f.str(t, "new_root"))
	}
	want := graphFrom(f.value(t, "expected_snapshot"))
	if diff := cmp.Diff(norm(graphSnapshotValue(want)), norm(graphSnapshotValue(next))); diff != "" {
		t.Fatalf("applied snapshot (-want +got):\n%s", diff)
	}
}

func runGraphPackRoot(t *testing.T, f *fixture) {
	g := graphFrom(f.value(t, "input"))
	b, err := gcfvalue.GraphCanonical(g)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.str(t, "canonicalBytes"); string(b) != want {
		t.Fatalf("canonical bytes %q, want %q", b, want)
	}
	r, err := gcfvalue.GraphPackRoot(g)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.str(t, "expected"); r != want {
		t.Fatalf("pack root %s, want %s", r, want)
	}
}
