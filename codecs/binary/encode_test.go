package binary

import (
	"bytes"
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

var formats = []Format{Msgpack, CBOR}

// roundTrip encodes r with c, checks the encoding is deterministic and
// decodes back to r exactly, and that bytes already in dst are kept.
// tb is what roundTrip needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func roundTrip(t tb, c *Codec, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		t.Fatalf("%s: encode: %v", c.format, err)
	}
	again, err := c.AppendEncode([]byte("prefix"), r)
	if err != nil {
		t.Fatalf("%s: second encode: %v", c.format, err)
	}
	if !bytes.Equal(again[:6], []byte("prefix")) || !bytes.Equal(again[6:], b) {
		t.Fatalf("%s: encoding is not deterministic or does not append", c.format)
	}
	got, err := c.Decode(b)
	if err != nil {
		t.Fatalf("%s: decode: %v", c.format, err)
	}
	if diff := wiretest.Diff(r, got, wire.Exact); diff != "" {
		t.Fatalf("%s: round trip (-want +got):\n%s", c.format, diff)
	}
	return b
}

// TestRoundTripGenerated runs the property over generated responses: with
// awkward names, NaN and infinities, for each codec. rapid.Check runs 100
// cases by default; -rapid.checks raises it, and the loop below adds
// 2,000 seeded examples per codec so the acceptance count holds in every
// run.
func TestRoundTripGenerated(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true})
	for _, f := range formats {
		c := Default(f)
		t.Run(f.String(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				roundTrip(t, c, gen.Draw(t, "response"))
			})
			for seed := 0; seed < 2000; seed++ {
				roundTrip(t, c, gen.Example(seed))
			}
		})
	}
}

func TestRoundTripEdgeValues(t *testing.T) {
	nan := math.Float64frombits(0x7ff4000000000001) // signalling NaN with a payload
	qnan := math.Float64frombits(0xfff8_0000_dead_beef)
	vals := []wire.Value{
		wire.Null(), wire.Bool(true), wire.Bool(false),
		wire.Int(0), wire.Int(1), wire.Int(-1), wire.Int(math.MaxInt64), wire.Int(math.MinInt64),
		wire.Int(1<<53 + 1), wire.Int(127), wire.Int(128), wire.Int(-32), wire.Int(-33), wire.Int(255), wire.Int(256),
		wire.Float(0), wire.Float(math.Copysign(0, -1)), wire.Float(1), wire.Float(1.5), wire.Float(0.1),
		wire.Float(math.Inf(1)), wire.Float(math.Inf(-1)), wire.Float(nan), wire.Float(qnan), wire.Float(math.NaN()),
		wire.Float(5e-324), wire.Float(math.MaxFloat64), wire.Float(float64(math.SmallestNonzeroFloat32)),
		wire.Float(65504), wire.Float(6e-8), wire.Float(1 << 53),
		wire.String(""), wire.String("true"), wire.String("null"), wire.String("1"), wire.String("日本語 😀"),
		wire.ListOf(), wire.ListOf(wire.Int(1), wire.Float(1)), wire.ListOf(wire.ListOf(wire.Null())),
	}
	props := make([]wire.Property, len(vals))
	for i, v := range vals {
		props[i] = wire.Prop("k"+string(rune('A'+i%26))+string(rune('a'+i/26)), v)
	}
	r := &wire.GraphResponse{
		FormatVersion: "", QueryType: wire.Aggregation,
		Nodes: []wire.Node{{Type: "User", ID: math.MinInt64, Properties: props}, {Type: "User", ID: math.MaxInt64}},
		Edges: []wire.Edge{
			{From: "User", FromID: 1, To: "User", ToID: 2, Type: "R"},
			{From: "User", FromID: 1, To: "User", ToID: 2, Type: "R", Depth: wire.Some[int64](0)},
			{From: "User", FromID: 1, To: "User", ToID: 2, Type: "R", PathID: wire.Some[int64](0)},
			{From: "User", FromID: 1, To: "User", ToID: 2, Type: "R", Step: wire.Some[int64](-1)},
		},
		Columns: []wire.Column{{Name: "c", Function: "count"}, {Name: "d", Function: "sum", Property: wire.Some("")},
			{Name: "e", Function: "min", Target: wire.Some("")}},
		GroupColumns: []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "u", Entity: wire.Some("User")},
			{Name: "s", Kind: wire.GroupByProperty, Node: "u", Property: wire.Some("state")},
			{Name: "t", Kind: wire.GroupByProperty, Node: ""}},
		Rows: []wire.Row{
			{{Name: "u", Node: &wire.Node{Type: "User", ID: 7}}, {Name: "s", Value: wire.String("x")}},
			{{Name: "u", Node: &wire.Node{Type: "User", ID: 8, Properties: props[:3]}}, {Name: "s", Value: wire.Null()}},
			{},
		},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](0)},
	}
	empty := []*wire.GraphResponse{
		{QueryType: wire.Traversal},
		{QueryType: wire.Search, Columns: []wire.Column{}},
		{QueryType: wire.Search, GroupColumns: []wire.GroupColumn{}},
		{QueryType: wire.Search, Rows: []wire.Row{}},
		{QueryType: wire.Search, Pagination: &wire.Pagination{TotalRows: wire.Some[int64](0)}},
	}
	for _, f := range formats {
		c := Default(f)
		roundTrip(t, c, r)
		for _, e := range empty {
			roundTrip(t, c, e)
		}
	}
}

// TestEncodeAllocations: an encode allocates its output only, and nothing
// when the caller's buffer has room, however often the garbage collector
// runs between encodes; DecodeDocument reads a response with the
// allocations of Decode, no more.
func TestEncodeAllocations(t *testing.T) {
	if raceSlowdown > 1 {
		t.Skip("the race detector allocates on its own")
	}
	r := benchCases()[1].resp
	for _, f := range formats {
		c := Default(f)
		out, err := c.AppendEncode(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, len(out))
		gc := 0
		fresh := testing.AllocsPerRun(20, func() {
			if gc++; gc%4 == 0 {
				runtime.GC()
			}
			if _, err := c.AppendEncode(nil, r); err != nil {
				t.Fatal(err)
			}
		})
		into := testing.AllocsPerRun(20, func() {
			if gc++; gc%4 == 0 {
				runtime.GC()
			}
			if _, err := c.AppendEncode(buf[:0], r); err != nil {
				t.Fatal(err)
			}
		})
		if fresh != 1 || into != 0 {
			t.Errorf("%s: %v allocations an encode, %v into a buffer with room; want 1 and 0", f, fresh, into)
		}
		// A collection empties the decoders' pool, which costs the next
		// decode an allocation: the two are counted without one.
		// The first case is small enough that the decoders' slabs, sized
		// by what earlier decodes read, take the same count each time.
		data, err := c.AppendEncode(nil, benchCases()[0].resp)
		if err != nil {
			t.Fatal(err)
		}
		gcPercent := debug.SetGCPercent(-1)
		plain := testing.AllocsPerRun(20, func() { _, _ = c.Decode(data) })
		doc := testing.AllocsPerRun(20, func() { _, _, _ = c.DecodeDocument(data) })
		debug.SetGCPercent(gcPercent)
		if doc != plain {
			t.Errorf("%s: DecodeDocument %v allocations, Decode %v", f, doc, plain)
		}
	}
}
