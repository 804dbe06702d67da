package gcf_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/wire"
)

// recordsDoc is an aggregation whose columns and group_columns tables are
// cols and groups.
func recordsDoc(cols, groups string) string {
	return "GCF profile=generic\nformat_version=1.2.0\nquery_type=aggregation\n## nodes [0]\n## edges [0]\n" +
		cols + groups + "## rows [1]{severity,n}\nhigh|3\n"
}

// TestDecodeRecordTables: the columns and group_columns tables read into
// the response, an absent optional field left unset; a cell that is no
// string, a missing field and an unknown group kind are refused at their
// row, an unknown column as the layout's error.
func TestDecodeRecordTables(t *testing.T) {
	const cols = "## columns [2]{name,function,target,property}\nn|count|v|~\navg|avg|~|cvss\n"
	const groups = "## group_columns [1]{name,kind,node,property}\nseverity|property|v|severity\n"
	got, err := gcf.Default().Decode([]byte(recordsDoc(cols, groups)))
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []wire.Column{{Name: "n", Function: "count", Target: wire.Some("v")},
		{Name: "avg", Function: "avg", Property: wire.Some("cvss")}}
	wantGroups := []wire.GroupColumn{{Name: "severity", Kind: wire.GroupByProperty, Node: "v", Property: wire.Some("severity")}}
	if diff := cmp.Diff(wantCols, got.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantGroups, got.GroupColumns); diff != "" {
		t.Errorf("group_columns (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name, cols, groups string
		line               int // 0: the layout's error, unpositioned
		want               string
	}{
		{"number", "## columns [1]{name,function,target,property}\nn|7|v|~\n", groups, 7, "columns[0].function: expected a string"},
		{"missing", "## columns [1]{name,target}\nn|v\n", groups, 7, "columns[0]: missing field function"},
		{"kind", cols, "## group_columns [1]{name,kind,node}\nseverity|bogus|v\n", 10, `group_columns[0].kind: unknown group kind "bogus"`},
		{"column", "## columns [1]{name,function,size}\nn|count|3\n", groups, 0, `columns[0]: unexpected field "size"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gcf.Default().Decode([]byte(recordsDoc(tc.cols, tc.groups)))
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *wire.DecodeError", err)
			}
			if de.Line != tc.line || !strings.Contains(de.Msg, tc.want) {
				t.Errorf("err = line %d %q, want line %d and %q", de.Line, de.Msg, tc.line, tc.want)
			}
		})
	}
}

// TestDecodeNodeCellColumns: a rows table's path columns make one node
// cell per name wherever they stand, together or interleaved with
// another's and with plain columns, as the generic tables read them.
func TestDecodeNodeCellColumns(t *testing.T) {
	const head = "GCF profile=generic\nformat_version=1.2.0\nquery_type=aggregation\n## nodes [0]\n## edges [0]\n"
	u := func(id int64, props ...wire.Property) *wire.Node {
		return &wire.Node{Type: "U", ID: id, Properties: props}
	}
	v := &wire.Node{Type: "V", ID: 2}
	for name, tc := range map[string]struct {
		rows string
		want []wire.Row
	}{
		"together":    {"## rows [1]{\"a>type\",\"a>id\",\"a>x\",n,\"b>type\",\"b>id\"}\nU|1|3|4|V|2\n", []wire.Row{{{Name: "a", Node: u(1, wire.Prop("x", wire.Int(3)))}, {Name: "n", Value: wire.Int(4)}, {Name: "b", Node: v}}}},
		"interleaved": {"## rows [1]{\"a>type\",\"b>type\",\"a>id\",\"b>id\",\"a>x\",n}\nU|V|1|2|3|4\n", []wire.Row{{{Name: "a", Node: u(1, wire.Prop("x", wire.Int(3)))}, {Name: "b", Node: v}, {Name: "n", Value: wire.Int(4)}}}},
	} {
		t.Run(name, func(t *testing.T) {
			doc := []byte(head + tc.rows)
			got, err := gcf.Default().Decode(doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			sameReadAsGeneric(t, gcf.Default(), doc)
		})
	}
}
