package binary

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// layoutBytes encodes a response record given as plain values, names in
// full, with the format's own library.
func layoutBytes(t *testing.T, f Format, layout int, pagination any) []byte {
	t.Helper()
	return libraryEncode(t, f, []any{layout, "5.0.1", "traversal", []any{}, []any{}, nil, nil, nil, pagination})
}

// libraryEncode encodes v with the format's own library.
func libraryEncode(t tb, f Format, v any) []byte {
	var b []byte
	var err error
	if f == Msgpack {
		b, err = msgpack.Marshal(v)
	} else {
		b, err = cborEnc.Marshal(v)
	}
	if err != nil {
		t.Fatalf("library encode: %v", err)
	}
	return b
}

// TestPaginationRoundTrip: schema v2 and v5 paginations, cursors of any
// content, come back exactly from both formats.
func TestPaginationRoundTrip(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		for _, pc := range testsupport.Paginations() {
			p := pc.Pagination
			r := &wire.GraphResponse{FormatVersion: "5.0.1", QueryType: wire.Traversal, Pagination: &p}
			b, err := c.AppendEncode(nil, r)
			if err != nil {
				t.Fatalf("%s %s: %v", f, pc.Name, err)
			}
			back, err := c.Decode(b)
			if err != nil {
				t.Fatalf("%s %s: %v", f, pc.Name, err)
			}
			if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", f, pc.Name, diff)
			}
		}
	}
}

// TestPaginationLayout pins the record: [has_more, total_rows] for v2 (as
// in layout 1), [has_more, null, truncated, next_cursor?] for v5, in
// layout 2.
func TestPaginationLayout(t *testing.T) {
	tests := []struct {
		p    wire.Pagination
		want any
	}{
		{wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](5)}, []any{true, 5}},
		{wire.Pagination{Truncated: wire.Some(true)}, []any{false, nil, true}},
		{wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("eyJo")}, []any{true, nil, false, "eyJo"}},
	}
	for _, f := range formats {
		for _, tc := range tests {
			r := &wire.GraphResponse{FormatVersion: "5.0.1", QueryType: wire.Traversal, Pagination: &tc.p}
			got, err := Default(f).AppendEncode(nil, r)
			if err != nil {
				t.Fatal(err)
			}
			if want := layoutBytes(t, f, layoutVersion, tc.want); string(got) != string(want) {
				t.Errorf("%s %+v:\n got % x\nwant % x", f, tc.p, got, want)
			}
		}
	}
}

// TestPaginationLayout1: bytes of layout 1 still decode, with its
// two-element pagination; anything else in it, or another layout version,
// is refused naming what was expected.
func TestPaginationLayout1(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		r, err := c.Decode(layoutBytes(t, f, 1, []any{true, 4312}))
		if err != nil {
			t.Fatalf("%s: layout 1: %v", f, err)
		}
		if diff := cmp.Diff(&wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)}, r.Pagination); diff != "" {
			t.Errorf("%s: layout 1 pagination (-want +got):\n%s", f, diff)
		}
		if r, err := c.Decode(layoutBytes(t, f, 1, nil)); err != nil || r.Pagination != nil {
			t.Errorf("%s: layout 1 without pagination: %v", f, err)
		}
		for _, tc := range []struct {
			layout     int
			pagination any
			want       string
		}{
			{1, []any{true, nil, true}, "pagination: 3 elements, expected 2"},
			{1, []any{true, nil}, "pagination total_rows: expected integer, found null"},
			{3, []any{true, 1}, "unsupported layout version 3 (Decode reads 1 and 2)"},
			{0, nil, "unsupported layout version 0 (Decode reads 1 and 2)"},
		} {
			_, err := c.Decode(layoutBytes(t, f, tc.layout, tc.pagination))
			var de *wire.DecodeError
			if !errors.As(err, &de) || !strings.Contains(de.Msg, tc.want) {
				t.Errorf("%s: layout %d %v: error %v, want one containing %q", f, tc.layout, tc.pagination, err, tc.want)
			}
		}
	}
}

// Bytes as graphwire wrote them in layout 1: [1, "", "search", [], [],
// null, null, null, [true, 1234]].
var (
	layout1Msgpack = []byte{0x99, 0x01, 0xa0, 0xa6, 's', 'e', 'a', 'r', 'c', 'h', 0x90, 0x90, 0xc0, 0xc0, 0xc0, 0x92, 0xc3, 0xcd, 0x04, 0xd2}
	layout1CBOR    = []byte{0x89, 0x01, 0x60, 0x66, 's', 'e', 'a', 'r', 'c', 'h', 0x80, 0x80, 0xf6, 0xf6, 0xf6, 0x82, 0xf5, 0x19, 0x04, 0xd2}
)

// TestPaginationLayout1Stored: stored layout 1 bytes decode to the
// response they held.
func TestPaginationLayout1Stored(t *testing.T) {
	want := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{}, Edges: []wire.Edge{},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](1234)}}
	for f, b := range map[Format][]byte{Msgpack: layout1Msgpack, CBOR: layout1CBOR} {
		r, err := Default(f).Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if diff := wiretest.Diff(want, r, wire.Exact); diff != "" {
			t.Errorf("%s (-want +got):\n%s", f, diff)
		}
	}
}

// TestPaginationRefused: layout 2 bytes whose pagination follows neither
// schema, or holds the wrong kinds, are refused.
func TestPaginationRefused(t *testing.T) {
	for _, f := range formats {
		c := Default(f)
		for _, tc := range []struct {
			pagination any
			want       string
		}{
			{[]any{true}, "pagination: 1 elements, expected 2 to 4"},
			{[]any{true, nil, true, "c", 1}, "pagination: 5 elements, expected 2 to 4"},
			{[]any{true, nil}, "pagination: neither total_rows (schema v2) nor truncated (schema v5)"},
			{[]any{true, 3, false}, "pagination: total_rows (schema v2) together with truncated (schema v5)"},
			{[]any{true, 3, nil, "c"}, "pagination: total_rows (schema v2) together with next_cursor (schema v5)"},
			{[]any{true, nil, nil, "c"}, "pagination: next_cursor without truncated"},
			{[]any{"yes", 3}, "pagination has_more: expected bool, found string"},
			{[]any{true, nil, "true"}, "pagination truncated: expected bool or null, found string"},
			{[]any{true, nil, true, 7}, "pagination next_cursor: expected string or null, found integer"},
			{[]any{true, 1.5}, "pagination total_rows: expected integer or null, found float"},
		} {
			_, err := c.Decode(layoutBytes(t, f, layoutVersion, tc.pagination))
			var de *wire.DecodeError
			if !errors.As(err, &de) || !strings.Contains(de.Msg, tc.want) {
				t.Errorf("%s: %v: error %v, want one containing %q", f, tc.pagination, err, tc.want)
			}
		}
	}
}

// TestPaginationEncodeRefused: the encoder refuses what the decoder would:
// a pagination in neither shape, and a cursor that is not UTF-8.
func TestPaginationEncodeRefused(t *testing.T) {
	for _, f := range formats {
		for _, tc := range []struct {
			p     wire.Pagination
			field string
		}{
			{wire.Pagination{HasMore: true}, "pagination"},
			{wire.Pagination{TotalRows: wire.Some[int64](1), Truncated: wire.Some(true)}, "pagination"},
			{wire.Pagination{NextCursor: wire.Some("c")}, "pagination"},
			{wire.Pagination{Truncated: wire.Some(true), NextCursor: wire.Some("\xff")}, "pagination.next_cursor"},
		} {
			r := &wire.GraphResponse{QueryType: wire.Traversal, Pagination: &tc.p}
			out, err := Default(f).AppendEncode([]byte("x"), r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Path != tc.field {
				t.Errorf("%s %+v: error %v, want an *EncodeError at %s", f, tc.p, err, tc.field)
			}
			if string(out) != "x" {
				t.Errorf("%s %+v: wrote % x", f, tc.p, out)
			}
		}
	}
}
