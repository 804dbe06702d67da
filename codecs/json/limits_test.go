package json_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

func small(t *testing.T, l wire.Limits) *json.Codec {
	t.Helper()
	c, err := json.New(json.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLimits runs the shared hostile-input and limit suite
// (wiretest.RunLimits) over JSON inputs: each limit accepts what is at it
// and refuses one step past it with an error at the offset where it was
// passed; a byte order mark reads as nothing; the encoder refuses what
// the decoder would.
func TestLimits(t *testing.T) {
	l := wire.Limits{MaxInputBytes: 4096, MaxDepth: 3, MaxElements: 4, MaxStringBytes: 10, MaxMaterializedBytes: 2000}
	doc := func(nodes string) string {
		return `{"format_version":"1","query_type":"search","nodes":[` + nodes + `],"edges":[]}`
	}
	s := wiretest.LimitSuite{
		Codec:      "json",
		New:        func(l wire.Limits) (wire.Codec, error) { return json.New(json.Options{Limits: l}) },
		TextInput:  map[string][]byte{},
		ReencodeLF: true,
	}
	for i := range 4 {
		b, err := json.Encode(wiretest.Response().Example(i))
		if err != nil {
			t.Fatal(err)
		}
		s.TextInput["example"+strconv.Itoa(i)] = b
	}
	// Offsets: the documents' nodes start at 53; a node's fourth key at 74
	// and its value at 78.
	for _, tc := range []struct {
		name   string
		in     string
		limit  string // "" when the input is within the limits
		offset int64
	}{
		{"deepest list", doc(`{"type":"T","id":"1","l":[[[1]]]}`), "", 0},
		{"list one deeper", doc(`{"type":"T","id":"1","l":[[[[1]]]]}`), "MaxDepth", 81},
		{"most list items", doc(`{"type":"T","id":"1","l":[1,2,3,4]}`), "", 0},
		{"one list item more", doc(`{"type":"T","id":"1","l":[1,2,3,4,5]}`), "MaxElements", 87},
		{"most nodes", doc(strings.Repeat(`{"type":"T","id":"1"},`, 3) + `{"type":"T","id":"1"}`), "", 0},
		{"one node more", doc(strings.Repeat(`{"type":"T","id":"1"},`, 4) + `{"type":"T","id":"1"}`), "MaxElements", 141},
		{"most properties", doc(`{"type":"T","id":"1","a":1,"b":2,"c":3,"d":4}`), "", 0},
		{"one property more", doc(`{"type":"T","id":"1","a":1,"b":2,"c":3,"d":4,"e":5}`), "MaxElements", 98},
		{"most cells", `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"rows":[{"a":1,"b":2,"c":3,"d":4}]}`, "", 0},
		{"one cell more", `{"format_version":"1","query_type":"aggregation","nodes":[],"edges":[],"rows":[{"a":1,"b":2,"c":3,"d":4,"e":5}]}`, "MaxElements", 104},
		{"longest string", doc(`{"type":"T","id":"1","s":"0123456789"}`), "", 0},
		{"longest string, escaped", doc(`{"type":"T","id":"1","s":"\n\n\n\n\n\n\n\n\u00e9"}`), "", 0},
		{"one byte longer", doc(`{"type":"T","id":"1","s":"0123456789a"}`), "MaxStringBytes", 78},
		{"one byte longer, escaped", doc(`{"type":"T","id":"1","s":"\n\n\n\n\n\n\n\n\n\n\n"}`), "MaxStringBytes", 78},
		{"invalid UTF-8 grows past", doc("{\"type\":\"T\",\"id\":\"1\",\"s\":\"\xff\xff\xff\xff\"}"), "MaxStringBytes", 78},
		{"long key", doc(`{"type":"T","id":"1","0123456789a":1}`), "MaxStringBytes", 74},
		{"long type", doc(`{"type":"0123456789a","id":"1"}`), "MaxStringBytes", 61},
		{"long input", doc(`{"type":"T","id":"1","s":"` + strings.Repeat(" ", 4096) + `"}`), "MaxInputBytes", 4096},
		{"materialised", doc(strings.Repeat(`{"type":"T","id":"1","a":[1e5,1e5,1e5,1e5]},`, 3) + `{"type":"T","id":"1","a":[1e5,1e5,1e5,1e5]}`), "", 0},
	} {
		c := wiretest.DecodeCase{Name: tc.name, In: []byte(tc.in), Limits: l, Limit: tc.limit}
		if tc.limit == "" {
			// Symmetry: what the decoder accepts, the encoder writes.
			c.Check = func(t *testing.T, r *wire.GraphResponse) {
				if _, err := small(t, l).AppendEncode(nil, r); err != nil {
					t.Fatalf("AppendEncode of a decoded response: %v", err)
				}
			}
		} else {
			c.CheckErr = func(t *testing.T, de *wire.DecodeError) {
				if de.Offset != tc.offset {
					t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, de)
				}
			}
		}
		s.Decode = append(s.Decode, c)
	}
	// Time per byte does not grow with the input for long objects of
	// escaped values, distinct or repeated keys, and long arrays.
	props := func(n int, distinct bool) []byte {
		var b strings.Builder
		b.WriteString(`{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1"`)
		for i := range n {
			b.WriteString(`,"k`)
			if distinct || i < 20 {
				b.WriteString(strconv.Itoa(i))
			}
			b.WriteString(`":"\n"`)
		}
		b.WriteString(`}],"edges":[]}`)
		return []byte(b.String())
	}
	s.Scaling = []wiretest.ScalingShape{
		{Name: "properties", Build: func(n int) []byte { return props(n/12, true) }},
		{Name: "repeated_keys", Build: func(n int) []byte { return props(n/10, false) }},
		{Name: "edges", Build: func(n int) []byte {
			var b strings.Builder
			b.WriteString(`{"format_version":"1","query_type":"search","nodes":[],"edges":[`)
			for i := range n / 70 {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"from":"A","from_id":"` + strconv.Itoa(i) + `","to":"B","to_id":"1","type":"R"}`)
			}
			b.WriteString(`]}`)
			return []byte(b.String())
		}},
	}
	wiretest.RunLimits(t, s)
}

// TestDecodeMaterializedSize: a response decodes under a MaxMaterializedBytes
// of exactly its canonical length, and not under one byte less, though its
// input (with "1e5" for 100000.0) is shorter.
func TestDecodeMaterializedSize(t *testing.T) {
	in := []byte(`{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","a":[1e5,1e5,1e5,1e5]}],"edges":[]}`)
	r, err := json.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	size := wirecodec.MaterializedSize(r)
	if size <= int64(len(in)) {
		t.Fatalf("test input does not grow: %d ≤ %d", size, len(in))
	}
	if _, err := small(t, wire.Limits{MaxMaterializedBytes: size}).Decode(in); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	_, err = small(t, wire.Limits{MaxMaterializedBytes: size - 1}).Decode(in)
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Limit != "MaxMaterializedBytes" {
		t.Fatalf("one byte under: Decode = %v, want a MaxMaterializedBytes error", err)
	}
}

// TestDecodeMeasuresExactly: on responses whose strings are escaped in
// the input or not, with unescaped invalid UTF-8, long strings and short,
// the decoder accepts the encoding under a MaxMaterializedBytes of exactly
// its canonical length and refuses it one byte under: the meter counts a
// string taken as it is from the input, without reading it, as exactly as
// one it unescaped.
func TestDecodeMeasuresExactly(t *testing.T) {
	parts := []string{"a", "é", `\n`, `\"`, `\u00e9`, `\ud800`, " ", `\\`, "\xff", strings.Repeat("x", 300)}
	rapid.Check(t, func(t *rapid.T) {
		str := func(label string) string {
			return `"` + strings.Join(rapid.SliceOfN(rapid.SampledFrom(parts), 0, 4).Draw(t, label), "") + `"`
		}
		var b strings.Builder
		b.WriteString(`{"format_version":"1","query_type":"search","nodes":[`)
		n := rapid.IntRange(0, 3).Draw(t, "nodes")
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"type":"T","id":"` + strconv.Itoa(i) + `","k":` + str("value") + `,"l":[` + str("item") + `]}`)
		}
		b.WriteString(`],"edges":[`)
		for i := range rapid.IntRange(0, 3).Draw(t, "edges") {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"from":` + str("from") + `,"from_id":"1","to":"B","to_id":"2","type":` + str("type") + `}`)
		}
		b.WriteString(`]}`)
		in := []byte(b.String())
		r, err := json.Decode(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		size := wirecodec.MaterializedSize(r)
		if _, err := within(t, size).Decode(in); err != nil {
			t.Fatalf("%s: at the limit of %d: %v", in, size, err)
		}
		_, err = within(t, size-1).Decode(in)
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Limit != "MaxMaterializedBytes" {
			t.Fatalf("%s: one byte under %d: Decode = %v, want a MaxMaterializedBytes error", in, size, err)
		}
	})
}

// within is the json codec with MaxMaterializedBytes n.
func within(t *rapid.T, n int64) *json.Codec {
	c, err := json.New(json.Options{Limits: wire.Limits{MaxMaterializedBytes: n}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestErrorsQuoteLittle: an error about a huge key or number quotes at most
// 64 bytes of it.
func TestErrorsQuoteLittle(t *testing.T) {
	huge := strings.Repeat("k", 8<<20)
	big := small(t, wire.Limits{MaxStringBytes: 16 << 20})
	for name, in := range map[string]string{
		"unknown top-level key": `{"` + huge + `":1}`,
		"duplicate property":    `{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","` + huge + `":1,"` + huge + `":2}],"edges":[]}`,
		"key past the limit":    `{"` + huge + huge + huge + `":1}`,
		"long integer":          `{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","n":` + strings.Repeat("9", 1<<20) + `}],"edges":[]}`,
		"long float":            `{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","n":1` + strings.Repeat("9", 400) + `.0}],"edges":[]}`,
		"long id":               `{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"` + huge + `"}],"edges":[]}`,
		"long query type":       `{"format_version":"1","query_type":"` + huge[:1000] + `"}`,
	} {
		_, err := big.Decode([]byte(in))
		if err == nil {
			t.Errorf("%s: Decode succeeded", name)
			continue
		}
		if msg := err.Error(); len(msg) > 200 {
			t.Errorf("%s: a %d-byte error message: %.300s", name, len(msg), msg)
		}
	}
}
