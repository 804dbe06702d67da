package wirecodec_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wirecodec"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// rawString draws any bytes as a string: invalid UTF-8, control
// characters, quotes and backslashes included.
var rawString = rapid.Custom(func(t *rapid.T) string {
	b := rapid.SliceOfN(rapid.SampledFrom([]byte{'a', '"', '\\', '\n', 0, 0x1f, 0x7f, 0x80, 0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xed, 0xa0, 0xff, '<'}), 0, 40).Draw(t, "bytes")
	return string(b)
})

func TestMaterializedSizeIsCanonicalJSONLength(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}).Draw(t, "r")
		// Awkward bytes in every kind of place: a property, a name, a cell.
		if len(r.Nodes) > 0 {
			n := &r.Nodes[0]
			n.Type = rawString.Draw(t, "type")
			n.Properties = append(n.Properties, wire.Prop("k\x01"+rawString.Draw(t, "key"),
				wire.ListOf(wire.String(rawString.Draw(t, "s")), wire.ListOf(), wire.Null())))
		}
		if len(r.Edges) > 0 {
			r.Edges[0].Type = rawString.Draw(t, "edge_type")
		}
		for i := range r.Rows {
			for j := range r.Rows[i] {
				r.Rows[i][j].Name += rawString.Draw(t, "cell")
			}
		}
		b, err := jsoncodec.AppendEncode(nil, r)
		if err != nil {
			t.Fatalf("AppendJSON: %v", err)
		}
		if got := wirecodec.MaterializedSize(r); got != int64(len(b)) {
			t.Fatalf("MaterializedSize = %d, len(AppendJSON) = %d\n%s", got, len(b), b)
		}
	})
}

func TestMaterializedSizeCountsEverySharedUse(t *testing.T) {
	// One 64 KiB name used by 200,000 nodes, and one node whose property
	// list is shared by 100,000 row cells: a few MB in memory, many GB as
	// JSON. The size is counted, in constant time per use.
	name := strings.Repeat("N", 64<<10)
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Aggregation, Nodes: make([]wire.Node, 200_000)}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: name, ID: 7}
	}
	props := make([]wire.Property, 1000)
	for i := range props {
		props[i] = wire.Prop("k"+strings.Repeat("x", i), wire.String(name))
	}
	shared := &wire.Node{Type: "T", ID: 1, Properties: props}
	r.Rows = make([]wire.Row, 100_000)
	for i := range r.Rows {
		r.Rows[i] = wire.Row{{Name: "g", Node: shared}}
	}
	start := time.Now()
	got := wirecodec.MaterializedSize(r)
	elapsed := time.Since(start)

	one := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Aggregation, Nodes: r.Nodes[:1], Rows: r.Rows[:1]}
	b, err := jsoncodec.AppendEncode(nil, one)
	if err != nil {
		t.Fatal(err)
	}
	node, err := jsoncodec.AppendEncode(nil, &wire.GraphResponse{Nodes: r.Nodes[:1], QueryType: wire.Aggregation, FormatVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := jsoncodec.AppendEncode(nil, &wire.GraphResponse{QueryType: wire.Aggregation, FormatVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	nodeLen := int64(len(node) - len(empty))                     // one node, no separator
	rowLen := int64(len(b)-len(node)) - int64(len(`,"rows":[]`)) // one row
	want := int64(len(empty)) + 200_000*(nodeLen+1) - 1 + int64(len(`,"rows":[]`)) + 100_000*(rowLen+1) - 1
	if got != want {
		t.Fatalf("MaterializedSize = %d, want %d", got, want)
	}
	if want < 60<<30 {
		t.Fatalf("test shape too small: %d bytes materialised", want)
	}
	if elapsed > 2*time.Second {
		t.Errorf("MaterializedSize took %v: not constant time per shared use", elapsed)
	}
	err = wirecodec.Check(wire.Limits{}, "json", r)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || ee.Limit != "MaxMaterializedBytes" || !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("Check = %v, want a MaxMaterializedBytes *EncodeError", err)
	}
	// 256 MiB / (64 KiB + 20 bytes) per node: the 4,095th node passes the limit.
	if ee.Path != "nodes[4094]" {
		t.Errorf("Path = %q, want nodes[4094]", ee.Path)
	}
}

func TestCheck(t *testing.T) {
	small := wire.Limits{MaxDepth: 2, MaxElements: 3, MaxStringBytes: 8, MaxMaterializedBytes: 400}
	node := func(props ...wire.Property) *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Traversal,
			Nodes: []wire.Node{{Type: "A", ID: 1}, {Type: "B", ID: 2, Properties: props}}}
	}
	deep := func(n int) wire.Value {
		v := wire.String("x")
		for range n {
			v = wire.ListOf(wire.Int(1), v)
		}
		return v
	}
	for _, tc := range []struct {
		name       string
		r          *wire.GraphResponse
		limit      string
		path       string
		msgContain string
	}{
		{"at every limit", node(wire.Prop("tags", deep(2)), wire.Prop("s", wire.String("12345678")), wire.Prop("l", wire.ListOf(wire.Int(1), wire.Int(2), wire.Int(3)))), "", "", ""},
		{"deeper list", node(wire.Prop("tags", deep(3))), "MaxDepth", "nodes[1].properties.tags[1][1]", "nested more than 2 deep"},
		{"longer string", node(wire.Prop("s", wire.String("123456789"))), "MaxStringBytes", "nodes[1].properties.s", "9 bytes"},
		{"invalid UTF-8 grows", node(wire.Prop("s", wire.String("\xff\xff\xff"))), "MaxStringBytes", "nodes[1].properties.s", "9 bytes"},
		{"long key", node(wire.Prop("keykeykey", wire.Null())), "MaxStringBytes", "nodes[1].properties[0]", "9 bytes"},
		{"longer list", node(wire.Prop("l", wire.ListOf(wire.Int(1), wire.Int(2), wire.Int(3), wire.Int(4)))), "MaxElements", "nodes[1].properties.l", "4 elements"},
		{"nested list items", node(wire.Prop("l", wire.ListOf(wire.ListOf(wire.Int(1), wire.Int(2), wire.Int(3), wire.Int(4))))), "MaxElements", "nodes[1].properties.l[0]", "4 elements"},
		{"more properties", node(wire.Prop("a", wire.Null()), wire.Prop("b", wire.Null()), wire.Prop("c", wire.Null()), wire.Prop("d", wire.Null())), "MaxElements", "nodes[1].properties", "4 elements"},
		{"more nodes", &wire.GraphResponse{QueryType: wire.Search, Nodes: make([]wire.Node, 4)}, "MaxElements", "nodes", "4 elements"},
		{"more edges", &wire.GraphResponse{QueryType: wire.Search, Edges: make([]wire.Edge, 4)}, "MaxElements", "edges", "4 elements"},
		{"more cells", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{}, make(wire.Row, 4)}}, "MaxElements", "rows[1]", "4 elements"},
		{"long edge type", &wire.GraphResponse{QueryType: wire.Search, Edges: []wire.Edge{{Type: "TYPETYPET"}}}, "MaxStringBytes", "edges[0].type", "9 bytes"},
		{"long cell name", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "cellcellc"}}}}, "MaxStringBytes", "rows[0][0]", "9 bytes"},
		{"cell node property", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "g", Node: &wire.Node{Type: "T", Properties: []wire.Property{wire.Prop("t", deep(3))}}}}}}, "MaxDepth", "rows[0].g.properties.t[1][1]", "nested"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := wirecodec.Check(small, "toon", tc.r)
			if tc.limit == "" {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				return
			}
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Fatalf("Check = %v, want *wire.EncodeError", err)
			}
			if ee.Codec != "toon" || ee.Limit != tc.limit || ee.Path != tc.path || !strings.Contains(ee.Msg, tc.msgContain) || !errors.Is(err, wire.ErrLimit) {
				t.Errorf("Check = %#v (%v), want codec toon, limit %s, path %s, message containing %q", ee, err, tc.limit, tc.path, tc.msgContain)
			}
		})
	}
}

func TestCheckMaterializedSize(t *testing.T) {
	r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true}).Example(1)
	size := wirecodec.MaterializedSize(r)
	if err := wirecodec.Check((wire.Limits{MaxMaterializedBytes: size}), "cbor", r); err != nil {
		t.Fatalf("at the limit (%d bytes): Check = %v", size, err)
	}
	err := wirecodec.Check(wire.Limits{MaxMaterializedBytes: size - 1}, "cbor", r)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || ee.Limit != "MaxMaterializedBytes" || ee.Codec != "cbor" {
		t.Fatalf("one byte past the limit: Check = %v, want a MaxMaterializedBytes *EncodeError", err)
	}
}

func TestCheckDefaultsAndInvalid(t *testing.T) {
	r := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: strings.Repeat("x", wire.DefaultLimits().MaxStringBytes+1)}}}
	if err := wirecodec.Check((wire.Limits{}), "json", r); !errors.Is(err, wire.ErrLimit) {
		t.Errorf("zero Limits: Check = %v, want the default MaxStringBytes to refuse", err)
	}
	var ee *wire.EncodeError
	if err := wirecodec.Check((wire.Limits{MaxDepth: -1}), "json", r); !errors.As(err, &ee) || !strings.Contains(ee.Msg, "MaxDepth") {
		t.Errorf("negative MaxDepth: Check = %v, want an *EncodeError naming MaxDepth", err)
	}
}

func TestCheckDoesNotAllocate(t *testing.T) {
	r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, MaxNodes: 40}).Example(3)
	for i := range 20 {
		if ri := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, MaxNodes: 40}).Example(i); len(ri.Nodes)+len(ri.Rows) > len(r.Nodes)+len(r.Rows) {
			r = ri
		}
	}
	if err := wirecodec.Check((wire.Limits{}), "json", r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = wirecodec.Check(wire.Limits{}, "json", r) }); n != 0 {
		t.Errorf("Check allocates %v times per call on an accepted response", n)
	}
}

func TestMeterStopsAtTheLimit(t *testing.T) {
	m := wirecodec.NewMeter(wire.Limits{MaxMaterializedBytes: 100}, 10)
	n := wire.Node{Type: "User", ID: 12345, Properties: []wire.Property{wire.Prop("name", wire.String(strings.Repeat("a", 40)))}}
	if !m.Node(&n) {
		t.Fatalf("one node of %d bytes refused under 100", m.Size())
	}
	if m.Node(&n) {
		t.Fatalf("two nodes, %d bytes, accepted under 100", m.Size())
	}
	if !strings.Contains(m.Msg(), "100 bytes") {
		t.Errorf("Msg = %q, want it to state the limit", m.Msg())
	}
	if m.LimitName() != "MaxMaterializedBytes" {
		t.Errorf("LimitName = %q, want MaxMaterializedBytes", m.LimitName())
	}
	big := wirecodec.NewMeter(wire.Limits{}, 64<<20)
	if big.Limit() != wire.DefaultLimits().MaxMaterializedBytes || big.LimitName() != "MaxMaterializedBytes" {
		t.Errorf("NewMeter(zero Limits, 64 MiB): limit %d (%s), want the default MaxMaterializedBytes", big.Limit(), big.LimitName())
	}
}

// TestMeterExpansion: under MaxExpansion the limit is that many times the
// input plus ExpansionAllowance when that is below MaxMaterializedBytes,
// and the refusal names MaxExpansion.
func TestMeterExpansion(t *testing.T) {
	for _, tc := range []struct {
		l     wire.Limits
		input int
		limit int64
		name  string
	}{
		{wire.Limits{}, 3712, int64(wire.DefaultLimits().MaxExpansion)*3712 + wirecodec.ExpansionAllowance, "MaxExpansion"},
		{wire.Limits{}, 0, wirecodec.ExpansionAllowance, "MaxExpansion"},
		{wire.Limits{MaxExpansion: 2}, 200 << 20, wire.DefaultLimits().MaxMaterializedBytes, "MaxMaterializedBytes"},
		{wire.Limits{MaxExpansion: 2}, 10 << 20, 2*(10<<20) + wirecodec.ExpansionAllowance, "MaxExpansion"},
		{wire.Limits{MaxExpansion: math.MaxInt32}, math.MaxInt32, wire.DefaultLimits().MaxMaterializedBytes, "MaxMaterializedBytes"},
		{wire.Limits{MaxMaterializedBytes: 1 << 20}, 10, 1 << 20, "MaxMaterializedBytes"},
	} {
		m := wirecodec.NewMeter(tc.l, tc.input)
		if m.Limit() != tc.limit || m.LimitName() != tc.name {
			t.Errorf("%+v, input %d: limit %d (%s), want %d (%s)", tc.l, tc.input, m.Limit(), m.LimitName(), tc.limit, tc.name)
		}
		if got := wirecodec.MaterializedLimit(tc.l, int64(tc.input)); got != tc.limit {
			t.Errorf("%+v: MaterializedLimit(%d) = %d, want %d", tc.l, tc.input, got, tc.limit)
		}
	}
	m := wirecodec.NewMeter(wire.Limits{}, 1000)
	if !m.Fits(m.Limit()) || m.Fits(m.Limit()+1) || m.Fits(-1) {
		t.Errorf("Fits does not stop at the limit %d", m.Limit())
	}
	s := strings.Repeat("x", int(m.Limit())/2)
	n := wire.Node{Type: "T", Properties: []wire.Property{wire.Prop("a", wire.String(s))}}
	if !m.Node(&n) {
		t.Fatalf("half the limit refused")
	}
	if m.Fits(m.Limit()/2) || !m.Fits(m.Limit()-m.Size()) {
		t.Errorf("after %d bytes, Fits does not stop at the limit %d", m.Size(), m.Limit())
	}
	if m.Node(&n) {
		t.Fatalf("twice half the limit and more accepted")
	}
	if msg := m.Msg(); !strings.Contains(msg, "(MaxExpansion)") || !strings.Contains(msg, "input of 1000 bytes") {
		t.Errorf("Msg = %q, want it to name MaxExpansion and the input", msg)
	}
}

func TestDecodedLen(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 2, "\xff": 3, "a\xffb": 5, "\xed\xa0\x80": 9} {
		if got := wirecodec.DecodedLen(s); got != want {
			t.Errorf("DecodedLen(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestWithDefaultsMaxExpansion(t *testing.T) {
	l, err := wire.Limits{}.WithDefaults()
	if err != nil || l.MaxExpansion != wire.DefaultLimits().MaxExpansion {
		t.Errorf("zero MaxExpansion: %d, %v; want the default %d", l.MaxExpansion, err, wire.DefaultLimits().MaxExpansion)
	}
	if l, err := (wire.Limits{MaxExpansion: 3}).WithDefaults(); err != nil || l.MaxExpansion != 3 {
		t.Errorf("MaxExpansion 3: %d, %v", l.MaxExpansion, err)
	}
	for _, bad := range []int{-1, math.MaxInt32 + 1} {
		_, err := wire.Limits{MaxExpansion: bad}.WithDefaults()
		if err == nil || !strings.Contains(err.Error(), "MaxExpansion") {
			t.Errorf("MaxExpansion %d: %v, want an error naming MaxExpansion", bad, err)
		}
	}
}

// TestCheckExpansion: an encoding whose response materialises past
// MaxExpansion times its length plus ExpansionAllowance is refused with
// an *EncodeError naming MaxExpansion; CheckSize returns at least the size
// that MaterializedSize does (the larger of it and the in-memory size).
func TestCheckExpansion(t *testing.T) {
	name := strings.Repeat("T", 4096)
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: make([]wire.Node, 3000)}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: name, ID: int64(i)}
	}
	size, err := wirecodec.CheckSize(wire.Limits{}, "msgpack", r)
	if err != nil || size < wirecodec.MaterializedSize(r) {
		t.Fatalf("CheckSize = %d, %v; want at least %d", size, err, wirecodec.MaterializedSize(r))
	}
	if err := wirecodec.CheckExpansion((wire.Limits{}), "msgpack", size, size/4); err != nil {
		t.Errorf("an encoding a quarter of the size: %v", err)
	}
	err = wirecodec.CheckExpansion(wire.Limits{}, "msgpack", size, 20_000)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || ee.Limit != "MaxExpansion" || !errors.Is(err, wire.ErrLimit) || !strings.Contains(err.Error(), "20000 bytes") {
		t.Errorf("an encoding of 20,000 bytes for %d: %v, want a MaxExpansion *wire.EncodeError", size, err)
	}
	if err := wirecodec.CheckExpansion((wire.Limits{MaxExpansion: 1 << 20}), "msgpack", size, 20_000); err != nil {
		t.Errorf("under a MaxExpansion of 2^20: %v", err)
	}
}

// TestDecodeJSONMaxExpansion: canonical JSON's invalid UTF-8 bytes each
// become three bytes of U+FFFD, so under a MaxExpansion of 1 a document of
// them past ExpansionAllowance is refused, naming MaxExpansion; under the
// default it decodes.
func TestDecodeJSONMaxExpansion(t *testing.T) {
	bad := strings.Repeat("\xff", 2<<20)
	in := []byte(`{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","a":"` + bad +
		`","b":"` + bad + `","c":"` + bad + `"}],"edges":[]}`)
	_, err := jsoncodec.DecodeWithin(in, wire.Limits{MaxExpansion: 1})
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Limit != "MaxExpansion" || !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("MaxExpansion 1: %v, want a MaxExpansion *wire.DecodeError", err)
	}
	if _, err := jsoncodec.DecodeWithin(in, wire.Limits{}); err != nil {
		t.Fatalf("default limits: %v", err)
	}
}
