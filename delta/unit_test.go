package delta_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	_ "github.com/graphwire/graphwire/codecs"
	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func node(typ string, id int64, kv ...any) wire.Node {
	n := wire.Node{Type: typ, ID: id}
	for i := 0; i < len(kv); i += 2 {
		v, err := wire.ValueOf(kv[i+1])
		if err != nil {
			panic(err)
		}
		n.Properties = append(n.Properties, wire.Prop(kv[i].(string), v))
	}
	return n
}

func resp(nodes ...wire.Node) *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: nodes}
}

// TestFingerprintTellsApart: responses the model keeps apart have distinct
// fingerprints, and those wire.Equal calls equal share one.
func TestFingerprintTellsApart(t *testing.T) {
	a := resp(node("User", 1, "x", 1))
	distinct := map[string]*wire.GraphResponse{
		"int 1":         a,
		"float 1.0":     resp(node("User", 1, "x", 1.0)),
		"string 1":      resp(node("User", 1, "x", "1")),
		"other key":     resp(node("User", 1, "y", 1)),
		"other id":      resp(node("User", 2, "x", 1)),
		"no properties": resp(node("User", 1)),
		"float -0.0":    resp(node("User", 1, "x", math.Copysign(0, -1))),
		"float 0.0":     resp(node("User", 1, "x", 0.0)),
		"empty columns": func() *wire.GraphResponse { r := resp(node("User", 1, "x", 1)); r.Columns = []wire.Column{}; return r }(),
		"empty rows":    func() *wire.GraphResponse { r := resp(node("User", 1, "x", 1)); r.Rows = []wire.Row{}; return r }(),
		"search":        func() *wire.GraphResponse { r := resp(node("User", 1, "x", 1)); r.QueryType = wire.Search; return r }(),
		"type split":    resp(node("Use", 1, "rx", 1)),
		"list [1]":      resp(node("User", 1, "x", []any{1})),
		"two nodes":     resp(node("User", 1, "x", 1), node("User", 1, "x", 1)),
		"pagination v2": func() *wire.GraphResponse {
			r := resp(node("User", 1, "x", 1))
			r.Pagination = &wire.Pagination{TotalRows: wire.Some[int64](0)}
			return r
		}(),
		"pagination v5": func() *wire.GraphResponse {
			r := resp(node("User", 1, "x", 1))
			r.Pagination = &wire.Pagination{Truncated: wire.Some(false)}
			return r
		}(),
		"NaN": resp(node("User", 1, "x", math.NaN())),
	}
	seen := map[delta.Hash]string{}
	for name, r := range distinct {
		h := delta.Fingerprint(r)
		if other, ok := seen[h]; ok {
			t.Errorf("%s and %s share the fingerprint %s", name, other, h)
		}
		seen[h] = name
	}
	nilLists := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{}}}, Edges: nil}
	emptyLists := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{{Type: "User", ID: 1}}, Edges: []wire.Edge{}}
	if delta.Fingerprint(nilLists) != delta.Fingerprint(emptyLists) {
		t.Errorf("nil and empty edges or properties, equal under wire.Equal, have different fingerprints")
	}
}

// TestFingerprintGolden pins the fingerprint of a fixed response: the
// layout is a contract with other implementations (testdata/patch.py).
func TestFingerprintGolden(t *testing.T) {
	got := delta.Fingerprint(resp(node("User", 1, "username", "ada"))).String()
	const want = "sha256:316c831233f468c637714085c07e8b532c7aa6315acc661e936b972eff6fa14f"
	if got != want {
		t.Errorf("fingerprint %s, want %s (testdata/patch.py computes the same)", got, want)
	}
}

// TestFingerprintAcrossCodecs: a response that travelled through any
// lossless codec keeps its fingerprint.
func TestFingerprintAcrossCodecs(t *testing.T) {
	var codecs []string
	for _, info := range wire.List() {
		if info.Fidelity != wire.Exact {
			continue
		}
		codecs = append(codecs, info.Name)
		for i, r := range wiretest.FixedResponses() {
			b, err := wire.EncodeWith(info.Name, r)
			if err != nil {
				t.Fatalf("%s: %v", info.Name, err)
			}
			got, err := wire.DecodeWith(info.Name, b)
			if err != nil {
				t.Fatalf("%s: %v", info.Name, err)
			}
			if delta.Fingerprint(got) != delta.Fingerprint(r) {
				t.Errorf("%s, response %d: the fingerprint changed in the round trip", info.Name, i)
			}
		}
	}
	if len(codecs) < 3 {
		t.Fatalf("only %v are lossless codecs; the built-in ones are not registered", codecs)
	}
	t.Logf("fingerprints kept through %v", codecs)
}

// TestDiffIsSmall: the operations Diff chooses for common edits.
func TestDiffIsSmall(t *testing.T) {
	a, b, c, d := node("A", 1), node("A", 2, "k", "v"), node("A", 3), node("A", 4)
	for _, tc := range []struct {
		name           string
		base, next     []wire.Node
		removed, moved int
		changed, added int
	}{
		{"append", []wire.Node{a, b}, []wire.Node{a, b, c}, 0, 0, 0, 1},
		{"insert", []wire.Node{a, b}, []wire.Node{a, c, b}, 0, 0, 0, 1},
		{"remove", []wire.Node{a, b, c}, []wire.Node{a, c}, 1, 0, 0, 0},
		{"swap", []wire.Node{a, b, c, d}, []wire.Node{a, c, b, d}, 0, 1, 0, 0},
		{"rotate", []wire.Node{a, b, c, d}, []wire.Node{d, a, b, c}, 0, 1, 0, 0},
		{"change", []wire.Node{a, b}, []wire.Node{a, node("A", 2, "k", "w")}, 0, 0, 1, 0},
		{"duplicate added", []wire.Node{a, b}, []wire.Node{a, b, b}, 0, 0, 0, 1},
		{"second of two changed", []wire.Node{a, a}, []wire.Node{a, node("A", 1, "k", 1)}, 0, 0, 1, 0},
	} {
		base, next := resp(tc.base...), resp(tc.next...)
		dl, err := delta.Diff(base, next)
		if err != nil {
			t.Fatal(err)
		}
		o := dl.Nodes
		got := []int{len(o.Removed), len(o.Moved), len(dl.Changed), len(o.Added)}
		if diff := cmp.Diff([]int{tc.removed, tc.moved, tc.changed, tc.added}, got); diff != "" {
			t.Errorf("%s: removed, moved, changed, added (-want +got):\n%s", tc.name, diff)
		}
		patched, err := delta.Patch(base, dl)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := wiretest.Diff(next, patched, wire.Exact); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestPatchRefuses: deltas that contradict their base are *PatchError
// matching ErrCorrupt, each naming the operation; a delta whose check
// does not hold matches ErrWrongBase.
func TestPatchRefuses(t *testing.T) {
	base := resp(node("A", 1), node("A", 2))
	next := resp(node("A", 2, "k", 1), node("A", 3))
	good, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0}, good.Nodes.Removed); diff != "" || len(good.Changed) != 1 || len(good.Nodes.Added) != 1 {
		t.Fatalf("the delta is not one removed, one changed, one added: %+v", good)
	}
	for _, tc := range []struct {
		name, op string
		class    error
		edit     func(d *delta.Delta)
	}{
		{"remove an absent node", "nodes.removed[0]", delta.ErrWrongBase, func(d *delta.Delta) { d.Nodes.Removed[0] = 9 }},
		{"remove twice", "nodes.removed[1]", delta.ErrCorrupt, func(d *delta.Delta) { d.Nodes.Removed = append(d.Nodes.Removed, d.Nodes.Removed[0]) }},
		{"remove and change", "nodes.changed[0]", delta.ErrCorrupt, func(d *delta.Delta) { d.Nodes.Removed = append(d.Nodes.Removed, 1) }},
		{"change twice", "content.nodes", delta.ErrCorrupt, func(d *delta.Delta) { d.Changed = append(d.Changed, 1) }},
		{"add out of range", "nodes.added[0]", delta.ErrWrongBase, func(d *delta.Delta) { d.Nodes.Added[0] = 5 }},
		{"move onto an added one", "nodes.added[0]", delta.ErrCorrupt, func(d *delta.Delta) {
			d.Nodes.Moved = []delta.Move{{From: 1, At: d.Nodes.Added[0]}}
		}},
		{"an added node dropped", "content.nodes", delta.ErrCorrupt, func(d *delta.Delta) { d.Nodes.Added = nil }},
		{"content altered", "check", delta.ErrWrongBase, func(d *delta.Delta) {
			c := *d.Content
			c.Nodes = append([]wire.Node(nil), c.Nodes...)
			c.Nodes[0].Properties = nil
			d.Content = &c
		}},
		{"check altered", "check", delta.ErrWrongBase, func(d *delta.Delta) { d.Check[3]++ }},
		{"remove an absent row", "rows.removed[0]", delta.ErrWrongBase, func(d *delta.Delta) { d.Rows.Removed = []int{0} }},
		{"unchanged with operations", "content", delta.ErrCorrupt, func(d *delta.Delta) { d.Content = nil }},
	} {
		d := *good
		d.Nodes.Removed = slices.Clone(good.Nodes.Removed)
		d.Nodes.Added = slices.Clone(good.Nodes.Added)
		d.Changed = slices.Clone(good.Changed)
		tc.edit(&d)
		got, err := delta.Patch(base, &d)
		var pe *delta.PatchError
		if got != nil || !errors.As(err, &pe) || !errors.Is(err, tc.class) || pe.Op != tc.op {
			t.Errorf("%s: got %v, %v; want a *PatchError at %s matching %v", tc.name, got, err, tc.op, tc.class)
		}
	}
	if _, err := delta.Patch(next, good); !errors.Is(err, delta.ErrWrongBase) {
		t.Errorf("the delta applied to its result: %v, want ErrWrongBase", err)
	}
}

// TestDecodeDeltaErrors: json delta documents that are not deltas, or
// whose header breaks the contract, give a *wire.DecodeError that says
// what is wrong and where.
func TestDecodeDeltaErrors(t *testing.T) {
	chk := `"graphwire_delta":"` + delta.MakeCheck(delta.Hash{1}, delta.Hash{2}).String() + `"`
	head := `{` + chk
	content := `,"content":{"format_version":"","query_type":"search","nodes":[],"edges":[]}`
	for _, tc := range []struct {
		name, in, msg string
		offset        int64
		limit         bool
		class         error
	}{
		{"a response", `{"format_version":"","query_type":"search","nodes":[],"edges":[]}`, "not a delta", 0, false, delta.ErrNotDelta},
		{"version 1", `{"graphwire_delta":1,"base":"sha256:00"}`, `expected a string for "graphwire_delta"`, 19, false, nil},
		{"version 2", `{"graphwire_delta":2,"check":"taVrJ12S6VSssQ7B5aCPtQ"}`, `expected a string for "graphwire_delta"`, 19, false, nil},
		{"a version 2 check", `{"graphwire_delta":"taVrJ12S6VSssQ7B5aCPtQ"}`, "is not a check of 39 decimal digits: not a delta of version 4", 0, false, nil},
		{"unknown key", head + `,"extra":1}`, `"extra" is not a header field`, int64(len(head)) + 1, false, nil},
		{"duplicate key", head + `,` + chk + `}`, `"graphwire_delta" appears twice`, int64(len(head)) + 1, false, nil},
		{"bad check", `{"graphwire_delta":"00"}`, `"00" is not a check of 39 decimal digits`, 0, false, nil},
		{"a check past 2^128", `{"graphwire_delta":"340282366920938463463374607431768211456"}`, `is not a check of 39 decimal digits`, 0, false, nil},
		{"not an integer", head + `,"nodes_added":["0"]}`, `expected an integer for "nodes_added"`, int64(len(head)) + 16, false, nil},
		{"moved unpaired", head + `,"nodes_moved":[0]` + content + `}`, "nodes_moved has 1 positions and nodes_moved_to 0", 0, false, nil},
		{"operations without content", head + `,"nodes_added":[0]}`, "operations without content", 0, false, nil},
		{"references in a delta", head + `,"sent_earlier":"A 1","sent_earlier_at":[0]` + content + `}`, "does not carry references", 0, false, nil},
		{"content error", head + `,"content":{"format_version":"","query_type":"nope","nodes":[],"edges":[]}}`, "query_type", int64(len(head)) + 45, false, nil},
		{"truncated", head, `expected ',' or '}' in document`, int64(len(head)), false, nil},
		{"too many", head + `,"rows_removed":[0,1,2]` + content + `}`, `"rows_removed": more than 2 elements`, int64(len(head)) + 21, true, nil},
	} {
		c, err := jsoncodec.New(jsoncodec.Options{Limits: wire.Limits{MaxElements: 2}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = delta.DecodeDelta(c, []byte(tc.in))
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: got %v, want a *wire.DecodeError", tc.name, err)
			continue
		}
		if !strings.Contains(de.Error(), tc.msg) || de.Offset != tc.offset || errors.Is(err, wire.ErrLimit) != tc.limit ||
			tc.class != nil && !errors.Is(err, tc.class) {
			t.Errorf("%s: got %q (offset %d, limit %v), want %q at offset %d (limit %v, class %v)", tc.name, de.Error(), de.Offset, errors.Is(err, wire.ErrLimit), tc.msg, tc.offset, tc.limit, tc.class)
		}
	}
}

func TestWorthAndChoose(t *testing.T) {
	if !delta.Worth(59, 100, 0) || delta.Worth(60, 100, 0) || !delta.Worth(89, 100, 0.9) {
		t.Errorf("Worth does not follow delta < threshold × full")
	}
	base := resp(node("A", 1, "text", strings.Repeat("x", 500)), node("A", 2))
	next := resp(node("A", 1, "text", strings.Repeat("x", 500)), node("A", 3))
	size := func(d *delta.Delta) (int, error) { b, err := delta.AppendDelta(jsonc, nil, d); return len(b), err }
	full := func(r *wire.GraphResponse) (int, error) { b, err := jsoncodec.AppendEncode(nil, r); return len(b), err }
	for _, tc := range []struct {
		name       string
		base, next *wire.GraphResponse
		threshold  float64
		want       delta.Choice
	}{
		{"same", base, wiretest.Clone(base), 0, delta.SendUnchanged},
		{"small change", base, next, 0, delta.SendDelta},
		{"small change, strict threshold", base, next, 0.1, delta.SendFull},
		{"everything changed", resp(node("B", 1)), resp(node("C", 2)), 0, delta.SendFull},
	} {
		got, d, err := delta.Choose(tc.base, tc.next, tc.threshold, size, full)
		if err != nil || got != tc.want || (got == delta.SendDelta) != (d != nil && !d.Unchanged()) {
			t.Errorf("%s: Choose = %v, %v, %v; want %v", tc.name, got, d, err, tc.want)
		}
	}
	if _, _, err := delta.Choose(base, next, 1.5, size, full); err == nil {
		t.Errorf("threshold 1.5 accepted")
	}
	boom := errors.New("boom")
	if _, _, err := delta.Choose(base, next, 0, func(*delta.Delta) (int, error) { return 0, boom }, full); !errors.Is(err, boom) {
		t.Errorf("a cost function's error: got %v", err)
	}
}

func TestDiffers(t *testing.T) {
	rs := wiretest.FixedResponses()
	d, err := delta.Diff(rs[0], rs[1])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := delta.AppendDelta(jsonc, nil, d)
	same, err := delta.DecodeDelta(jsonc, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := delta.Differs(d, same); got != "" {
		t.Errorf("a delta read back from its document differs at %q", got)
	}
	other := *same
	c := *same.Content
	c.FormatVersion += "x"
	other.Content = &c
	if got := delta.Differs(d, &other); got != "content" {
		t.Errorf("another format_version: Differs = %q", got)
	}
	other = *same
	other.Check[0]++
	if got := delta.Differs(d, &other); got != "check" {
		t.Errorf("another check: Differs = %q", got)
	}
	if len(same.Content.Nodes) > 0 {
		other = *same
		c := *same.Content
		c.Nodes = slices.Clone(c.Nodes)
		c.Nodes[0].ID++
		other.Content = &c
		if got := delta.Differs(d, &other); got == "" {
			t.Error("a node's id changed: Differs sees nothing")
		}
	}
}
