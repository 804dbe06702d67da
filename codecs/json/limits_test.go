package json_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func small(t *testing.T, l wire.Limits) *json.Codec {
	t.Helper()
	c, err := json.New(json.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDecodeLimits decodes inputs at each limit, which succeed, and one
// step past, which fail with a positioned error naming the limit.
func TestDecodeLimits(t *testing.T) {
	l := wire.Limits{MaxInputBytes: 4096, MaxDepth: 3, MaxElements: 4, MaxStringBytes: 10, MaxMaterializedBytes: 2000}
	c := small(t, l)
	doc := func(nodes string) string {
		return `{"format_version":"1","query_type":"search","nodes":[` + nodes + `],"edges":[]}`
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
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Decode([]byte(tc.in))
			if tc.limit == "" {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				// Symmetry: what the decoder accepts, the encoder writes.
				if _, err := c.AppendEncode(nil, r); err != nil {
					t.Fatalf("AppendEncode of a decoded response: %v", err)
				}
				return
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Limit != tc.limit || !errors.Is(err, wire.ErrLimit) {
				t.Fatalf("Decode = %v, want a *wire.DecodeError with Limit %s", err, tc.limit)
			}
			if de.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, err)
			}
		})
	}
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
	size := wire.MaterializedSize(r)
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

func TestDecodeByteOrderMark(t *testing.T) {
	r := wiretest.Response().Example(4)
	b, err := json.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Decode(append([]byte("\ufeff"), b...))
	if err != nil {
		t.Fatalf("Decode with a BOM: %v", err)
	}
	if d := wiretest.Diff(r, got, wire.Exact); d != "" {
		t.Errorf("with a BOM (-want +got):\n%s", d)
	}
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

// TestEncodeSymmetry: the encoder refuses, with a *wire.EncodeError naming
// the path, a response its own decoder would refuse, and an encoding
// longer than MaxInputBytes.
func TestEncodeSymmetry(t *testing.T) {
	c := small(t, wire.Limits{MaxDepth: 2, MaxInputBytes: 200})
	deep := wire.ListOf(wire.ListOf(wire.ListOf()))
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop("l", deep)}}}}
	_, err := c.AppendEncode(nil, r)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || ee.Limit != "MaxDepth" || ee.Path != "nodes[0].properties.l[0][0]" || ee.Codec != "json" {
		t.Fatalf("AppendEncode = %v, want a MaxDepth *wire.EncodeError at nodes[0].properties.l[0][0]", err)
	}
	r.Nodes[0].Properties[0].Value = wire.String(strings.Repeat("x", 200))
	dst := []byte("prefix")
	out, err := c.AppendEncode(dst, r)
	if !errors.As(err, &ee) || ee.Limit != "MaxInputBytes" || string(out) != "prefix" {
		t.Fatalf("AppendEncode = %q, %v; want dst unchanged and a MaxInputBytes *wire.EncodeError", out, err)
	}
	r.Nodes[0].Properties[0].Value = wire.String("x")
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decode(b); err != nil {
		t.Fatalf("decoding its own output: %v", err)
	}
}
