package goon_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func trav(nodes, edges string, body ...string) string {
	return doc(cat(head("traversal", nodes, edges), body)...)
}

func TestDecodeErrors(t *testing.T) {
	aggHead := func(nodes string, extra ...string) []string { return cat(head("aggregation", nodes, "0"), extra) }
	cases := []struct {
		name string
		in   string
		line int
		msg  string
	}{
		// Document shape.
		{"empty_input", "", 1, "empty input, expected @header"},
		{"no_final_newline", "@header\nquery_type:traversal", 2, "the last line does not end with a newline"},
		{"header_not_first", "@nodes\n", 1, `expected @header, found "@nodes"`},
		{"blank_line", doc("@header", "query_type:traversal", "", "goon_version:1.0.0"), 3, "blank line"},
		{"invalid_utf8", trav("1", "0", "@nodes", "User(1):", "1 a=\"\xff\"", "@edges"), 8, "invalid UTF-8"},
		// Header.
		{"unknown_header_field", doc("@header", "query_type:traversal", "goon_version:1.0.0", "foo:1"), 4, `unknown header field "foo"`},
		{"header_field_out_of_order", doc("@header", "goon_version:1.0.0", "query_type:traversal"), 3, "header field query_type out of order (after goon_version)"},
		{"duplicate_header_field", doc("@header", "query_type:traversal", "query_type:search"), 3, "duplicate header field query_type"},
		{"header_field_without_colon", doc("@header", "query_type traversal"), 2, "expected a header field key:value"},
		{"missing_header_field", doc("@header", "query_type:traversal", "goon_version:1.0.0", "nodes:0", "@nodes", "@edges"), 5, "header has no edges field"},
		{"header_runs_to_the_end", doc("@header", "query_type:traversal"), 2, "input ends, expected @nodes"},
		{"unknown_query_type", doc("@header", "query_type:graph"), 2, `unknown query_type "graph"`},
		{"unsupported_version", doc("@header", "query_type:search", "goon_version:5.0.0"), 3, `unsupported goon_version "5.0.0" (this decoder reads 1.x.y to 4.x.y)`},
		{"version_before_1", doc("@header", "query_type:search", "goon_version:0.9.0"), 3, `unsupported goon_version "0.9.0"`},
		{"version_leading_zero", doc("@header", "query_type:search", "goon_version:04.0.1"), 3, `unsupported goon_version "04.0.1"`},
		{"version_prerelease", doc("@header", "query_type:search", "goon_version:4.0.1-rc1"), 3, `unsupported goon_version "4.0.1-rc1"`},
		{"malformed_version", doc("@header", "query_type:search", "goon_version:1.0"), 3, "unsupported goon_version"},
		{"bad_count", doc("@header", "query_type:search", "goon_version:1.0.0", "nodes:01"), 4, `expected a count after nodes:, found "01"`},
		{"negative_count", doc("@header", "query_type:search", "goon_version:1.0.0", "nodes:0", "edges:-1"), 5, "expected a count after edges:"},
		{"has_more_false", doc(cat(head("search", "0", "0"), lines("has_more:false"))...), 6, `expected has_more:true, found "false"`},
		{"truncated_false", doc(cat(head("search", "0", "0"), lines("truncated:false"))...), 6, `expected truncated:true, found "false"`},
		{"total_rows_with_truncated", doc(cat(head("search", "0", "0"), lines("total_rows:3", "truncated:true", "@nodes", "@edges"))...), 7,
			"truncated (schema v5) in a header with total_rows (schema v2)"},
		{"total_rows_with_next_cursor", doc(cat(head("search", "0", "0"), lines("has_more:true", "total_rows:3", "next_cursor:abc", "@nodes", "@edges"))...), 8,
			"next_cursor (schema v5) in a header with total_rows (schema v2)"},
		{"next_cursor_before_truncated", doc(cat(head("search", "0", "0"), lines("next_cursor:abc", "truncated:true"))...), 7, "header field truncated out of order (after next_cursor)"},
		{"truncated_before_total_rows", doc(cat(head("search", "0", "0"), lines("truncated:true", "total_rows:3"))...), 7, "header field total_rows out of order (after truncated)"},
		{"empty_next_cursor", doc(cat(head("search", "0", "0"), lines("next_cursor:"))...), 6, "expected a token after next_cursor:"},
		{"next_cursor_needs_quotes", doc(cat(head("search", "0", "0"), lines("next_cursor:a b"))...), 6, `unexpected ' ' in the bare next_cursor (such tokens are quoted)`},
		{"next_cursor_junk_after_quote", doc(cat(head("search", "0", "0"), lines(`next_cursor:"a"b`))...), 6, `unexpected 'b' after the quoted next_cursor`},
		{"next_cursor_unterminated", doc(cat(head("search", "0", "0"), lines(`next_cursor:"ab`))...), 6, "unterminated quoted value"},
		{"next_cursor_bad_escape", doc(cat(head("search", "0", "0"), lines(`next_cursor:"a\u0001"`))...), 6, `invalid escape \u`},
		{"duplicate_next_cursor", doc(cat(head("search", "0", "0"), lines("next_cursor:a", "next_cursor:b"))...), 7, "duplicate header field next_cursor"},
		{"bad_total_rows", doc(cat(head("search", "0", "0"), lines("total_rows:x"))...), 6, "expected an integer after total_rows:"},
		{"rows_field_outside_aggregation", trav("0", "0", "rows:1", "@nodes", "@edges"), 6, "rows in a traversal response (only aggregation has it)"},
		{"bad_group_descriptor", doc(aggHead("0", "group_by:u")...), 6, `expected a group descriptor name(node[:Entity]) or name(property[:property]), found "u"`},
		{"unknown_group_kind", doc(aggHead("0", "group_by:u(edge)")...), 6, `unknown group kind "edge"`},
		{"bad_group_detail", doc(aggHead("0", "group_by:u(node:Us er)")...), 6, "bad group descriptor"},
		{"bad_aggregation_descriptor", doc(aggHead("0", "aggregations:n(count:a.b.c)")...), 6, "bad aggregation descriptor"},
		{"empty_function", doc(aggHead("0", "aggregations:n()")...), 6, "bad aggregation descriptor"},
		{"duplicate_column_name", doc(aggHead("0", "group_by:n(property)", "aggregations:n(count)")...), 7, "column name n repeats"},
		// Sections.
		{"unknown_section", trav("0", "0", "@hints"), 6, `unknown section "@hints", expected @nodes`},
		{"section_out_of_order", trav("0", "0", "@edges"), 6, "section @edges out of order, expected @nodes"},
		{"paths_outside_path_finding", trav("0", "0", "@nodes", "@paths"), 7, "@paths is only for path_finding, expected @edges"},
		{"edges_in_path_finding", doc(cat(head("path_finding", "0", "0"), lines("@nodes", "@edges"))...), 7, "@edges in a path_finding response, expected @paths"},
		{"missing_edges_section", trav("0", "0", "@nodes"), 6, "input ends, expected @edges"},
		{"section_after_edges", trav("0", "0", "@nodes", "@edges", "@nodes"), 8, "section @nodes out of order, expected @rows or the end of the input"},
		{"section_after_rows", trav("0", "0", "@nodes", "@edges", "@rows", "@edges"), 9, "section @edges out of order, expected end of input"},
		{"rows_field_without_rows_section", doc(aggHead("0", "rows:0", "@nodes", "@edges")...), 6, "rows:0 but there is no @rows section"},
		{"rows_section_without_rows_field", doc(aggHead("0", "@nodes", "@edges", "@rows")...), 8, "@rows in an aggregation whose header has no rows: field"},
		// Counts and groups.
		{"node_count_disagrees", trav("2", "0", "@nodes", "User(1):", "1", "@edges"), 4, "nodes:2 but @nodes has 1 rows"},
		{"group_ends_early", trav("1", "0", "@nodes", "User(2):", "1", "@edges"), 9, "group User(2): ends after 1 rows"},
		{"group_ends_early_before_next_group", trav("2", "0", "@nodes", "User(2):", "1", "Group(1):", "2", "@edges"), 9, "group User(2): ends after 1 rows"},
		{"more_rows_than_group", trav("2", "0", "@nodes", "User(1):", "1", "2", "@edges"), 9, "more rows than group User declares"},
		{"row_before_its_group", trav("1", "0", "@nodes", "1", "@edges"), 7, "a node row before its Type(n): group"},
		{"bad_group_header", trav("1", "0", "@nodes", "User(x):", "1", "@edges"), 7, `expected a node group Type(count):, found "User(x):"`},
		{"empty_group", trav("0", "0", "@nodes", "User(0):", "@edges"), 7, "expected a node group Type(count):"},
		{"edge_count_disagrees", trav("0", "2", "@nodes", "@edges", "R(1):", "User:1 --> MR:2"), 5, "edges:2 but @edges has 1 edges"},
		{"edge_group_ends_early", trav("0", "2", "@nodes", "@edges", "R(2):", "User:1 --> MR:2"), 9, "group R(2): ends after 1 edges"},
		{"rows_count_disagrees", doc(aggHead("0", "rows:2", "aggregations:n(count)", "@nodes", "@edges", "@rows", "n=1")...), 6, "rows:2 but @rows has 1 rows"},
		// Node rows.
		{"bad_id", trav("1", "0", "@nodes", "User(1):", "12a username=x", "@edges"), 8, `bad id "12a", expected a decimal int64`},
		{"id_with_plus", trav("1", "0", "@nodes", "User(1):", "+1", "@edges"), 8, "bad id"},
		{"id_with_leading_zero", trav("1", "0", "@nodes", "User(1):", "01", "@edges"), 8, "bad id"},
		{"id_minus_zero", trav("1", "0", "@nodes", "User(1):", "-0", "@edges"), 8, "bad id"},
		{"id_out_of_range", trav("1", "0", "@nodes", "User(1):", "9223372036854775808", "@edges"), 8, "bad id"},
		{"unterminated_quote", trav("1", "0", "@nodes", "User(1):", `1 name="abc`, "@edges"), 8, "unterminated quoted value"},
		{"unterminated_quote_after_escape", trav("1", "0", "@nodes", "User(1):", `1 name="abc\"`, "@edges"), 8, "unterminated quoted value"},
		{"invalid_escape", trav("1", "0", "@nodes", "User(1):", `1 name="a\x"`, "@edges"), 8, `invalid escape \x`},
		{"escape_before_control_character", trav("1", "0", "@nodes", "User(1):", "1 name=\"a\\\x01b\"", "@edges"), 8, `invalid escape: backslash before '\x01'`},
		{"escape_before_non_ascii", trav("1", "0", "@nodes", "User(1):", `1 name="\é"`, "@edges"), 8, `invalid escape: backslash before 'é'`},
		{"unicode_escape_is_invalid", trav("1", "0", "@nodes", "User(1):", `1 name="\u0041"`, "@edges"), 8, `invalid escape \u`},
		{"control_character_in_quotes", trav("1", "0", "@nodes", "User(1):", "1 name=\"a\tb\"", "@edges"), 8, `control character '\t' in a quoted value`},
		{"bare_value_needs_quotes", trav("1", "0", "@nodes", "User(1):", "1 a=b,c", "@edges"), 8, `unexpected ',' in the bare value of a (such values are quoted)`},
		{"missing_value", trav("1", "0", "@nodes", "User(1):", "1 a=", "@edges"), 8, "expected a value after a="},
		{"missing_equals", trav("1", "0", "@nodes", "User(1):", "1 a", "@edges"), 8, "expected '=' after key a"},
		{"double_space", trav("1", "0", "@nodes", "User(1):", "1  a=b", "@edges"), 8, "expected a key, found ' '"},
		{"trailing_space", trav("1", "0", "@nodes", "User(1):", "1 a=b ", "@edges"), 8, "expected a key at the end of the line"},
		{"junk_after_quote", trav("1", "0", "@nodes", "User(1):", `1 a="x"y`, "@edges"), 8, "expected a space after the quoted value of a"},
		{"null_in_node_row", trav("1", "0", "@nodes", "User(1):", "1 a=null", "@edges"), 8, "null in a node row"},
		{"duplicate_key", trav("1", "0", "@nodes", "User(1):", "1 a=1 a=2", "@edges"), 8, "duplicate key a"},
		{"reserved_key", trav("1", "0", "@nodes", "User(1):", "1 id=3", "@edges"), 8, "property named id (reserved for the node itself)"},
		// Edges.
		{"edge_before_its_group", trav("0", "1", "@nodes", "@edges", "User:1 --> MR:2"), 8, "an edge before its REL(n): group"},
		{"bad_arrow", trav("0", "1", "@nodes", "@edges", "R(1):", "User:1 -> MR:2"), 9, `expected " --> " after the source`},
		{"bad_edge_id", trav("0", "1", "@nodes", "@edges", "R(1):", "User:x --> MR:2"), 9, `bad id "x" in source`},
		{"bad_endpoint", trav("0", "1", "@nodes", "@edges", "R(1):", "User --> MR:2"), 9, "expected source Type:id"},
		{"unknown_edge_field", trav("0", "1", "@nodes", "@edges", "R(1):", "User:1 --> MR:2 weight=3"), 9, `unexpected " weight=3" after the edge`},
		{"edge_fields_out_of_order", trav("0", "1", "@nodes", "@edges", "R(1):", "User:1 --> MR:2 step=1 depth=2"), 9, "after the edge (expected depth=, path_id=, step= in that order)"},
		{"bad_depth", trav("0", "1", "@nodes", "@edges", "R(1):", "User:1 --> MR:2 depth=x"), 9, "expected an integer after depth="},
		// Paths.
		{"path_without_prefix", doc(cat(head("path_finding", "0", "1"), lines("@nodes", "@paths", "0: User:1 --R--> MR:2"))...), 8, "expected path=ID: ..."},
		{"path_without_edges", doc(cat(head("path_finding", "0", "0"), lines("@nodes", "@paths", "path=0: User:1"))...), 8, "path 0 has no edges"},
		{"paths_out_of_order", doc(cat(head("path_finding", "0", "2"), lines("@nodes", "@paths", "path=1: A:1 --R--> B:2", "path=0: A:1 --R--> B:2"))...), 9,
			"path 0 after path 1 (paths come once each, in increasing id)"},
		{"path_repeats", doc(cat(head("path_finding", "0", "2"), lines("@nodes", "@paths", "path=0: A:1 --R--> B:2", "path=0: A:1 --R--> B:2"))...), 9, "path 0 after path 0"},
		{"bad_path_segment", doc(cat(head("path_finding", "0", "1"), lines("@nodes", "@paths", "path=0: A:1 -R-> B:2"))...), 8, `expected " --REL--> " in the path`},
		{"bad_path_id", doc(cat(head("path_finding", "0", "1"), lines("@nodes", "@paths", "path=x: A:1 --R--> B:2"))...), 8, `bad path id "x"`},
		{"path_edge_count_disagrees", doc(cat(head("path_finding", "0", "2"), lines("@nodes", "@paths", "path=0: A:1 --R--> B:2"))...), 5, "edges:2 but @paths has 1 edges"},
		// Rows.
		{"cell_not_declared", doc(aggHead("0", "rows:1", "aggregations:n(count)", "@nodes", "@edges", "@rows", "m=1")...), 11, "cell m is not a column the header declares"},
		{"cells_out_of_order", doc(aggHead("0", "rows:1", "group_by:s(property)", "aggregations:n(count)", "@nodes", "@edges", "@rows", "n=1 s=a")...), 12,
			"cell s repeats or is out of order"},
		{"cell_repeats", doc(aggHead("0", "rows:1", "aggregations:n(count)", "@nodes", "@edges", "@rows", "n=1 n=1")...), 11, "cell n repeats or is out of order"},
		{"bare_string_in_node_column", doc(aggHead("0", "rows:1", "group_by:u(node:User)", "@nodes", "@edges", "@rows", "u=abc")...), 11,
			`expected a node reference Type:id (or a number, bool or null) in node column u, found "abc"`},
		{"lifted_node_out_of_place", doc(aggHead("1", "rows:1", "group_by:u(node:User)", "@nodes", "User(1):", "8", "@edges", "@rows", "u=User:7")...), 10,
			"expected node User:7 here, first referenced on line 13"},
		{"reference_not_listed", doc(aggHead("0", "rows:1", "group_by:u(node:User)", "@nodes", "@edges", "@rows", "u=User:7")...), 11,
			"row references User:7, which @nodes does not list in its place"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := goon.Decode([]byte(c.in))
			if err == nil {
				t.Fatalf("no error; decoded %+v", r)
			}
			if r != nil {
				t.Errorf("a response came back with the error")
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is %T, want *wire.DecodeError", err, err)
			}
			prefix := "goon: line " + strconv.Itoa(c.line) + ": "
			if de.Codec != "goon" || de.Line != c.line || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q (line %d)\nwant %q containing %q", err, de.Line, prefix, c.msg)
			}
		})
	}
}

// TestDecodeValues checks what each written form reads back as.
func TestDecodeValues(t *testing.T) {
	cases := []struct {
		name string
		line string // one node row of User 1
		want []wire.Property
	}{
		{"int_when_canonical", "1 a=42 b=-7 c=0 d=9223372036854775807 e=-9223372036854775808",
			[]wire.Property{P("a", I(42)), P("b", I(-7)), P("c", I(0)), P("d", I(9223372036854775807)), P("e", I(-9223372036854775808))}},
		{"non_canonical_integers_are_strings", "1 a=007 b=+1 c=-0 d=9223372036854775808",
			[]wire.Property{P("a", S("007")), P("b", S("+1")), P("c", F(negZero())), P("d", S("9223372036854775808"))}},
		{"float_when_shortest_form", "1 a=1.5 b=0.1 c=0.0000005 d=1.50 e=1e5 f=.5 g=1.",
			[]wire.Property{P("a", F(1.5)), P("b", F(0.1)), P("c", F(5e-7)), P("d", S("1.50")), P("e", S("1e5")), P("f", S(".5")), P("g", S("1."))}},
		{"non_finite_words_are_strings", "1 a=NaN b=Inf c=infinity",
			[]wire.Property{P("a", S("NaN")), P("b", S("Inf")), P("c", S("infinity"))}},
		{"bools_and_keyword_strings", `1 a=true b=false c="true" d="null" e=True`,
			[]wire.Property{P("a", B(true)), P("b", B(false)), P("c", S("true")), P("d", S("null")), P("e", S("True"))}},
		{"quoted_is_always_a_string", `1 a="42" b="a b" c="x\\y\"z\n\r\t" d="日本"`,
			[]wire.Property{P("a", S("42\x1a")), P("b", S("a b")), P("c", S("x\\y\"z\n\r\t")), P("d", S("日本"))}},
		{"bare_tokens_and_datetimes", "1 a=x/y@z+1 b=2026-05-08T22:55:58.123",
			[]wire.Property{P("a", S("x/y@z+1")), P("b", S("2026-05-08T22:55:58.123"))}},
		{"lists_read_back_as_strings", `1 labels="[1,\"a\"]"`, []wire.Property{P("labels", S(`[1,"a"]`))}},
		{"quoted_text_that_would_be_bare_keeps_a_stand_in", `1 a="abc" b="" c="2026-05-08 22:55:58"`,
			[]wire.Property{P("a", S("abc\x1a")), P("b", S("\x1a")), P("c", S("2026-05-08 22:55:58\x1a"))}},
		{"key_len_after_a_value_not_cut_is_a_property", "1 x=abc... x_len=5000 y=short y_len=9000",
			[]wire.Property{P("x", S("abc...")), P("x_len", I(5000)), P("y", S("short")), P("y_len", I(9000))}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := trav("1", "0", "@nodes", "User(1):", c.line, "@edges")
			// The text writes back as it was read.
			r := fixedPoint(t, goon.Default(), []byte(in))
			want := resp(wire.Traversal, nodes(node("User", 1, c.want...)))
			want.FormatVersion = ""
			if diff := wiretest.Diff(want, r, wire.Exact); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

// TestDecodeStructure checks sections other than node rows: edges with
// their optional fields, paths, rows, descriptors, pagination, and lifted
// nodes.
func TestDecodeStructure(t *testing.T) {
	t.Run("edges", func(t *testing.T) {
		in := trav("0", "3", "@nodes", "@edges", "R(2):", "User:1 --> MR:-2 depth=3", "User:1 --> MR:2 path_id=4 step=5", "S(1):", "A:1 --> B:1")
		r, err := goon.Decode([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want := []wire.Edge{withDepth(edge("R", "User", 1, "MR", -2), 3), onPath(edge("R", "User", 1, "MR", 2), 4, 5), edge("S", "A", 1, "B", 1)}
		if diff := cmp.Diff(want, r.Edges); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("paths", func(t *testing.T) {
		in := doc(cat(head("path_finding", "0", "3"), lines("@nodes", "@paths", "path=-1: A:1 --R--> B:2 --S--> C:3", "path=7: A:1 --R--> B:2"))...)
		r, err := goon.Decode([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want := []wire.Edge{onPath(edge("R", "A", 1, "B", 2), -1, 0), onPath(edge("S", "B", 2, "C", 3), -1, 1), onPath(edge("R", "A", 1, "B", 2), 7, 0)}
		if diff := cmp.Diff(want, r.Edges); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("broken_chain", func(t *testing.T) {
		// A:1→B:2 then C:3→D:4 on one path is written as one chain, which
		// reads back with the second edge starting at B:2.
		in, err := goon.Encode(resp(wire.PathFinding, nil, onPath(edge("R", "A", 1, "B", 2), 0, 0), onPath(edge("S", "C", 3, "D", 4), 0, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r, err := goon.Decode(in)
		if err != nil {
			t.Fatal(err)
		}
		want := []wire.Edge{onPath(edge("R", "A", 1, "B", 2), 0, 0), onPath(edge("S", "B", 2, "D", 4), 0, 1)}
		if diff := cmp.Diff(want, r.Edges); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("aggregation", func(t *testing.T) {
		in := doc(cat(head("aggregation", "3", "0"), lines("has_more:true", "total_rows:40", "rows:3",
			"group_by:u(node:User),sev(property:severity),state(property),g(node)", "aggregations:n(count),m(max:v.updated_at),t(sum:v)",
			"@nodes", "Group(1):", "1 name=own", "User(2):", "9 username=i", "3 username=c", "@edges", "@rows",
			"u=User:9 sev=null state=User:1 n=5", "u=User:3 g=null m=1.5 t=2", "u=User:9 g=7"))...)
		r := fixedPoint(t, goon.Default(), []byte(in))
		u3 := node("User", 3, P("username", S("c")))
		u9 := node("User", 9, P("username", S("i")))
		want := &wire.GraphResponse{
			QueryType: wire.Aggregation,
			Nodes:     nodes(node("Group", 1, P("name", S("own")))),
			GroupColumns: []wire.GroupColumn{
				{Name: "u", Kind: wire.GroupByNode, Entity: wire.Some("User")},
				{Name: "sev", Kind: wire.GroupByProperty, Property: wire.Some("severity")},
				{Name: "state", Kind: wire.GroupByProperty, Property: wire.Some("state")},
				{Name: "g", Kind: wire.GroupByNode},
			},
			Columns: []wire.Column{
				count("n"),
				{Name: "m", Function: "max", Target: wire.Some("v"), Property: wire.Some("updated_at")},
				{Name: "t", Function: "sum", Target: wire.Some("v")},
			},
			Rows: []wire.Row{
				row(ref("u", u9), cell("sev", N()), cell("state", S("User:1")), cell("n", I(5))),
				row(ref("u", u3), cell("g", N()), cell("m", F(1.5)), cell("t", I(2))),
				row(ref("u", u9), cell("g", I(7))),
			},
			Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](40)},
		}
		if diff := wiretest.Diff(want, r, wire.Exact); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// TestDecodeTruncatedValues: a value cut at its limit and followed by its
// key_len breadcrumb reads back as written — the kept text and "...", and
// the breadcrumb as the int property key_len — and re-encoding reproduces
// the line. Where the node has a key_len property of its own, the value is
// restored to the declared length instead, so that it truncates to the
// same text.
func TestDecodeTruncatedValues(t *testing.T) {
	cases := []struct {
		name  string
		value wire.Value
		key   string
	}{
		{"bare_long_text", S(strings.Repeat("x", 250)), "title"},
		{"quoted_long_text", S(strings.Repeat("a b ", 100)), "description"},
		{"other_key_at_1000", S(strings.Repeat("é", 1500)), "sha"},
		{"dropped_control_characters_in_the_kept_prefix", S("\x01\x02" + strings.Repeat("z", 300)), "note"},
		{"only_control_characters_kept", S(strings.Repeat("\x01", 197) + strings.Repeat("q", 10)), "body"},
		{"value_that_ends_in_dots", S(strings.Repeat(".", 205)), "name"},
		{"list_value", L(S(strings.Repeat("k", 300))), "body"},
		{"a_real_key_len_property_too", S(strings.Repeat("y", 1200)), "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			props := []wire.Property{P(c.key, c.value)}
			if c.key == "x" {
				props = append(props, P("x_len", I(3)))
			}
			first, err := goon.Encode(resp(wire.Traversal, nodes(node("N", 1, props...))))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(first), " "+c.key+"_len=") {
				t.Fatalf("no breadcrumb in\n%s", first)
			}
			d := fixedPoint(t, goon.Default(), first)
			got := d.Nodes[0].Properties[0]
			if got.Key != c.key || got.Value.Kind() != wire.KindString {
				t.Fatalf("first property %v", got)
			}
			origLen := utf8.RuneCountInString(c.value.Text())
			if c.value.Kind() == wire.KindList {
				origLen = utf8.RuneCountInString(`["` + strings.Repeat("k", 300) + `"]`)
			}
			if c.key == "x" { // a key_len of its own: restored
				if n := utf8.RuneCountInString(got.Value.Text()); n != origLen {
					t.Errorf("restored %d code points, want %d", n, origLen)
				}
			} else {
				orig := []rune(c.value.Text())
				if c.value.Kind() == wire.KindList {
					orig = []rune(`["` + strings.Repeat("k", 300) + `"]`)
				}
				limit := 200
				if c.key == "sha" {
					limit = 1000
				}
				kept := strings.Map(func(r rune) rune {
					if r < 0x20 && r != '\n' && r != '\r' && r != '\t' {
						return -1
					}
					return r
				}, string(orig[:limit-3]))
				if text := strings.TrimRight(got.Value.Text(), "\x1a"); text != kept+"..." {
					t.Errorf("read back %q, want the text as written, %q", got.Value.Text(), kept+"...")
				}
				want := []wire.Property{P(c.key+"_len", I(int64(origLen)))}
				if diff := cmp.Diff(want, d.Nodes[0].Properties[1:]); diff != "" {
					t.Errorf("breadcrumb (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestDecodeRestoreLimits(t *testing.T) {
	in := trav("1", "0", "@nodes", "N(1):", "1 title_len=1 title="+strings.Repeat("x", 197)+"... title_len=1000000", "@edges")
	if _, err := goon.Decode([]byte(in)); err != nil {
		t.Fatalf("default limits: %v", err)
	}
	small, err := goon.New(goon.Options{Limits: wire.Limits{MaxStringBytes: 4096}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = small.Decode([]byte(in))
	want := "goon: line 8: title_len=1000000 restores a value longer than the limit of 4096 bytes"
	if err == nil || err.Error() != want || !errors.Is(err, wire.ErrLimit) {
		t.Errorf("error %v\nwant %s", err, want)
	}
	huge := trav("1", "0", "@nodes", "N(1):", "1 title_len=1 title="+strings.Repeat("x", 197)+"... title_len=9223372036854775807", "@edges")
	if _, err := goon.Decode([]byte(huge)); err == nil || !strings.Contains(err.Error(), "restores a value longer than the limit") {
		t.Errorf("a breadcrumb of 2^63-1 gave %v", err)
	}
	if _, err := goon.New(goon.Options{Limits: wire.Limits{MaxStringBytes: -1}}); err == nil {
		t.Error("a negative MaxStringBytes was accepted")
	}
	tight, err := goon.New(goon.Options{Limits: wire.Limits{MaxMaterializedBytes: 100_000}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tight.Decode([]byte(in))
	if err == nil || !strings.HasPrefix(err.Error(), "goon: line 8: ") || !strings.Contains(err.Error(), "MaxMaterializedBytes") && !errors.Is(err, wire.ErrLimit) {
		t.Errorf("MaxMaterializedBytes 100000: %v", err)
	}
}

// TestDecodeWide exercises wide lines and headers, where repeated keys and
// column lookups go through maps.
func TestDecodeWide(t *testing.T) {
	var cols []wire.Column
	var cells []wire.Cell
	var props []wire.Property
	for i := 0; i < 40; i++ {
		name := "c" + strconv.Itoa(i)
		cols = append(cols, count(name))
		cells = append(cells, cell(name, I(int64(i))))
		props = append(props, P(name, I(int64(i))))
	}
	r := agg([]wire.GroupColumn{propGroup("g", "")}, cols, row(append([]wire.Cell{cell("g", S("x"))}, cells...)...))
	r.Nodes = nodes(node("N", 1, props...))
	text := encode(t, r)
	fixedPoint(t, goon.Default(), text)
	for _, c := range []struct{ from, to, msg string }{
		{" c39=39\n", " c39=39 c3=3\n", "cell c3 repeats or is out of order"},
		{" c39=39\n", " c39=39 zz=1\n", "cell zz is not a column the header declares"},
		{"1 c0=0", "1 c0=0 c39=1", "duplicate key c39"},
		{"aggregations:c0(count)", "aggregations:c39(count),c0(count)", "column name c39 repeats"},
	} {
		bad := strings.Replace(string(text), c.from, c.to, 1)
		if bad == string(text) {
			t.Fatalf("%q not found in\n%s", c.from, text)
		}
		if _, err := goon.Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.to, err, c.msg)
		}
	}
}

// TestKeyLenBesideTextThatReadsTruncated: a response whose text ends in
// "..." and whose key_len property exceeds the key's limit — what decoding
// a truncated value gives — is written with key_len right after the text,
// where the decoder reads it back as it was.
func TestKeyLenBesideTextThatReadsTruncated(t *testing.T) {
	in := resp(wire.Search, nodes(node("Issue", 3, P("description", S("a b...")), P("description_len", I(500)), P("iid", I(9)))))
	text := encode(t, in)
	if !strings.Contains(string(text), "\n3 iid=9 description=\"a b...\" description_len=500\n") {
		t.Fatalf("key_len not beside its text:\n%s", text)
	}
	back := fixedPoint(t, goon.Default(), text)
	want := []wire.Property{P("iid", I(9)), P("description", S("a b...")), P("description_len", I(500))}
	if diff := cmp.Diff(want, back.Nodes[0].Properties); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}
