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
