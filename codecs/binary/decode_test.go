package binary

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// Every hostile input must be answered by a *wire.DecodeError naming the
// codec and an offset inside the input, within 100 ms and with less than
// 10 MB allocated. The race detector slows decoding several times over, so
// under it the time bound is raceSlowdown times longer.
const (
	hostileTime  = 100 * time.Millisecond * raceSlowdown
	hostileBytes = 10 << 20
)

func mustReject(t *testing.T, c *Codec, data []byte, what string) *wire.DecodeError {
	t.Helper()
	// The time and memory bounds take the best of five attempts, so that a
	// busy machine preempting one does not fail it. The bounds are on time
	// and bytes allocated, which need no collection before each attempt.
	var (
		err     error
		elapsed time.Duration = math.MaxInt64
		alloc   uint64        = math.MaxUint64
	)
	for attempt := 0; attempt < 5 && (elapsed >= hostileTime || alloc >= hostileBytes); attempt++ {
		var r *wire.GraphResponse
		cost := testsupport.MeasureAlloc(func() { r, err = c.Decode(data) })
		if err == nil {
			t.Fatalf("%s: %s: decoded without error: %+v", c.format, what, r)
		}
		if r != nil {
			t.Fatalf("%s: %s: partial output with error %v", c.format, what, err)
		}
		elapsed, alloc = min(elapsed, cost.Elapsed), min(alloc, cost.Alloc)
	}
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("%s: %s: error %T is not a *wire.DecodeError: %v", c.format, what, err, err)
	}
	if de.Codec != c.format.String() || de.Offset < 0 || de.Offset > int64(len(data)) ||
		!strings.HasPrefix(err.Error(), c.format.String()+": offset ") {
		t.Fatalf("%s: %s: badly positioned error (offset %d of %d): %v", c.format, what, de.Offset, len(data), err)
	}
	if alloc >= hostileBytes {
		t.Fatalf("%s: %s: allocated %d bytes before failing", c.format, what, alloc)
	}
	if elapsed >= hostileTime {
		t.Fatalf("%s: %s: took %v before failing", c.format, what, elapsed)
	}
	return de
}

func richResponse() *wire.GraphResponse {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true, QueryTypes: []wire.QueryType{wire.Aggregation}})
	for seed := 0; ; seed++ {
		r := gen.Example(seed)
		if len(r.Rows) > 1 && len(r.Nodes) > 1 && len(r.GroupColumns) > 0 && r.Pagination != nil {
			return r
		}
	}
}

func TestHostilePrefixes(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		for _, r := range []*wire.GraphResponse{richResponse(), benchCases()[0].resp} {
			b, err := c.AppendEncode(nil, r)
			if err != nil {
				t.Fatal(err)
			}
			step := 1 + len(b)/1000 // every prefix of the small one, a sample of the large
			for n := 0; n < len(b); n += step {
				mustReject(t, c, b[:n], "prefix")
			}
		}
	}
}

func TestHostileTrailingBytes(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		b, err := c.AppendEncode(nil, richResponse())
		if err != nil {
			t.Fatal(err)
		}
		for _, tail := range [][]byte{{0}, {0xc0}, b} {
			de := mustReject(t, c, append(append([]byte{}, b...), tail...), "trailing bytes")
			if de.Offset != int64(len(b)) {
				t.Errorf("%s: trailing bytes reported at offset %d, want %d", f, de.Offset, len(b))
			}
		}
	}
}

// header returns the encoding of an empty traversal response: [1, "",
// "traversal", [], []], in which the nodes array is the second-to-last byte.
func header(t *testing.T, c *Codec) []byte {
	b, err := c.AppendEncode(nil, &wire.GraphResponse{QueryType: wire.Traversal})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func pad(b []byte, n int) []byte {
	for len(b) < n {
		b = append(b, 0)
	}
	return b
}

func TestHostileDeclaredLengths(t *testing.T) {
	mp, cb := Default(Msgpack), Default(CBOR)
	hm, hc := header(t, mp), header(t, cb)
	cases := []struct {
		name string
		c    *Codec
		data []byte
		off  int64
	}{
		// msgpack's largest declarable length is 2^32-1.
		{"msgpack array of 2^32-1 at top", mp, pad([]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, 10), 0},
		{"msgpack nodes array of 2^32-1", mp, pad(append(hm[:len(hm)-2:len(hm)-2], 0xdd, 0xff, 0xff, 0xff, 0xff), len(hm)+8), int64(len(hm) - 2)},
		{"msgpack string of 2^32-1", mp, pad([]byte{0x95, 0x01, 0xdb, 0xff, 0xff, 0xff, 0xff}, 10), 2},
		{"cbor array of 2^32 at top", cb, []byte{0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0}, 0},
		{"cbor array of 2^40", cb, []byte{0x9b, 0, 0, 1, 0, 0, 0, 0, 0, 0}, 0},
		{"cbor nodes array of 2^32", cb, pad(append(hc[:len(hc)-2:len(hc)-2], 0x9b, 0, 0, 0, 1, 0, 0, 0, 0), len(hc)+10), int64(len(hc) - 2)},
		{"cbor string of 2^62", cb, []byte{0x85, 0x01, 0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0}, 11},
		{"cbor string of 2^64-1", cb, []byte{0x85, 0x01, 0x7b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 2},
	}
	for _, tc := range cases {
		de := mustReject(t, tc.c, tc.data, tc.name)
		if de.Offset != tc.off {
			t.Errorf("%s: offset %d, want %d (%v)", tc.name, de.Offset, tc.off, de)
		}
	}
	// A length within the bytes present but beyond the limits.
	small, err := New(Msgpack, Options{Limits: wire.Limits{MaxElements: 16, MaxStringBytes: 4}})
	if err != nil {
		t.Fatal(err)
	}
	mustReject(t, small, pad([]byte{0xdc, 0x00, 0x20}, 64), "msgpack array above MaxElements")
	mustReject(t, small, []byte{0x95, 0x01, 0xa5, 'a', 'b', 'c', 'd', 'e', 0xa0, 0x90, 0x90}, "msgpack string above MaxStringBytes")
	smallCBOR, err := New(CBOR, Options{Limits: wire.Limits{MaxElements: 16, MaxStringBytes: 4, MaxInputBytes: 8}})
	if err != nil {
		t.Fatal(err)
	}
	mustReject(t, smallCBOR, pad([]byte{0x98, 0x20}, 8), "cbor array above MaxElements")
	mustReject(t, smallCBOR, pad([]byte{0x85}, 9), "cbor input above MaxInputBytes")
}

func deepList(depth int) wire.Value {
	v := wire.Null()
	for i := 0; i < depth; i++ {
		v = wire.ListOf(v)
	}
	return v
}

func TestHostileNesting(t *testing.T) {
	deep := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1,
		Properties: []wire.Property{wire.Prop("k", deepList(100_000))}}}}
	for _, f := range formats {
		c := Default(f)
		if _, err := c.AppendEncode(nil, deep); !errors.Is(err, wire.ErrLimit) {
			t.Errorf("%s: encoding a list nested 100,000 deep: %v, want a limit error", f, err)
		}
		b := forceEncode(t, f, deep)
		de := mustReject(t, c, b, "value nested 100,000 deep")
		if !strings.Contains(de.Error(), "nest") {
			t.Errorf("%s: nesting error does not say so: %v", f, de)
		}
		open := byte(0x91) // msgpack fixarray of 1
		if f == CBOR {
			open = 0x81
		}
		mustReject(t, c, append(bytes.Repeat([]byte{open}, 100_000), 0xc0), "bare arrays nested 100,000 deep")

		// Right at the limit decodes; one more level does not.
		at := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1,
			Properties: []wire.Property{wire.Prop("k", deepList(wire.DefaultLimits().MaxDepth))}}}}
		roundTrip(t, c, at)
		at.Nodes[0].Properties[0].Value = deepList(wire.DefaultLimits().MaxDepth + 1)
		b = forceEncode(t, f, at)
		if de := mustReject(t, c, b, "one level past MaxDepth"); de.Limit != "MaxDepth" {
			t.Errorf("%s: one level past MaxDepth: Limit %q", f, de.Limit)
		}
	}
}

// hookSink writes the layout through sink, except item k (counted in the
// order of the stream), which replace, when set, writes instead.
type hookSink struct {
	sink
	k, n    int
	replace func()
}

// item writes one item with write, unless it is item k and replace is set.
func (s *hookSink) item(write func()) {
	s.n++
	if s.n-1 == s.k && s.replace != nil {
		s.replace()
		return
	}
	write()
}

func (s *hookSink) array(n int)     { s.item(func() { s.sink.array(n) }) }
func (s *hookSink) null()           { s.item(s.sink.null) }
func (s *hookSink) boolean(b bool)  { s.item(func() { s.sink.boolean(b) }) }
func (s *hookSink) integer(i int64) { s.item(func() { s.sink.integer(i) }) }
func (s *hookSink) float(f float64) { s.item(func() { s.sink.float(f) }) }
func (s *hookSink) str(v string)    { s.item(func() { s.sink.str(v) }) }

// replaceInCBOR replaces the k-th item of a CBOR encoding, counted in
// pre-order (the order of the stream), with v, elements and all.
func replaceInCBOR(t *testing.T, b []byte, k int, v any) []byte {
	t.Helper()
	var root any
	if err := cbor.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	n := 0
	root, _ = replaceNth(root, k, &n, v)
	out, err := cborEnc.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// replaceNth replaces the k-th item of a tree, counted in pre-order, with
// v; n counts the items seen.
func replaceNth(item any, k int, n *int, v any) (any, bool) {
	if *n == k {
		*n++
		return v, true
	}
	*n++
	if list, ok := item.([]any); ok {
		for i := range list {
			if nv, done := replaceNth(list[i], k, n, v); done {
				list[i] = nv
				return item, true
			}
		}
	}
	return item, false
}

// encodeForeign encodes r with item k replaced; ok is false once k is past
// the last item.
func encodeForeign(t *testing.T, f Format, r *wire.GraphResponse, k int, binary bool) (data []byte, at int, ok bool) {
	// A map or a byte string, which the layout never holds, in msgpack
	// where it starts; CBOR is edited afterwards (replaceInCBOR): its
	// decoder reads the whole encoding first, so an array must be
	// replaced with its elements.
	hs := &hookSink{k: k}
	var out func() []byte
	hs.sink, out = newSink(f)
	foundAt := -1
	if mp, ok := hs.sink.(*mpSink); ok {
		hs.replace = func() {
			foundAt = len(mp.b)
			if binary {
				mp.b = append(mp.b, 0xc4, 1, 1) // bin 8 of one byte
			} else {
				mp.b = append(mp.b, 0x80) // fixmap of 0 pairs
			}
		}
	}
	e := encoder{sink: hs, codec: f.String(), names: map[string]int64{}}
	e.response(r)
	if e.err != nil {
		t.Fatal(e.err)
	}
	if hs.n <= k {
		return nil, 0, false
	}
	if f == Msgpack {
		return out(), foundAt, true
	}
	var foreign any = map[any]any{}
	if binary {
		foreign = []byte{1}
	}
	return replaceInCBOR(t, out(), k, foreign), -1, true
}

func TestHostileWrongTypeEverywhere(t *testing.T) {
	r := richResponse()
	for _, f := range formats {
		c := Default(f)
		positions := 0
		for k := 0; ; k++ {
			done := false
			for _, bin := range []bool{false, true} {
				data, at, ok := encodeForeign(t, f, r, k, bin)
				if !ok {
					done = true
					break
				}
				de := mustReject(t, c, data, "foreign item")
				want := byte(0xa0) // cbor: empty map, or byte string of 1
				if bin {
					want = 0x41
				}
				switch {
				case at >= 0 && de.Offset != int64(at):
					t.Fatalf("%s: item %d: error at offset %d, want %d: %v", f, k, de.Offset, at, de)
				case at < 0 && data[de.Offset] != want:
					t.Fatalf("%s: item %d: error at offset %d (byte %#x), not at the foreign item: %v", f, k, de.Offset, data[de.Offset], de)
				}
			}
			if done {
				break
			}
			positions++
		}
		if positions < 50 {
			t.Fatalf("%s: only %d positions tried", f, positions)
		}
	}
}

// TestHostileWrongScalar swaps single fields of the layout for a scalar of
// the wrong kind and checks the error names the field and its offset.
func TestHostileWrongScalar(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "v", QueryType: wire.Search,
		Nodes:      []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop("k", wire.Int(1))}}},
		Pagination: &wire.Pagination{TotalRows: wire.Some[int64](0)}}
	type edit struct {
		item int // index of the item in the stream
		want string
	}
	// Items: 0 response, 1 version, 2 format_version, 3 query_type, 4 nodes,
	// 5 node, 6 type, 7 id, 8 key, 9 value, 10 edges, 11 columns, 12 group
	// columns, 13 rows, 14 pagination, 15 has_more, 16 total_rows.
	edits := []edit{
		{0, "response: expected array"}, {1, "layout version: expected integer"},
		{2, "format_version: expected string"}, {3, "query_type: expected name"},
		{4, "nodes: expected array"}, {5, "node: expected array"}, {6, "node type: expected name"},
		{7, "node id: expected integer"}, {8, "property key: expected name"},
		{10, "edges: expected array"}, {11, "columns: expected array or null"},
		{14, "pagination: expected array or null"}, {15, "has_more: expected bool"},
		{16, "total_rows: expected integer"},
	}
	for _, f := range formats {
		c := Default(f)
		for _, ed := range edits {
			// Item k becomes a float, and the error must come at item k.
			ws := &hookSink{k: ed.item}
			s, written := newSink(f)
			ws.sink = s
			out := written
			if f == CBOR {
				out = func() []byte { return replaceInCBOR(t, written(), ed.item, math.Pi) }
			} else {
				ws.replace = func() { s.float(math.Pi) }
			}
			e := encoder{sink: ws, codec: f.String(), names: map[string]int64{}}
			e.response(r)
			de := mustReject(t, c, out(), ed.want)
			if !strings.Contains(de.Msg, ed.want) {
				t.Errorf("%s: item %d: error %q does not contain %q", f, ed.item, de, ed.want)
			}
		}
	}
}

func TestHostileSemantics(t *testing.T) {
	bad := []struct {
		name string
		r    *wire.GraphResponse
	}{
		{"reserved key", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", Properties: []wire.Property{wire.Prop("id", wire.Int(1))}}}}},
		{"duplicate key", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", Properties: []wire.Property{wire.Prop("a", wire.Int(1)), wire.Prop("a", wire.Int(2))}}}}},
		{"query type", &wire.GraphResponse{QueryType: "walk"}},
		{"group kind", &wire.GraphResponse{QueryType: wire.Aggregation, GroupColumns: []wire.GroupColumn{{Name: "g", Kind: "edge"}}}},
		{"invalid UTF-8", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", Properties: []wire.Property{wire.Prop("a", wire.String("\xff"))}}}}},
		{"node and value", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "c", Node: &wire.Node{Type: "T"}, Value: wire.Int(1)}}}}},
	}
	var many []wire.Property
	for i := 0; i < 40; i++ {
		many = append(many, wire.Prop(string(rune('a'+i%26))+string(rune('a'+i/26)), wire.Int(1)))
	}
	many = append(many, wire.Prop("bb", wire.Int(2)))
	bad = append(bad, struct {
		name string
		r    *wire.GraphResponse
	}{"duplicate key among many", &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", Properties: many}}}})

	for _, f := range formats {
		c := Default(f)
		for _, tc := range bad {
			// The encoder refuses, leaving dst as it was...
			b, err := c.AppendEncode([]byte("x"), tc.r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || string(b) != "x" || !strings.HasPrefix(err.Error(), f.String()+": ") {
				t.Errorf("%s: %s: encode gave %q, %v", f, tc.name, b, err)
			}
			// ...and the decoder refuses the same response forced onto the wire.
			if tc.name == "invalid UTF-8" || tc.name == "node and value" {
				continue // the layout cannot express these
			}
			data := forceEncode(t, f, tc.r)
			mustReject(t, c, data, tc.name)
		}
	}
}

// forceEncode writes r without the encoder's checks.
func forceEncode(t *testing.T, f Format, r *wire.GraphResponse) []byte {
	t.Helper()
	s, out := newSink(f)
	saved := *r
	r2 := &saved
	q, g := r2.QueryType, r2.GroupColumns
	if !q.Valid() {
		r2.QueryType = wire.Search
	}
	if len(g) > 0 && !g[0].Kind.Valid() {
		r2.GroupColumns = []wire.GroupColumn{{Name: g[0].Name, Kind: wire.GroupByNode}}
	}
	e := encoder{sink: s, codec: f.String(), names: map[string]int64{}}
	// Write the nodes without the property check by swapping it off:
	// encode a clean copy, then patch the names in the table.
	clean := *r2
	clean.Nodes = nil
	for _, n := range r2.Nodes {
		n2 := n
		n2.Properties = nil
		for i, p := range n.Properties {
			n2.Properties = append(n2.Properties, wire.Prop("\x00placeholder"+string(rune('A'+i)), p.Value))
		}
		clean.Nodes = append(clean.Nodes, n2)
	}
	e.response(&clean)
	if e.err != nil {
		t.Fatal(e.err)
	}
	b := out()
	at := 0 // the placeholders stand in the order they are swapped
	for _, n := range r2.Nodes {
		for i, p := range n.Properties {
			b, at = replaceNameFrom(f, b, at, "\x00placeholder"+string(rune('A'+i)), p.Key)
		}
	}
	if !q.Valid() {
		b = replaceName(f, b, string(wire.Search), string(q))
	}
	if len(g) > 0 && !g[0].Kind.Valid() {
		b = replaceName(f, b, string(wire.GroupByNode), string(g[0].Kind))
	}
	return b
}

// replaceName swaps the first encoded string from for to in an encoding.
func replaceName(f Format, b []byte, from, to string) []byte {
	b, _ = replaceNameFrom(f, b, 0, from, to)
	return b
}

// replaceNameFrom swaps the first encoded string from at or after offset
// at (else the first anywhere) for to, and returns the encoding and the
// offset after the swapped string, or at when from is not there.
func replaceNameFrom(f Format, b []byte, at int, from, to string) ([]byte, int) {
	enc := func(s string) []byte {
		w, out := newSink(f)
		w.str(s)
		return out()
	}
	old, repl := enc(from), enc(to)
	i := bytes.Index(b[at:], old)
	if i >= 0 {
		i += at
	} else if i = bytes.Index(b, old); i < 0 {
		return b, at
	}
	return append(b[:i:i], append(repl, b[i+len(old):]...)...), i + len(repl)
}

// TestHostileNestedDeclaredLengths: nested arrays that each declare as many
// elements as there are bytes left must not each be allowed to claim those
// same bytes, or 27 levels of 2^20 elements would allocate gigabytes from a
// 1 MiB input.
func TestHostileNestedDeclaredLengths(t *testing.T) {
	for _, c := range []*Codec{Default(Msgpack), Default(CBOR)} {
		valid, err := c.AppendEncode(nil, &wire.GraphResponse{
			QueryType: wire.Traversal,
			Nodes:     []wire.Node{{Type: "A", ID: 1, Properties: []wire.Property{wire.Prop("k", wire.ListOf(wire.Null()))}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		// The list [null] is the last node's last value; find its bytes.
		list := []byte{0x91, 0xc0} // msgpack fixarray(1), nil
		if c.format == CBOR {
			list = []byte{0x81, 0xf6} // cbor array(1), null
		}
		at := bytes.LastIndex(valid, list)
		if at < 0 {
			t.Fatalf("%s: list not found in % x", c.format, valid)
		}
		const n = 1 << 20
		var heads []byte
		for range 27 {
			if c.format == CBOR {
				heads = append(heads, 0x9a, 0x00, 0x10, 0x00, 0x00) // array of 2^20
			} else {
				heads = append(heads, 0xdd, 0x00, 0x10, 0x00, 0x00) // array32 of 2^20
			}
		}
		data := append(append([]byte(nil), valid[:at]...), heads...)
		filler := byte(0xc0)
		if c.format == CBOR {
			filler = 0xf6
		}
		data = append(data, bytes.Repeat([]byte{filler}, n+8)...)
		mustReject(t, c, data, "27 nested arrays of 2^20 elements over 1 MiB")
	}
}
