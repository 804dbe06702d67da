package testsupport

import "github.com/graphwire/graphwire/wire"

// PaginationCase is a named pagination for the codecs' round-trip tests.
type PaginationCase struct {
	Name       string
	Pagination wire.Pagination
}

// Cursors are next_cursor tokens that stress a text format: GKG's own
// base64 shape, and ones holding what a line or a quote would break on
// (spaces, quotes, backslashes, newlines, unicode, control characters, the
// empty string, keywords and numbers).
var Cursors = []string{
	"eyJoIjoiYWQyMTczMWM5MTZm",
	"eyJvIjoxMDB9==",
	"",
	"with space",
	`say "hi"`,
	`back\slash`,
	"line one\nline two",
	"cr\rtab\there",
	"日本語 ☃ 😀",
	"\x00\x01\x1f\x7f",
	"bare\x01safe",
	"true",
	"null",
	"42",
	"-1.5",
	" lead",
	"trail ",
	"a:b/c@d+e.f_g-h",
	"@header\nquery_type:traversal",
	"#{}[],|=",
}

// Paginations returns schema v2 and v5 paginations: v2 with and without
// has_more and at the ends of int64, v5 exhausted, truncated, and with
// every cursor of Cursors. The result is new on every call.
func Paginations() []PaginationCase {
	cases := []PaginationCase{
		{"v2", wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](4312)}},
		{"v2 last page", wire.Pagination{TotalRows: wire.Some[int64](0)}},
		{"v2 max", wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](1<<63 - 1)}},
		{"v2 min", wire.Pagination{TotalRows: wire.Some[int64](-1 << 63)}},
		{"v5 exhausted", wire.Pagination{Truncated: wire.Some(false)}},
		{"v5 truncated", wire.Pagination{Truncated: wire.Some(true)}},
		{"v5 has_more only", wire.Pagination{HasMore: true, Truncated: wire.Some(false)}},
	}
	for i, c := range Cursors {
		cases = append(cases, PaginationCase{
			Name:       "v5 cursor " + string(rune('a'+i)),
			Pagination: wire.Pagination{HasMore: i%2 == 0, Truncated: wire.Some(i%3 == 0), NextCursor: wire.Some(c)},
		})
	}
	return cases
}
