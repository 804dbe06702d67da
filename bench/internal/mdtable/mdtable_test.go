package mdtable

import (
	"bytes"
	"math"
	"testing"
)

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", -1234: "-1,234",
		1234567: "1,234,567", math.MinInt64: "-9,223,372,036,854,775,808"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRender(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, []string{"name", "n"}, [][]string{{"a", "1"}, {"bb", "22"}}, 1); err != nil {
		t.Fatal(err)
	}
	want := "| name |  n |\n|:-----|---:|\n| a    |  1 |\n| bb   | 22 |\n"
	if b.String() != want {
		t.Errorf("Render =\n%s\nwant\n%s", b.String(), want)
	}
	if err := Render(&b, []string{"x"}, [][]string{{"a|b"}}, 1); err == nil {
		t.Error("Render accepted a cell holding '|'")
	}
}
