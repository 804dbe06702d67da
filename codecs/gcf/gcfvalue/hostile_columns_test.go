package gcfvalue_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// columnNames returns names of the form prefix+"c"+i, quoted when
// quoted, as many as fill about n bytes.
func columnNames(n int, prefix string, quoted bool) []string {
	var out []string
	size := 0
	for i := 0; size < n; i++ {
		s := prefix + "c" + strconv.Itoa(i)
		if quoted {
			s = strconv.Quote(s)
		}
		out = append(out, s)
		size += len(s) + 1
	}
	return out
}

// wideTable is a table of the given columns and rows, each cell cell.
func wideTable(head string, cols []string, rows int, cell string) []byte {
	var b strings.Builder
	b.WriteString(head + "## t [" + strconv.Itoa(rows) + "]{" + strings.Join(cols, ",") + "}\n")
	row := strings.Repeat(cell+"|", len(cols)-1) + cell + "\n"
	for range rows {
		b.WriteString(row)
	}
	return []byte(b.String())
}

// The shapes of tables whose columns once cost time or memory out of
// proportion to the input, of about n bytes: path columns under one
// parent (each a scan of its siblings), a wide row (scratch per column),
// an inline schema of many names, a header of many fields.
var columnShapes = map[string]func(n int) []byte{
	"path columns under one parent": func(n int) []byte {
		return wideTable("GCF profile=generic\n", columnNames(n/2, "p>", true), 1, "abcdefgh")
	},
	"path columns under a few parents": func(n int) []byte {
		cols := columnNames(n/2, "", false)
		for i := range cols {
			cols[i] = strconv.Quote("p" + strconv.Itoa(i%7) + ">" + cols[i])
		}
		return wideTable("GCF profile=generic\n", cols, 1, "abcdefgh")
	},
	"one wide row": func(n int) []byte {
		return wideTable("GCF profile=generic\n", columnNames(n*3/4, "", false), 1, "1")
	},
	"a few wide rows": func(n int) []byte {
		return wideTable("GCF profile=generic\n", columnNames(n/2, "", false), 4, "1")
	},
	"inline schema of many names": func(n int) []byte {
		names := columnNames(n*2/3, "", false)
		return []byte("GCF profile=generic\n## t [1]{a}\n@0 ^{" + strings.Join(names, ",") + "}\n" + strings.Repeat("1|", len(names)-1) + "1\n")
	},
	"header of many fields": func(n int) []byte {
		var b strings.Builder
		b.WriteString("GCF profile=generic")
		for i := 0; b.Len() < n; i++ {
			b.WriteString(" h" + strconv.Itoa(i) + "=1")
		}
		b.WriteString("\na=1\n")
		return []byte(b.String())
	},
}

// TestColumnScaling: each column shape decodes in time linear in its
// input.
func TestColumnScaling(t *testing.T) {
	decode := func(b []byte) error { _, err := gcfvalue.Unmarshal(b); return err }
	for name, build := range columnShapes {
		wiretest.Scaling(t, name, build, decode)
	}
}

// TestColumnMemory: each column shape, at about 8 MB, decodes within
// wiretest.DecodeMemoryBound, or is refused within it by the memory
// limit: never past it.
func TestColumnMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector's shadow memory makes heap figures meaningless")
	}
	for name, build := range columnShapes {
		t.Run(name, func(t *testing.T) {
			in := build(8 << 20)
			var err error
			f := wiretest.Measure(func() { _, err = gcfvalue.Decode(in, gcfvalue.Options{}) })
			bound := wiretest.DecodeMemoryBound(len(in))
			t.Logf("%d bytes in: %v (bound %d KiB, %.1fx the input); err %v", len(in), f, bound>>10, float64(f.PeakHeap)/float64(len(in)), err)
			if err != nil {
				wantLimit(t, err, "MaxMaterializedBytes")
			}
			if f.PeakHeap > bound {
				t.Errorf("peak heap %d KiB for %d bytes of input, more than %d KiB", f.PeakHeap>>10, len(in), bound>>10)
			}
		})
	}
}

// TestPathColumns: path columns nest under their parents, whatever the
// order they come in, and collide with a column or path of their name.
func TestPathColumns(t *testing.T) {
	obj := func(kv ...any) *jsonvalue.Object {
		o := &jsonvalue.Object{}
		for i := 0; i < len(kv); i += 2 {
			o.Add(kv[i].(string), kv[i+1])
		}
		return o
	}
	one := jsonvalue.Int(1)
	in := "GCF profile=generic\n## t [2]{\"a>x\",b,\"a>y>z\",\"c>d\",\"a>w\"}\n1|1|1|1|1\n~|1|~|-|~\n"
	want := obj("t", []jsonvalue.Value{
		obj("a", obj("x", one, "y", obj("z", one), "w", one), "b", one, "c", obj("d", one)),
		obj("b", one, "c", nil),
	})
	got, err := gcfvalue.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(jsonvalue.Value(want), got); d != "" {
		t.Errorf("decode (-want +got):\n%s", d)
	}
	for _, decl := range []string{`a,"a>b"`, `"a>b",a`, `"a>b","a>b>c"`, `"a>b>c","a>b"`} {
		in := "GCF profile=generic\n## t [1]{" + decl + "}\n1|1\n"
		_, err := gcfvalue.Unmarshal([]byte(in))
		if gcfvalue.ErrorKind(err) != gcfvalue.KindDuplicateFieldName {
			t.Errorf("{%s}: %v, want %s", decl, err, gcfvalue.KindDuplicateFieldName)
		}
	}
}

// TestPathColumnDepth: a path column's groups count against MaxDepth, so
// a path of many segments is refused, positioned, not nested without
// bound.
func TestPathColumnDepth(t *testing.T) {
	path := strings.Repeat("a>", 100_000) + "a"
	_, err := gcfvalue.Unmarshal([]byte("GCF profile=generic\n## t [1]{\"" + path + "\"}\n1\n"))
	wantLimit(t, err, "MaxDepth")
	// Within the limit: the root object, the table, the row, and 29
	// groups make 32.
	ok := strings.Repeat("a>", 29) + "a"
	v, err := gcfvalue.Unmarshal([]byte("GCF profile=generic\n## t [1]{\"" + ok + "\"}\n1\n"))
	if err != nil {
		t.Fatalf("29 groups under MaxDepth %d: %v", wire.DefaultLimits().MaxDepth, err)
	}
	if _, err := gcfvalue.Encode(v, gcfvalue.Options{}); err != nil {
		t.Errorf("what decodes at the depth limit does not encode: %v", err)
	}
	var de *wire.DecodeError
	if _, err := gcfvalue.Unmarshal([]byte("GCF profile=generic\n## t [1]{\"" + strings.Repeat("a>", 30) + "a\"}\n1\n")); !errors.As(err, &de) || de.Limit != "MaxDepth" {
		t.Errorf("30 groups: %v, want MaxDepth", err)
	}
}
