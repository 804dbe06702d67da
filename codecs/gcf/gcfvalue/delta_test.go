package gcfvalue_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// genSet draws a keyed set of up to 8 rows {id, v, s}, ids unique, some
// rows without s (absent), some with a nested value.
func genSet(t *rapid.T, label string) *gcfvalue.KeyedSet {
	ids := rapid.SliceOfNDistinct(rapid.IntRange(1, 20), 0, 8, rapid.ID[int]).Draw(t, label+" ids")
	s := &gcfvalue.KeyedSet{Name: "items", Key: "id", Fields: []string{"id", "v", "s"}}
	for _, id := range ids {
		r := &jsonvalue.Object{}
		r.Add("id", jsonvalue.Int(int64(id)))
		r.Add("v", jsonvalue.Int(int64(rapid.IntRange(0, 3).Draw(t, "v"))))
		switch rapid.IntRange(0, 3).Draw(t, "s") {
		case 0:
		case 1:
			r.Add("s", nil)
		case 2:
			r.Add("s", []jsonvalue.Value{"a", jsonvalue.Int(1)})
		default:
			r.Add("s", "x|y")
		}
		s.Rows = append(s.Rows, r)
	}
	return s
}

// TestDeltaRoundTrip: the delta between two sets, written and read back,
// turns the first into a set with the second's root; and the base is left
// as it was.
func TestDeltaRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, next := genSet(t, "base"), genSet(t, "next")
		d, err := gcfvalue.Diff(base, next)
		if err != nil {
			t.Fatal(err)
		}
		text, err := gcfvalue.AppendDelta(nil, d, gcfvalue.Options{})
		if err != nil {
			t.Fatal(err)
		}
		back, err := gcfvalue.DecodeDelta(text, gcfvalue.Options{})
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, text)
		}
		before, _ := base.Root()
		got, err := back.Apply(base)
		if err != nil {
			t.Fatalf("apply: %v\n%s", err, text)
		}
		want, _ := next.Root()
		if r, _ := got.Root(); r != want {
			t.Fatalf("applied root %s, want %s\n%s", r, want, text)
		}
		if r, _ := base.Root(); r != before {
			t.Fatal("Apply modified the base")
		}
	})
}

// TestSessionConsumer: a consumer that applies every payload of a session
// (full: take it; delta: apply; unchanged: keep) holds the producer's set
// after every turn, under both policies.
func TestSessionConsumer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := gcfvalue.Policy{N: rapid.IntRange(0, 4).Draw(t, "n"), SizeGuard: rapid.Bool().Draw(t, "guard")}
		s := gcfvalue.NewSession("tool", p, gcfvalue.Options{})
		set := genSet(t, "start")
		first, err := s.Start(set)
		if err != nil {
			t.Fatal(err)
		}
		held := readFull(t, first)
		for turn := range rapid.IntRange(1, 6).Draw(t, "turns") {
			set = genSet(t, "turn "+strconv.Itoa(turn))
			wire, full, err := s.Next(set)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := gcfvalue.DecodeDocument(wire, gcfvalue.Options{})
			if err != nil {
				t.Fatalf("decode: %v\n%s", err, wire)
			}
			switch {
			case full:
				held = readFull(t, wire)
			case hasField(doc, "unchanged"):
				if r, _ := doc.Get("pack_root"); r != root(t, held) {
					t.Fatalf("unchanged names root %s, held %s", r, root(t, held))
				}
			default:
				d, err := gcfvalue.DecodeDelta(wire, gcfvalue.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if held, err = d.Apply(held); err != nil {
					t.Fatalf("apply: %v\n%s", err, wire)
				}
			}
			if root(t, held) != root(t, set) {
				t.Fatalf("turn %d: consumer holds %s, producer %s", turn, root(t, held), root(t, set))
			}
		}
	})
}

func hasField(d *gcfvalue.Document, k string) bool { _, ok := d.Get(k); return ok }

func root(t *rapid.T, s *gcfvalue.KeyedSet) string {
	r, err := s.Root()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readFull reads a full payload back into a keyed set and checks its
// pack_root.
func readFull(t *rapid.T, text []byte) *gcfvalue.KeyedSet {
	doc, err := gcfvalue.DecodeDocument(text, gcfvalue.Options{})
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, text)
	}
	key, _ := doc.Get("key")
	s := &gcfvalue.KeyedSet{Key: key}
	o := doc.Value.(*jsonvalue.Object)
	if o.Len() != 1 {
		t.Fatalf("a full payload of %d sections", o.Len())
	}
	s.Name = o.Members[0].Key
	for _, r := range o.Members[0].Value.([]jsonvalue.Value) {
		s.Rows = append(s.Rows, r.(*jsonvalue.Object))
	}
	if r, _ := doc.Get("pack_root"); r != root(t, s) {
		t.Fatalf("pack_root %s, rows hash to %s\n%s", r, root(t, s), text)
	}
	return s
}

// TestApplyRefusals: a delta that does not fit the base is refused with
// the kind that says why.
func TestApplyRefusals(t *testing.T) {
	row := func(id int64) *jsonvalue.Object {
		o := &jsonvalue.Object{}
		o.Add("id", jsonvalue.Int(id))
		return o
	}
	base := &gcfvalue.KeyedSet{Key: "id", Rows: []*jsonvalue.Object{row(1), row(2)}}
	br, _ := base.Root()
	cases := []struct {
		d    gcfvalue.Delta
		kind gcfvalue.Kind
		says string
	}{
		{gcfvalue.Delta{Key: "id", BaseRoot: "sha256:00"}, gcfvalue.KindRootMismatch, "base_root"},
		{gcfvalue.Delta{Key: "id", BaseRoot: br, Added: []*jsonvalue.Object{row(1)}}, gcfvalue.KindDelta, "already exists"},
		{gcfvalue.Delta{Key: "id", BaseRoot: br, Changed: []*jsonvalue.Object{row(3)}}, gcfvalue.KindDelta, "does not exist"},
		{gcfvalue.Delta{Key: "id", BaseRoot: br, Removed: []jsonvalue.Value{jsonvalue.Int(3)}}, gcfvalue.KindDelta, "does not exist"},
		{gcfvalue.Delta{Key: "id", BaseRoot: br, Removed: []jsonvalue.Value{jsonvalue.Int(1)}, Changed: []*jsonvalue.Object{row(1)}}, gcfvalue.KindDelta, "twice"},
		{gcfvalue.Delta{Key: "id", BaseRoot: br, NewRoot: "sha256:00"}, gcfvalue.KindRootMismatch, "new_root"},
	}
	for i, c := range cases {
		got, err := c.d.Apply(base)
		if got != nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("case %d: Apply = %v, %v; want %s saying %q", i, got, err, c.kind, c.says)
		}
	}
}
