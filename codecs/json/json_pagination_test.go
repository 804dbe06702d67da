package json_test

import (
	"errors"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

const pageHead = `{"format_version":"5.0.1","query_type":"traversal","nodes":[],"edges":[],"pagination":`

// TestPaginationShapes: both schemas' pagination objects decode to the
// fields they hold and encode back byte for byte, keys in canonical order.
func TestPaginationShapes(t *testing.T) {
	tests := []struct {
		name string
		json string
		want wire.Pagination
	}{
		{"v2", `{"has_more":true,"total_rows":4312}`, wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)}},
		{"v2 last page", `{"has_more":false,"total_rows":0}`, wire.Pagination{TotalRows: wire.Some[int64](0)}},
		{"v5 with a cursor", `{"has_more":true,"truncated":true,"next_cursor":"eyJoIjoiYWQyMTczMWM5MTZm"}`,
			wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("eyJoIjoiYWQyMTczMWM5MTZm")}},
		{"v5 exhausted", `{"has_more":false,"truncated":false}`, wire.Pagination{Truncated: wire.Some(false)}},
		{"v5 truncated without more", `{"has_more":false,"truncated":true}`, wire.Pagination{Truncated: wire.Some(true)}},
		{"v5 empty cursor", `{"has_more":true,"truncated":false,"next_cursor":""}`,
			wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("")}},
		{"v5 awkward cursor", `{"has_more":true,"truncated":false,"next_cursor":"a b\"c\n☃\u0001"}`,
			wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("a b\"c\n☃\x01")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := pageHead + tc.json + "}"
			r, err := decodeJSON([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tc.want, r.Pagination); diff != "" {
				t.Errorf("decoded pagination (-want +got):\n%s", diff)
			}
			out, err := encodeJSON(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != in {
				t.Errorf("re-encoded:\n got %s\nwant %s", out, in)
			}
		})
	}
}

// TestPaginationKeyOrder: any key order is read; canonical order is
// written.
func TestPaginationKeyOrder(t *testing.T) {
	r, err := decodeJSON([]byte(pageHead + `{"next_cursor":"c","truncated":false,"has_more":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := encodeJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	want := pageHead + `{"has_more":true,"truncated":false,"next_cursor":"c"}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

// TestPaginationRefused: what neither schema allows is an error at the key
// that makes the mix, or at the object when a required field is missing.
func TestPaginationRefused(t *testing.T) {
	obj := len(pageHead) // offset of the pagination object
	tests := []struct {
		name   string
		json   string
		offset int
		substr string
	}{
		{"has_more alone", `{"has_more":true}`, obj, "pagination: neither total_rows (schema v2) nor truncated (schema v5)"},
		{"empty", `{}`, obj, `pagination: missing "has_more"`},
		{"v2 without has_more", `{"total_rows":3}`, obj, `pagination: missing "has_more"`},
		{"v5 without has_more", `{"truncated":true}`, obj, `pagination: missing "has_more"`},
		{"total_rows and truncated", `{"has_more":true,"total_rows":3,"truncated":false}`, obj + 32, "total_rows (schema v2) together with truncated (schema v5)"},
		{"truncated then total_rows", `{"has_more":true,"truncated":false,"total_rows":3}`, obj + 35, "total_rows (schema v2) together with truncated (schema v5)"},
		{"total_rows and next_cursor", `{"has_more":true,"total_rows":3,"next_cursor":"c"}`, obj + 32, "total_rows (schema v2) together with next_cursor (schema v5)"},
		{"next_cursor without truncated", `{"has_more":true,"next_cursor":"c"}`, obj + 17, "next_cursor without truncated (schema v5 requires truncated)"},
		{"all four", `{"has_more":true,"total_rows":3,"truncated":true,"next_cursor":"c"}`, obj + 32, "together with truncated"},
		{"truncated a string", `{"has_more":true,"truncated":"true"}`, obj + 29, "expected boolean for pagination truncated, found string"},
		{"truncated null", `{"has_more":true,"truncated":null}`, obj + 29, "expected boolean for pagination truncated, found null"},
		{"next_cursor null", `{"has_more":true,"truncated":true,"next_cursor":null}`, obj + 48, `expected a string for "next_cursor", found null`},
		{"next_cursor a number", `{"has_more":true,"truncated":true,"next_cursor":7}`, obj + 48, `expected a string for "next_cursor", found number`},
		{"duplicate truncated", `{"has_more":true,"truncated":true,"truncated":false}`, obj + 34, `pagination: duplicate field "truncated"`},
		{"duplicate next_cursor", `{"has_more":true,"truncated":true,"next_cursor":"a","next_cursor":"b"}`, obj + 52, `pagination: duplicate field "next_cursor"`},
		{"v2 field misspelt", `{"has_more":true,"total":3}`, obj + 17, `pagination: unknown field "total"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			de := checkDecodeFails(t, tc.name, []byte(pageHead+tc.json+"}"))
			if de == nil {
				return
			}
			if de.Offset != int64(tc.offset) {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, de)
			}
			if !strings.Contains(de.Msg, tc.substr) {
				t.Errorf("message %q, want it to contain %q", de.Msg, tc.substr)
			}
		})
	}
}

// TestPaginationEncodeRefused: the encoder refuses the paginations the
// decoder rejects, writing nothing.
func TestPaginationEncodeRefused(t *testing.T) {
	for _, p := range []wire.Pagination{
		{HasMore: true},
		{TotalRows: wire.Some[int64](1), Truncated: wire.Some(false)},
		{TotalRows: wire.Some[int64](1), NextCursor: wire.Some("c")},
		{HasMore: true, NextCursor: wire.Some("c")},
	} {
		r := &wire.GraphResponse{QueryType: wire.Traversal, Pagination: &p}
		out, err := jsoncodec.AppendEncode([]byte("x"), r)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || ee.Path != "pagination" || ee.Msg != p.Check().Error() {
			t.Errorf("%+v: error %v, want a *wire.EncodeError at pagination saying %q", p, err, p.Check())
		}
		if string(out) != "x" {
			t.Errorf("%+v: wrote %q", p, out)
		}
	}
}

// TestPaginationExactRoundTrip: v2 and v5 paginations of generated
// responses come back exactly.
func TestPaginationExactRoundTrip(t *testing.T) {
	for i, p := range []wire.Pagination{
		{HasMore: true, TotalRows: wire.Some[int64](-1 << 63)},
		{HasMore: false, Truncated: wire.Some(true), NextCursor: wire.Some("\x00\x1f\x7f 😀 \"q\" \\")},
	} {
		r := &wire.GraphResponse{FormatVersion: "5.0.1", QueryType: wire.Aggregation, Pagination: &p}
		out, err := encodeJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decodeJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := wiretest.Diff(r, d, wire.Exact); diff != "" {
			t.Errorf("case %d (-want +got):\n%s", i, diff)
		}
	}
}
