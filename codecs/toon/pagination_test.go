package toon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// TestPaginationRoundTrip: schema v2 and v5 paginations, cursors of any
// content, come back by value, and encode to the same bytes again.
func TestPaginationRoundTrip(t *testing.T) {
	for _, pc := range testsupport.Paginations() {
		t.Run(pc.Name, func(t *testing.T) {
			p := pc.Pagination
			graphRoundTrip(t, &wire.GraphResponse{FormatVersion: "5.0.1", QueryType: wire.Traversal, Pagination: &p})
		})
	}
}

// TestPaginationText pins the pagination object of each schema.
func TestPaginationText(t *testing.T) {
	tests := []struct {
		p    wire.Pagination
		want string
	}{
		{wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)}, "pagination:\n  has_more: true\n  total_rows: 4312"},
		{wire.Pagination{Truncated: wire.Some(false)}, "pagination:\n  has_more: false\n  truncated: false"},
		{wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("eyJoIjoi")},
			"pagination:\n  has_more: true\n  truncated: true\n  next_cursor: eyJoIjoi"},
		{wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("42")},
			"pagination:\n  has_more: true\n  truncated: true\n  next_cursor: \"42\""},
	}
	for _, tc := range tests {
		b, err := toon.Encode(&wire.GraphResponse{FormatVersion: "5.0.1", QueryType: wire.Traversal, Pagination: &tc.p})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(b), "\n"+tc.want) {
			t.Errorf("%+v:\n%s\nwant it to end with:\n%s", tc.p, b, tc.want)
		}
	}
}

// TestPaginationEncodeRefused: a pagination in neither schema's shape is
// refused, as the decoder refuses it.
func TestPaginationEncodeRefused(t *testing.T) {
	for _, p := range []wire.Pagination{
		{HasMore: true},
		{TotalRows: wire.Some[int64](1), Truncated: wire.Some(true)},
		{Truncated: wire.Opt[bool]{}, NextCursor: wire.Some("c")},
	} {
		out, err := toon.AppendEncode([]byte("x"), &wire.GraphResponse{QueryType: wire.Search, Pagination: &p})
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || ee.Path != "pagination" || ee.Msg != p.Check().Error() {
			t.Errorf("%+v: error %v, want an *EncodeError at pagination saying %q", p, err, p.Check())
		}
		if string(out) != "x" {
			t.Errorf("%+v: wrote %q", p, out)
		}
	}
}
