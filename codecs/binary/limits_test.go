package binary

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// encodeUnchecked writes r as AppendEncode would, name table included,
// without the check against the codec's Limits: what a hostile writer sends.
func encodeUnchecked(t *testing.T, f Format, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := Default(f).write(nil, r, true, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNameTableAmplification: a 64 KiB name written once and referenced by
// 200,000 nodes is about 1 MB of input and 13 GB of canonical JSON. Decode
// refuses it by MaxExpansion (8 times the input plus 8 MiB, well below
// MaxMaterializedBytes), counting every use, in time and memory
// proportional to the input.
func TestNameTableAmplification(t *testing.T) {
	name := strings.Repeat("N", 64<<10)
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: make([]wire.Node, 200_000)}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: name, ID: int64(i)}
	}
	for _, f := range formats {
		c := Default(f)
		if _, err := c.AppendEncode(nil, r); !errors.Is(err, wire.ErrLimit) {
			t.Errorf("%s: AppendEncode = %v, want a limit error", f, err)
		}
		data := encodeUnchecked(t, f, r)
		if len(data) > 2<<20 {
			t.Fatalf("%s: the input is %d bytes, not an amplification", f, len(data))
		}
		var err error
		testsupport.Bounded(t, len(data), func() { _, err = c.Decode(data) })
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Limit != "MaxExpansion" {
			t.Fatalf("%s: Decode = %v, want a MaxExpansion *wire.DecodeError", f, err)
		}
		if de.Offset <= 0 || de.Offset >= int64(len(data)) {
			t.Errorf("%s: offset %d of %d", f, de.Offset, len(data))
		}
		t.Logf("%s: refused at offset %d: %v", f, de.Offset, err)
		// The same shape under the limit decodes: 100 uses of the name.
		small := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: r.Nodes[:100]}
		if _, err := c.Decode(encodeUnchecked(t, f, small)); err != nil {
			t.Errorf("%s: 100 uses: %v", f, err)
		}
	}
}

// TestLimitsAtAndPast: responses at each limit round-trip under a small
// Limits; one step past, the encoder refuses with a *wire.EncodeError and the
// decoder refuses the bytes a hostile writer would send, with a
// *wire.DecodeError naming the same limit.
func TestLimitsAtAndPast(t *testing.T) {
	l := wire.Limits{MaxDepth: 3, MaxElements: 4, MaxStringBytes: 10, MaxMaterializedBytes: 600}
	node := func(props ...wire.Property) *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Aggregation, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: props}}}
	}
	deep := func(n int) wire.Value {
		v := wire.Int(1)
		for range n {
			v = wire.ListOf(v)
		}
		return v
	}
	ints := func(n int) wire.Value {
		vs := make([]wire.Value, n)
		for i := range vs {
			vs[i] = wire.Int(int64(i))
		}
		return wire.ListOf(vs...)
	}
	props := func(n int) []wire.Property {
		ps := make([]wire.Property, n)
		for i := range ps {
			ps[i] = wire.Prop(string(rune('a'+i)), wire.Null())
		}
		return ps
	}
	cells := func(n int) wire.Row {
		row := make(wire.Row, n)
		for i := range row {
			row[i] = wire.Cell{Name: string(rune('a' + i)), Value: wire.Int(1)}
		}
		return row
	}
	for _, tc := range []struct {
		name     string
		at, past *wire.GraphResponse
		limit    string
	}{
		{"list depth", node(wire.Prop("l", deep(3))), node(wire.Prop("l", deep(4))), "MaxDepth"},
		{"cell list depth", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "c", Value: deep(3)}}}},
			&wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "c", Value: deep(4)}}}}, "MaxDepth"},
		{"list items", node(wire.Prop("l", ints(4))), node(wire.Prop("l", ints(5))), "MaxElements"},
		{"properties", node(props(4)...), node(props(5)...), "MaxElements"},
		{"node reference properties", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "g", Node: &wire.Node{Type: "T", Properties: props(4)}}}}},
			&wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "g", Node: &wire.Node{Type: "T", Properties: props(5)}}}}}, "MaxElements"},
		{"cells", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{cells(4)}},
			&wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{cells(5)}}, "MaxElements"},
		{"edges", &wire.GraphResponse{QueryType: wire.Aggregation, Edges: make([]wire.Edge, 4)},
			&wire.GraphResponse{QueryType: wire.Aggregation, Edges: make([]wire.Edge, 5)}, "MaxElements"},
		{"string", node(wire.Prop("s", wire.String("0123456789"))), node(wire.Prop("s", wire.String("0123456789a"))), "MaxStringBytes"},
		{"key", node(wire.Prop("0123456789", wire.Null())), node(wire.Prop("0123456789a", wire.Null())), "MaxStringBytes"},
		{"type", &wire.GraphResponse{QueryType: wire.Aggregation, Nodes: []wire.Node{{Type: "0123456789"}}},
			&wire.GraphResponse{QueryType: wire.Aggregation, Nodes: []wire.Node{{Type: "0123456789a"}}}, "MaxStringBytes"},
		{"materialised", sized(t, 600), sized(t, 601), "MaxMaterializedBytes"},
	} {
		for _, f := range formats {
			c, err := New(f, Options{Limits: l})
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, c, tc.at)
			_, err = c.AppendEncode(nil, tc.past)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Limit != tc.limit {
				t.Errorf("%s: %s: AppendEncode one past = %v, want a %s *wire.EncodeError", f, tc.name, err, tc.limit)
			}
			de := mustReject(t, c, encodeUnchecked(t, f, tc.past), tc.name)
			if de.Limit != tc.limit {
				t.Errorf("%s: %s: Decode one past = %v, want Limit %s", f, tc.name, de, tc.limit)
			}
		}
	}
}

// sized returns a response within MaxDepth 3, MaxElements 4 and
// MaxStringBytes 10 whose canonical JSON is exactly n bytes: four nodes of
// four properties, each a list of four strings, shortened a byte at a time.
func sized(t *testing.T, n int64) *wire.GraphResponse {
	t.Helper()
	var lens [4][4][4]int
	build := func() *wire.GraphResponse {
		r := &wire.GraphResponse{QueryType: wire.Search}
		for i := range lens {
			nd := wire.Node{Type: "T", ID: int64(i)}
			for j := range lens[i] {
				var vs []wire.Value
				for k := range lens[i][j] {
					vs = append(vs, wire.String(strings.Repeat("x", lens[i][j][k])))
				}
				nd.Properties = append(nd.Properties, wire.Prop(string(rune('a'+j)), wire.ListOf(vs...)))
			}
			r.Nodes = append(r.Nodes, nd)
		}
		return r
	}
	for i := range lens {
		for j := range lens[i] {
			for k := range lens[i][j] {
				lens[i][j][k] = 10
			}
		}
	}
	size := wirecodec.MaterializedSize(build())
	for i := range lens {
		for j := range lens[i] {
			for k := range lens[i][j] {
				for size > n && lens[i][j][k] > 0 {
					lens[i][j][k]--
					size--
				}
			}
		}
	}
	r := build()
	if got := wirecodec.MaterializedSize(r); got != n {
		t.Fatalf("sized response is %d bytes, want %d", got, n)
	}
	return r
}

func TestOptionsAreWireLimits(t *testing.T) {
	if _, err := New(CBOR, Options{Limits: wire.Limits{MaxDepth: wirecodec.HardMaxDepth + 1}}); err == nil {
		t.Error("New accepted a MaxDepth past wirecodec.HardMaxDepth")
	}
	c, err := New(Msgpack, Options{Limits: wire.Limits{MaxStringBytes: 100}})
	if err != nil {
		t.Fatal(err)
	}
	want := wire.DefaultLimits()
	want.MaxStringBytes = 100
	if got := c.Limits(); got != want {
		t.Errorf("Limits() = %+v, want %+v", got, want)
	}
	r := wiretest.Response().Example(2)
	roundTrip(t, c, r)
}

// TestRepeatedKeyOfManyProperties: past the key set's eager checks, a
// node with a repeated key among thousands reaches the decoder's error.
func TestRepeatedKeyOfManyProperties(t *testing.T) {
	for _, tc := range []struct{ n, dupAt, dupOf int }{{2000, 1999, 3}, {5000, 1500, 1400}, {5000, 4000, 10}} {
		ps := make([]wire.Property, tc.n)
		for i := range ps {
			ps[i] = wire.Prop(strconv.Itoa(i), wire.Int(0))
		}
		ps[tc.dupAt].Key = ps[tc.dupOf].Key
		ps[tc.n-1].Key = ps[tc.dupOf].Key // a later repeat of the same key
		for _, f := range formats {
			b := forceEncode(t, f, &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: ps}}})
			if de := mustReject(t, Default(f), b, "a repeated key among many"); !strings.Contains(de.Msg, strconv.Quote(ps[tc.dupOf].Key)+" given twice") {
				t.Errorf("%s: %v, want a repeated key", f, de)
			}
		}
	}
}
