package goon_test

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
)

type encodeCase struct {
	name string
	why  string // where not obvious
	in   *wire.GraphResponse
	want string
}

// encodeCases hold one or more cases per rule of SPEC §5, named for the
// rule (ruleN_ is §5 point N), each with the exact text expected.
func encodeCases() []encodeCase {
	x250 := strings.Repeat("x", 250)
	y1001 := strings.Repeat("y", 1001)
	return []encodeCase{
		// §5.1 header key, @rows for aggregation.
		{
			name: "rule1_header_key_is_goon_version",
			why:  "format_version is the upstream schema's, never written",
			in:   resp(wire.Traversal, nodes(node("User", 1, P("username", S("alice"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "User(1):", "1 username=alice", "@edges"))...),
		},
		{
			name: "rule1_aggregation_rows_section",
			in:   agg([]wire.GroupColumn{}, []wire.Column{count("total")}, row(cell("total", I(2347)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:1", "aggregations:total(count)", "@nodes", "@edges", "@rows", "total=2347"))...),
		},
		// §5.2 no blank lines; @header first.
		{
			name: "rule2_empty_response_keeps_every_marker",
			in:   resp(wire.Search, nil),
			want: doc(cat(head("search", "0", "0"), lines("@nodes", "@edges"))...),
		},
		{
			name: "rule2_row_with_nothing_to_write_is_left_out",
			why:  "a row whose cells are all omitted would be a blank line; rows: counts the lines written",
			in: agg(nil, []wire.Column{count("c")},
				row(cell("c", S(""))), row(cell("c", I(5))), row(), row(cell("c", F(math.NaN())))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:1", "aggregations:c(count)", "@nodes", "@edges", "@rows", "c=5"))...),
		},
		// §5.3 header order.
		{
			name: "rule3_has_more_then_total_rows",
			in: func() *wire.GraphResponse {
				r := resp(wire.Traversal, nodes(node("MR", 1, P("iid", I(42)))))
				r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](100)}
				return r
			}(),
			want: doc(cat(head("traversal", "1", "0"), lines("has_more:true", "total_rows:100", "@nodes", "MR(1):", "1 iid=42", "@edges"))...),
		},
		{
			name: "rule3_has_more_false_is_omitted",
			in: func() *wire.GraphResponse {
				r := resp(wire.Neighbors, nil)
				r.Pagination = &wire.Pagination{TotalRows: wire.Some[int64](7)}
				return r
			}(),
			want: doc(cat(head("neighbors", "0", "0"), lines("total_rows:7", "@nodes", "@edges"))...),
		},
		{
			name: "rule3_aggregation_fields_follow_pagination",
			in: func() *wire.GraphResponse {
				r := agg([]wire.GroupColumn{propGroup("state", "state")}, []wire.Column{count("n")},
					row(cell("state", S("opened")), cell("n", I(3))))
				r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](9)}
				return r
			}(),
			want: doc(cat(head("aggregation", "0", "0"), lines("has_more:true", "total_rows:9", "rows:1", "group_by:state(property)",
				"aggregations:n(count)", "@nodes", "@edges", "@rows", "state=opened n=3"))...),
		},
		{
			name: "rule3_no_rows_field_without_rows",
			in: func() *wire.GraphResponse {
				r := agg(nil, []wire.Column{count("n")})
				r.Rows = nil
				return r
			}(),
			want: doc(cat(head("aggregation", "0", "0"), lines("aggregations:n(count)", "@nodes", "@edges"))...),
		},
		{
			name: "rule3_no_group_by_for_empty_group_columns",
			in:   agg([]wire.GroupColumn{}, []wire.Column{}, row(cell("x", I(1)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:0", "@nodes", "@edges", "@rows"))...),
		},
		{
			name: "rule3_descriptors_only_in_aggregation",
			why:  "rows outside aggregation (GKG never sends them) are written cell by cell, in stored order",
			in: func() *wire.GraphResponse {
				r := resp(wire.Traversal, nil)
				r.GroupColumns = []wire.GroupColumn{nodeGroup("u", "User")}
				r.Columns = []wire.Column{count("n")}
				r.Rows = []wire.Row{row(cell("n", I(2)), ref("u", node("User", 4)), cell("z", N()))}
				return r
			}(),
			want: doc(cat(head("traversal", "0", "0"), lines("@nodes", "@edges", "@rows", "n=2 u=User:4 z=null"))...),
		},
		// §5.4 counts are of lines written.
		{
			name: "rule4_edge_count_after_deduplication",
			in: resp(wire.Traversal, nil, edge("AUTHORED", "User", 1, "MR", 2), edge("AUTHORED", "User", 1, "MR", 2),
				edge("AUTHORED", "User", 1, "MR", 2)),
			want: doc(cat(head("traversal", "0", "1"), lines("@nodes", "@edges", "AUTHORED(1):", "User:1 --> MR:2"))...),
		},
		{
			name: "rule4_path_finding_counts_path_edges",
			in: resp(wire.PathFinding, nil, onPath(edge("AUTHORED", "User", 1, "MR", 2), 0, 0),
				edge("IN_PROJECT", "MR", 2, "Project", 3), onPath(edge("IN_PROJECT", "MR", 2, "Project", 3), 0, 1)),
			want: doc(cat(head("path_finding", "0", "2"), lines("@nodes", "@paths", "path=0: User:1 --AUTHORED--> MR:2 --IN_PROJECT--> Project:3"))...),
		},
		{
			name: "rule4_node_count_includes_lifted_nodes",
			in: agg([]wire.GroupColumn{nodeGroup("u", "User")}, []wire.Column{count("n")},
				row(ref("u", node("User", 7, P("username", S("a")))), cell("n", I(1))),
				row(ref("u", node("User", 7, P("username", S("a")))), cell("n", I(2)))),
			want: doc(cat(head("aggregation", "1", "0"), lines("rows:2", "group_by:u(node:User)", "aggregations:n(count)",
				"@nodes", "User(1):", "7 username=a", "@edges", "@rows", "u=User:7 n=1", "u=User:7 n=2"))...),
		},
		// §5.5 sections.
		{
			name: "rule5_paths_marker_even_when_empty",
			in:   resp(wire.PathFinding, nodes(node("User", 1))),
			want: doc(cat(head("path_finding", "1", "0"), lines("@nodes", "User(1):", "1", "@paths"))...),
		},
		{
			name: "rule5_edges_marker_in_aggregation",
			in:   agg(nil, []wire.Column{count("n")}, row(cell("n", I(0)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:1", "aggregations:n(count)", "@nodes", "@edges", "@rows", "n=0"))...),
		},
		{
			name: "rule5_rows_marker_for_present_empty_rows",
			in:   agg(nil, []wire.Column{count("n")}),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:0", "aggregations:n(count)", "@nodes", "@edges", "@rows"))...),
		},
		// §5.6 edge order and de-duplication.
		{
			name: "rule6_edges_grouped_by_type_in_type_order",
			in: resp(wire.Traversal, nil, edge("IN_PROJECT", "MR", 2, "Project", 3), edge("AUTHORED", "User", 1, "MR", 2),
				edge("IN_PROJECT", "MR", 1, "Project", 3)),
			want: doc(cat(head("traversal", "0", "3"), lines("@nodes", "@edges", "AUTHORED(1):", "User:1 --> MR:2",
				"IN_PROJECT(2):", "MR:1 --> Project:3", "MR:2 --> Project:3"))...),
		},
		{
			name: "rule6_ids_compare_as_integers",
			in: resp(wire.Traversal, nil, edge("R", "User", 10, "MR", 1), edge("R", "User", 9, "MR", 1),
				edge("R", "User", -3, "MR", 1), edge("R", "User", 9, "MR", -1)),
			want: doc(cat(head("traversal", "0", "4"), lines("@nodes", "@edges", "R(4):", "User:-3 --> MR:1",
				"User:9 --> MR:-1", "User:9 --> MR:1", "User:10 --> MR:1"))...),
		},
		{
			name: "rule6_types_compare_bytewise_before_ids",
			in:   resp(wire.Traversal, nil, edge("R", "User", 1, "MR", 1), edge("R", "Group", 5, "MR", 1), edge("R", "User", 1, "Issue", 9)),
			want: doc(cat(head("traversal", "0", "3"), lines("@nodes", "@edges", "R(3):", "Group:5 --> MR:1", "User:1 --> Issue:9", "User:1 --> MR:1"))...),
		},
		{
			name: "rule6_depth_is_part_of_the_key",
			why:  "absent depth sorts first; edges that differ only in depth are all kept",
			in: resp(wire.Traversal, nil, withDepth(edge("MEMBER_OF", "User", 1, "Group", 2), 2), edge("MEMBER_OF", "User", 1, "Group", 2),
				withDepth(edge("MEMBER_OF", "User", 1, "Group", 2), 1), withDepth(edge("MEMBER_OF", "User", 1, "Group", 2), 1)),
			want: doc(cat(head("traversal", "0", "3"), lines("@nodes", "@edges", "MEMBER_OF(3):", "User:1 --> Group:2",
				"User:1 --> Group:2 depth=1", "User:1 --> Group:2 depth=2"))...),
		},
		{
			name: "rule6_absent_path_id_sorts_after_present",
			why:  "outside path_finding, a path_id or step is written after depth so the order reads back",
			in: resp(wire.Traversal, nil, edge("A", "X", 1, "Y", 3), withDepth(onPath(edge("B", "X", 1, "Y", 2), 0, 4), 1),
				onPath(edge("A", "X", 1, "Y", 2), 1, 0), onPath(edge("B", "X", 1, "Y", 2), 2, 0)),
			want: doc(cat(head("traversal", "0", "4"), lines("@nodes", "@edges", "B(1):", "X:1 --> Y:2 depth=1 path_id=0 step=4",
				"A(1):", "X:1 --> Y:2 path_id=1 step=0", "B(1):", "X:1 --> Y:2 path_id=2 step=0", "A(1):", "X:1 --> Y:3"))...),
		},
		// §5.7 node order.
		{
			name: "rule7_nodes_by_type_then_numeric_id",
			in:   resp(wire.Traversal, nodes(node("User", 10), node("User", 9), node("Group", 5), node("User", -1))),
			want: doc(cat(head("traversal", "4", "0"), lines("@nodes", "Group(1):", "5", "User(3):", "-1", "9", "10", "@edges"))...),
		},
		{
			name: "rule7_types_compare_bytewise",
			in:   resp(wire.Traversal, nodes(node("a_b", 1), node("Mb", 1), node("MR", 1))),
			want: doc(cat(head("traversal", "3", "0"), lines("@nodes", "MR(1):", "1", "Mb(1):", "1", "a_b(1):", "1", "@edges"))...),
		},
		{
			name: "rule7_same_type_and_id_ordered_by_row_text",
			why:  "GKG never sends two, but a total order keeps the output independent of input order",
			in:   resp(wire.Traversal, nodes(node("User", 1, P("username", S("b"))), node("User", 1, P("username", S("a"))))),
			want: doc(cat(head("traversal", "2", "0"), lines("@nodes", "User(2):", "1 username=a", "1 username=b", "@edges"))...),
		},
		{
			name: "rule7_aggregation_keeps_server_order_then_lifted_first_seen",
			why:  "lifted nodes are de-duplicated among themselves, not against the response's own nodes",
			in: func() *wire.GraphResponse {
				r := agg([]wire.GroupColumn{nodeGroup("u", "User")}, []wire.Column{count("n")},
					row(ref("u", node("User", 3, P("name", S("c")))), cell("n", I(5))),
					row(ref("u", node("User", 9, P("name", S("lifted")))), cell("n", I(4))),
					row(ref("u", node("User", 3, P("name", S("c")))), cell("n", I(1))))
				r.Nodes = nodes(node("User", 9, P("name", S("server"))), node("Group", 1))
				return r
			}(),
			want: doc(cat(head("aggregation", "4", "0"), lines("rows:3", "group_by:u(node:User)", "aggregations:n(count)", "@nodes",
				"User(1):", "9 name=server", "Group(1):", "1", "User(2):", "3 name=c", "9 name=lifted",
				"@edges", "@rows", "u=User:3 n=5", "u=User:9 n=4", "u=User:3 n=1"))...),
		},
		// §5.8 property order.
		{
			name: "rule8_priority_classes",
			in: resp(wire.Traversal, nodes(node("MR", 1, P("note", S("n")), P("title", S("t")), P("created_at", S("c")), P("zeta", I(1)),
				P("state", S("s")), P("iid", I(2)), P("description", S("d")), P("body", S("b")), P("closed_at", S("x")),
				P("visibility_level", I(3)), P("uuid", S("u")), P("alpha", I(4))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):",
				"1 iid=2 uuid=u state=s visibility_level=3 alpha=4 zeta=1 closed_at=x created_at=c body=b description=d note=n title=t", "@edges"))...),
		},
		{
			name: "rule8_bytewise_within_a_class",
			in: resp(wire.Traversal, nodes(node("Project", 1, P("username", S("u")), P("path", S("p")), P("name", S("n")),
				P("full_path", S("f")), P("alpha", I(1)), P("Zed", I(2)), P("merged_at", S("m")), P("updated_at", S("v"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "Project(1):",
				"1 full_path=f name=n path=p username=u Zed=2 alpha=1 merged_at=m updated_at=v", "@edges"))...),
		},
		// §5.9 values.
		{
			name: "rule9_null_and_empty_omitted_in_node_rows",
			in:   resp(wire.Traversal, nodes(node("User", 1, P("username", S("a")), P("name", N()), P("email", S(""))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "User(1):", "1 username=a", "@edges"))...),
		},
		{
			name: "rule9_null_is_bare_in_rows",
			in: agg([]wire.GroupColumn{propGroup("severity", "severity")}, []wire.Column{count("count")},
				row(cell("severity", N()), cell("count", I(5))), row(cell("severity", S("null")), cell("count", I(2)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:2", "group_by:severity(property)", "aggregations:count(count)",
				"@nodes", "@edges", "@rows", "severity=null count=5", `severity="null" count=2`))...),
		},
		{
			name: "rule9_bools_bare",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("draft", B(true)), P("merged", B(false))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", "1 draft=true merged=false", "@edges"))...),
		},
		{
			name: "rule9_ints_bare_digits",
			in:   resp(wire.Traversal, nodes(node("User", 9007199254740993, P("a", I(math.MinInt64)), P("b", I(math.MaxInt64)), P("c", I(0))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "User(1):", "9007199254740993 a=-9223372036854775808 b=9223372036854775807 c=0", "@edges"))...),
		},
		{
			name: "rule9_floats_shortest_without_exponent",
			in: resp(wire.Traversal, nodes(node("X", 1, P("a", F(1)), P("b", F(math.Copysign(0, -1))), P("c", F(1e21)),
				P("d", F(5e-7)), P("e", F(941.131772070606)), P("f", F(0.1)), P("g", F(-2.5))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):",
				"1 a=1 b=-0 c=1000000000000000000000 d=0.0000005 e=941.131772070606 f=0.1 g=-2.5", "@edges"))...),
		},
		{
			name: "rule9_non_finite_floats_dropped",
			in: func() *wire.GraphResponse {
				r := agg(nil, []wire.Column{count("a"), count("b")}, row(cell("a", F(math.Inf(1))), cell("b", F(2.5))))
				r.Nodes = nodes(node("X", 1, P("nan", F(math.NaN())), P("inf", F(math.Inf(1))), P("ninf", F(math.Inf(-1))), P("ok", F(1.5))))
				return r
			}(),
			want: doc(cat(head("aggregation", "1", "0"), lines("rows:1", "aggregations:a(count),b(count)", "@nodes", "X(1):", "1 ok=1.5",
				"@edges", "@rows", "b=2.5"))...),
		},
		{
			name: "rule9_list_as_compact_json_then_string",
			in: resp(wire.Traversal, nodes(node("X", 1, P("labels", L(S("a b"), I(1), F(1), N(), B(true), L())), P("none", L()),
				P("ids", L(I(1), I(2)))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):",
				`1 ids="[1,2]" labels="[\"a b\",1,1.0,null,true,[]]" none="[]"`, "@edges"))...),
		},
		{
			name: "rule9_empty_string_cell_omitted_in_rows",
			in: agg([]wire.GroupColumn{propGroup("state", "")}, []wire.Column{count("n")},
				row(cell("state", S("")), cell("n", I(1)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:1", "group_by:state(property)", "aggregations:n(count)",
				"@nodes", "@edges", "@rows", "n=1"))...),
		},
		// §5.10 strings.
		{
			name: "rule10_bare_character_set",
			in:   resp(wire.Traversal, nodes(node("X", 1, P("a", S("AZaz09_-:./@+")), P("b", S("a b")), P("c", S("a,b")), P("d", S("a=b"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):", `1 a=AZaz09_-:./@+ b="a b" c="a,b" d="a=b"`, "@edges"))...),
		},
		{
			name: "rule10_keyword_strings_quoted",
			in:   resp(wire.Traversal, nodes(node("X", 1, P("a", S("true")), P("b", S("false")), P("c", S("null")), P("d", S("True")), P("e", B(true))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):", `1 a="true" b="false" c="null" d=True e=true`, "@edges"))...),
		},
		{
			name: "rule10_number_like_strings_bare",
			why:  "GOON is lossy: the string 42 reads back as the integer 42",
			in:   resp(wire.Traversal, nodes(node("X", 1, P("a", S("42")), P("b", S("-1.5")), P("c", S("1e5"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):", "1 a=42 b=-1.5 c=1e5", "@edges"))...),
		},
		{
			name: "rule10_escapes",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("title", S("a\\b \"c\"\nd\re\tf"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", `1 title="a\\b \"c\"\nd\re\tf"`, "@edges"))...),
		},
		{
			name: "rule10_other_control_characters_dropped",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("title", S("a\x01b\x7fc\x00 d\x1b"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", `1 title="abc d"`, "@edges"))...),
		},
		{
			name: "rule10_non_ascii_quoted_as_utf8",
			in:   resp(wire.Traversal, nodes(node("X", 1, P("a", S("héllo")), P("b", S("日本語")), P("c", S("bad\xffbyte"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):", "1 a=\"héllo\" b=\"日本語\" c=\"bad\ufffdbyte\"", "@edges"))...),
		},
		{
			name: "rule10_long_text_truncated_at_200_with_breadcrumb",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("title", S(x250)), P("iid", I(1))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", "1 iid=1 title="+x250[:197]+"... title_len=250", "@edges"))...),
		},
		{
			name: "rule10_other_strings_truncated_at_1000",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("sha", S(y1001)), P("label", S(x250))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", "1 label="+x250+" sha="+y1001[:997]+"... sha_len=1001", "@edges"))...),
		},
		{
			name: "rule10_at_the_limit_not_truncated",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("title", S(x250[:200]))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", "1 title="+x250[:200], "@edges"))...),
		},
		{
			name: "rule10_truncation_counts_code_points",
			in:   resp(wire.Traversal, nodes(node("X", 1, P("name", S(strings.Repeat("é", 201))), P("note", S(strings.Repeat("日", 200)))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):",
				`1 name="`+strings.Repeat("é", 197)+`..." name_len=201 note="`+strings.Repeat("日", 200)+`"`, "@edges"))...),
		},
		{
			name: "rule10_truncated_value_quoted_when_needed",
			in:   resp(wire.Traversal, nodes(node("X", 1, P("body", S(strings.Repeat("a \"", 100)))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "X(1):",
				`1 body="`+strings.Repeat(`a \"`, 65)+`a ..." body_len=300`, "@edges"))...),
		},
		{
			name: "rule10_rows_truncate_without_breadcrumb",
			in:   agg(nil, []wire.Column{{Name: "title", Function: "max"}}, row(cell("title", S(x250)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:1", "aggregations:title(max)", "@nodes", "@edges", "@rows",
				"title="+x250[:197]+"..."))...),
		},
		{
			name: "rule10_clickhouse_datetime_to_t_form",
			in: resp(wire.Traversal, nodes(node("MR", 1, P("created_at", S("2026-05-08 22:55:58")),
				P("merged_at", S("2026-05-08 22:55:58.467450")), P("updated_at", S("2024-02-29 23:59:60.5"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):",
				"1 created_at=2026-05-08T22:55:58 merged_at=2026-05-08T22:55:58.467450 updated_at=2024-02-29T23:59:60.5", "@edges"))...),
		},
		{
			name: "rule10_not_a_clickhouse_datetime_stays_quoted",
			why:  "no such date, one-digit month, trailing dot, zone suffix",
			in: resp(wire.Traversal, nodes(node("MR", 1, P("a", S("2026-02-30 10:00:00")), P("b", S("2026-5-08 22:55:58")),
				P("c", S("2026-05-08 22:55:58.")), P("d", S("2026-05-08 22:55:58Z"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):",
				`1 a="2026-02-30 10:00:00" b="2026-5-08 22:55:58" c="2026-05-08 22:55:58." d="2026-05-08 22:55:58Z"`, "@edges"))...),
		},
		{
			name: "rule10_iso_datetime_bare",
			in:   resp(wire.Traversal, nodes(node("MR", 1, P("a", S("2026-05-08T22:55:58Z")), P("b", S("2026-05-08T22:55:58.1+02:00"))))),
			want: doc(cat(head("traversal", "1", "0"), lines("@nodes", "MR(1):", "1 a=2026-05-08T22:55:58Z b=2026-05-08T22:55:58.1+02:00", "@edges"))...),
		},
		{
			name: "rule10_strings_quoted_in_node_columns",
			why:  "in a node-kind group column a bare Type:id is a node reference, so strings there are always quoted",
			in: agg([]wire.GroupColumn{nodeGroup("u", "User")}, []wire.Column{count("n")},
				row(cell("u", S("User:5")), cell("n", I(1))), row(cell("u", N()), cell("n", I(2)))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:2", "group_by:u(node:User)", "aggregations:n(count)",
				"@nodes", "@edges", "@rows", `u="User:5" n=1`, "u=null n=2"))...),
		},
		// §5.11 aggregation descriptors and row cells.
		{
			name: "rule11_node_group_with_and_without_entity",
			in:   agg([]wire.GroupColumn{nodeGroup("a", "User"), nodeGroup("b", "")}, []wire.Column{count("n")}),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:0", "group_by:a(node:User),b(node)", "aggregations:n(count)", "@nodes", "@edges", "@rows"))...),
		},
		{
			name: "rule11_property_group_names_the_underlying_property",
			in: agg([]wire.GroupColumn{propGroup("severity_bucket", "severity"), propGroup("severity", "severity"), propGroup("state", "")},
				[]wire.Column{count("n")}),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:0", "group_by:severity_bucket(property:severity),severity(property),state(property)",
				"aggregations:n(count)", "@nodes", "@edges", "@rows"))...),
		},
		{
			name: "rule11_metric_descriptors",
			why:  "a property without a target is not written",
			in: agg(nil, []wire.Column{
				count("n"),
				{Name: "users", Function: "count", Target: wire.Some("u")},
				{Name: "latest", Function: "max", Target: wire.Some("v"), Property: wire.Some("updated_at")},
				{Name: "s", Function: "sum", Property: wire.Some("weight")},
			}),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:0", "aggregations:n(count),users(count:u),latest(max:v.updated_at),s(sum)",
				"@nodes", "@edges", "@rows"))...),
		},
		{
			name: "rule11_cells_in_group_then_metric_order",
			why:  "stored cell order does not matter; cells no column names are not written",
			in: agg([]wire.GroupColumn{propGroup("state", "state")}, []wire.Column{count("n"), {Name: "names", Function: "collect"}},
				row(cell("names", L(S("a"), S("b"))), cell("extra", I(9)), cell("n", I(2)), cell("state", S("merged")))),
			want: doc(cat(head("aggregation", "0", "0"), lines("rows:1", "group_by:state(property)", "aggregations:n(count),names(collect)",
				"@nodes", "@edges", "@rows", `state=merged n=2 names="[\"a\",\"b\"]"`))...),
		},
		{
			name: "rule11_node_cell_as_type_and_id",
			in: agg([]wire.GroupColumn{nodeGroup("project", "Project"), propGroup("severity", "severity")}, []wire.Column{count("count")},
				row(ref("project", node("Project", 278964, P("name", S("GitLab")))), cell("severity", S("critical")), cell("count", I(12))),
				row(ref("project", node("Project", 278964, P("name", S("GitLab")))), cell("severity", S("high")), cell("count", I(45)))),
			want: doc(cat(head("aggregation", "1", "0"), lines("rows:2", "group_by:project(node:Project),severity(property)", "aggregations:count(count)",
				"@nodes", "Project(1):", "278964 name=GitLab", "@edges", "@rows",
				"project=Project:278964 severity=critical count=12", "project=Project:278964 severity=high count=45"))...),
		},
		// §5.12 paths.
		{
			name: "rule12_path_is_one_chain",
			in: resp(wire.PathFinding, nodes(node("User", 64248, P("username", S("stanhu"))), node("MergeRequest", 482927048, P("iid", I(18)))),
				onPath(edge("AUTHORED", "User", 64248, "MergeRequest", 482927048), 0, 0)),
			want: doc(cat(head("path_finding", "2", "1"), lines("@nodes", "MergeRequest(1):", "482927048 iid=18", "User(1):", "64248 username=stanhu",
				"@paths", "path=0: User:64248 --AUTHORED--> MergeRequest:482927048"))...),
		},
		{
			name: "rule12_paths_by_id_steps_in_order",
			in: resp(wire.PathFinding, nil,
				onPath(edge("IN_PROJECT", "MR", 2, "Project", 3), 1, 1), onPath(edge("IN_PROJECT", "MR", 5, "Project", 3), 0, 1),
				onPath(edge("AUTHORED", "User", 1, "MR", 2), 1, 0), onPath(edge("REVIEWED", "User", 1, "MR", 5), 0, 0)),
			want: doc(cat(head("path_finding", "0", "4"), lines("@nodes", "@paths",
				"path=0: User:1 --REVIEWED--> MR:5 --IN_PROJECT--> Project:3",
				"path=1: User:1 --AUTHORED--> MR:2 --IN_PROJECT--> Project:3"))...),
		},
		{
			name: "rule12_absent_step_sorts_last",
			in: resp(wire.PathFinding, nil,
				wire.Edge{Type: "B", From: "Y", FromID: 2, To: "Z", ToID: 3, PathID: wire.Some[int64](4)},
				onPath(edge("A", "X", 1, "Y", 2), 4, 0)),
			want: doc(cat(head("path_finding", "0", "2"), lines("@nodes", "@paths", "path=4: X:1 --A--> Y:2 --B--> Z:3"))...),
		},
		{
			name: "rule12_broken_chain_written_as_gkg_writes_it",
			in: resp(wire.PathFinding, nil,
				onPath(edge("R", "A", 1, "B", 2), 0, 0), onPath(edge("S", "C", 3, "D", 4), 0, 1)),
			want: doc(cat(head("path_finding", "0", "2"), lines("@nodes", "@paths", "path=0: A:1 --R--> B:2 --S--> D:4"))...),
			why:  "a chain names only the first edge's source; a later edge's source is taken to be the previous target (lossy, as in GKG)",
		},
		{
			name: "rule12_edges_without_path_id_left_out",
			in:   resp(wire.PathFinding, nil, edge("A", "X", 1, "Y", 2)),
			want: doc(cat(head("path_finding", "0", "0"), lines("@nodes", "@paths"))...),
		},
	}
}

func TestEncodeRules(t *testing.T) {
	for _, c := range encodeCases() {
		t.Run(c.name, func(t *testing.T) {
			got, err := goon.Encode(c.in)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if diff := cmp.Diff(c.want, string(got)); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", c.why, diff)
			}
			// Every rule case also holds the fixed point.
			d, err := goon.Decode(got)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			again, err := goon.Encode(d)
			if err != nil {
				t.Fatalf("re-Encode: %v", err)
			}
			if diff := cmp.Diff(string(got), string(again)); diff != "" {
				t.Errorf("fixed point (-first +second):\n%s", diff)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	cases := []struct {
		name string
		in   *wire.GraphResponse
		want string
	}{
		{"nil_response", nil, "goon: nil response"},
		{"invalid_query_type", resp("graph", nil), `goon: query_type: invalid query type "graph"`},
		{"node_type_not_a_name", resp(wire.Traversal, nodes(node("Merge Request", 1))), `goon: nodes[0].type: type "Merge Request" is not a GOON name`},
		{"property_key_not_a_name", resp(wire.Traversal, nodes(node("User", 1, P("a=b", I(1))))), `goon: nodes[0].properties["a=b"]: property key "a=b" is not a GOON name`},
		{"property_named_id", resp(wire.Traversal, nodes(node("User", 1, P("id", I(1))))), `goon: nodes[0].properties.id: property named "id"`},
		{"duplicate_property", resp(wire.Traversal, nodes(node("User", 1, P("a", I(1)), P("a", I(2))))), `goon: nodes[0].properties.a: duplicate property "a"`},
		{"edge_type_not_a_name", resp(wire.Traversal, nil, edge("IS A", "X", 1, "Y", 2)), `goon: edges[0].type: relationship type "IS A"`},
		{"edge_endpoint_not_a_name", resp(wire.Traversal, nil, edge("R", "X:", 1, "Y", 2)), `goon: edges[0].from: node type "X:"`},
		{"path_type_not_a_name", resp(wire.PathFinding, nil, onPath(edge("R", "X", 1, "Y y", 2), 0, 0)), `goon: edges[0].to: node type "Y y"`},
		{"column_not_a_name", agg(nil, []wire.Column{count("a b")}), `goon: columns[0].name: name "a b"`},
		{"function_not_a_name", agg(nil, []wire.Column{{Name: "n", Function: ""}}), `goon: columns[0].function: function ""`},
		{"duplicate_column", agg([]wire.GroupColumn{propGroup("n", "")}, []wire.Column{count("n")}), `goon: columns[0].name: column name "n" repeats`},
		{"invalid_group_kind", agg([]wire.GroupColumn{{Name: "g", Kind: "edge"}}, nil), `goon: group_columns[0].kind: invalid group kind "edge"`},
		{"cell_node_type_not_a_name", agg([]wire.GroupColumn{nodeGroup("u", "")}, nil, row(ref("u", node("A B", 1)))), `goon: rows[0].u.type: type "A B"`},
		{"plain_row_cell_not_a_name", func() *wire.GraphResponse {
			r := resp(wire.Search, nil)
			r.Rows = []wire.Row{row(cell("a b", I(1)))}
			return r
		}(), `goon: rows[0]["a b"]: cell name "a b"`},
		{"plain_row_node_type_not_a_name", func() *wire.GraphResponse {
			r := resp(wire.Search, nil)
			r.Rows = []wire.Row{row(ref("u", node("A B", 1)))}
			return r
		}(), `goon: rows[0].u.type: node type "A B"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := goon.AppendEncode(dst, c.in)
			if err == nil {
				t.Fatalf("no error; wrote:\n%s", got)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q, want prefix %q", err, c.want)
			}
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Errorf("error is %T, want *wire.EncodeError", err)
			}
			if string(got) != "keep" {
				t.Errorf("dst changed to %q", got)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"goon", "llm", "GOON", "Llm"} {
		c, err := wire.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		info := c.Info()
		want := wire.Info{Name: "goon", Aliases: []string{"llm"}, MediaType: "text/x-goon; version=1.0.0", Description: info.Description, Fidelity: wire.Lossy}
		if diff := cmp.Diff(want, info); diff != "" {
			t.Errorf("Info (-want +got):\n%s", diff)
		}
	}
	if goon.Version != "1.0.0" || goon.MediaType != "text/x-goon; version=1.0.0" {
		t.Errorf("Version %q, MediaType %q", goon.Version, goon.MediaType)
	}
}

func TestEncodeTo(t *testing.T) {
	r := goldenCases()[0].in
	want, err := goon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := goon.EncodeTo(&buf, r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("(-Encode +EncodeTo):\n%s", diff)
	}
	buf.Reset()
	if err := goon.EncodeTo(&buf, resp("graph", nil)); err == nil || buf.Len() != 0 {
		t.Errorf("invalid response: error %v, wrote %q", err, buf.String())
	}
}

// TestConcurrentUse encodes and decodes from many goroutines at once (run
// with -race): the pooled encoder state is never shared.
func TestConcurrentUse(t *testing.T) {
	cases := goldenCases()
	want := make([]string, len(cases))
	for i, c := range cases {
		out, err := goon.Encode(c.in)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = string(out)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20; n++ {
				i := (g + n) % len(cases)
				out, err := goon.Encode(cases[i].in)
				if err != nil || string(out) != want[i] {
					t.Errorf("goroutine %d: %s differs (err %v)", g, cases[i].name, err)
					return
				}
				if _, err := goon.Decode(out); err != nil {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
