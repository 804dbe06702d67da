package wire_test

import (
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// TestPaginationSchema: the two published shapes and nothing else.
func TestPaginationSchema(t *testing.T) {
	some, cursor := wire.Some(false), wire.Some("c")
	tests := []struct {
		p     wire.Pagination
		want  int
		check string
	}{
		{wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](3)}, 2, ""},
		{wire.Pagination{TotalRows: wire.Some[int64](0)}, 2, ""},
		{wire.Pagination{HasMore: true, Truncated: some}, 5, ""},
		{wire.Pagination{Truncated: wire.Some(true), NextCursor: cursor}, 5, ""},
		{wire.Pagination{Truncated: some, NextCursor: wire.Some("")}, 5, ""},
		{wire.Pagination{}, 0, "neither total_rows (schema v2) nor truncated (schema v5)"},
		{wire.Pagination{HasMore: true}, 0, "neither total_rows (schema v2) nor truncated (schema v5)"},
		{wire.Pagination{NextCursor: cursor}, 0, "next_cursor without truncated (schema v5 requires truncated)"},
		{wire.Pagination{TotalRows: wire.Some[int64](1), Truncated: some}, 0, "total_rows (schema v2) together with truncated (schema v5)"},
		{wire.Pagination{TotalRows: wire.Some[int64](1), NextCursor: cursor}, 0, "total_rows (schema v2) together with next_cursor (schema v5)"},
		{wire.Pagination{TotalRows: wire.Some[int64](1), Truncated: some, NextCursor: cursor}, 0, "total_rows (schema v2) together with truncated (schema v5)"},
	}
	for _, tc := range tests {
		if got := tc.p.Schema(); got != tc.want {
			t.Errorf("%+v: Schema() = %v, want %v", tc.p, got, tc.want)
		}
		err := tc.p.Check()
		switch {
		case tc.check == "" && err != nil:
			t.Errorf("%+v: Check() = %v, want nil", tc.p, err)
		case tc.check != "" && (err == nil || err.Error() != tc.check):
			t.Errorf("%+v: Check() = %v, want %q", tc.p, err, tc.check)
		}
	}
}
