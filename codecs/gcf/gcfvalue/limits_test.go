package gcfvalue_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// wantLimit requires err to be a positioned *wire.DecodeError for the
// limit named limit.
func wantLimit(t *testing.T, err error, limit string) {
	t.Helper()
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *wire.DecodeError", err, err)
	}
	if de.Limit != limit || !errors.Is(err, wire.ErrLimit) || de.Line < 1 || de.Codec != "gcf" {
		t.Fatalf("error %q: limit %q line %d, want limit %q", err, de.Limit, de.Line, limit)
	}
	if len(err.Error()) > 300 {
		t.Fatalf("error is %d bytes long", len(err.Error()))
	}
}

func TestDecodeLimits(t *testing.T) {
	const head = "GCF profile=generic\n"
	deep := head
	for i := range 40 {
		deep += strings.Repeat("  ", i) + "## a\n"
	}
	cases := []struct {
		name, in string
		lim      wire.Limits
		limit    string
	}{
		{"input", head + "a=1\n", wire.Limits{MaxInputBytes: 10}, "MaxInputBytes"},
		{"depth sections", deep, wire.Limits{}, "MaxDepth"},
		{"depth items", head + "## a [1]\n@0 [1]\n  @0 [1]\n    @0 [1]: 1\n", wire.Limits{MaxDepth: 3}, "MaxDepth"},
		{"declared rows", head + "## a [2000]{x}\n1\n", wire.Limits{MaxElements: 1000}, "MaxElements"},
		{"inline items", head + "a[5]: 1,2,3,4,5\n", wire.Limits{MaxElements: 3}, "MaxElements"},
		{"members", head + "a=1\nb=2\nc=3\nd=4\n", wire.Limits{MaxElements: 3}, "MaxElements"},
		{"deferred rows", head + "## a [?]{x}\n1\n2\n3\n4\n", wire.Limits{MaxElements: 3}, "MaxElements"},
		{"fields", head + "## a [1]{p,q,r,s}\n1|2|3|4\n", wire.Limits{MaxElements: 3}, "MaxElements"},
		{"string", head + "a=" + strings.Repeat("x", 100) + "\n", wire.Limits{MaxStringBytes: 50}, "MaxStringBytes"},
		{"quoted string", head + "a=\"" + strings.Repeat("x", 100) + "\"\n", wire.Limits{MaxStringBytes: 50}, "MaxStringBytes"},
		{"key", head + strings.Repeat("k", 100) + "=1\n", wire.Limits{MaxStringBytes: 50}, "MaxStringBytes"},
		{"field name", head + "## a [1]{" + strings.Repeat("k", 100) + "}\n1\n", wire.Limits{MaxStringBytes: 50}, "MaxStringBytes"},
		{"memory", head + "## a [?]{x}\n" + strings.Repeat("1\n", 1000), wire.Limits{MaxMaterializedBytes: 10_000}, "MaxMaterializedBytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := gcfvalue.Decode([]byte(c.in), gcfvalue.Options{Limits: c.lim})
			wantLimit(t, err, c.limit)
		})
	}
}

func TestEncodeLimits(t *testing.T) {
	var deep jsonvalue.Value = jsonvalue.Int(1)
	for range 40 {
		deep = []jsonvalue.Value{deep, "x"}
	}
	long := strings.Repeat("x", 100)
	cases := []struct {
		name  string
		v     jsonvalue.Value
		lim   wire.Limits
		limit string
	}{
		{"depth", deep, wire.Limits{}, "MaxDepth"},
		{"items", []jsonvalue.Value{jsonvalue.Int(1), jsonvalue.Int(2), jsonvalue.Int(3)}, wire.Limits{MaxElements: 2}, "MaxElements"},
		{"string", &jsonvalue.Object{Members: []jsonvalue.Member{{Key: "a", Value: long}}}, wire.Limits{MaxStringBytes: 50}, "MaxStringBytes"},
		{"key", &jsonvalue.Object{Members: []jsonvalue.Member{{Key: long, Value: jsonvalue.Int(1)}}}, wire.Limits{MaxStringBytes: 50}, "MaxStringBytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := gcfvalue.Encode(c.v, gcfvalue.Options{Limits: c.lim})
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Limit != c.limit || !errors.Is(err, wire.ErrLimit) || out != nil {
				t.Fatalf("Encode = %q, %v; want a *wire.EncodeError for %s", out, err, c.limit)
			}
		})
	}
}

// TestDecodeMemory holds the decoder to 16 times its input plus 16 MiB of
// peak heap on documents of about 4 MiB, the hostile shapes (a table of
// one tiny column, a wide table of one-digit cells) and the ordinary ones.
// A hostile shape whose value cannot fit that bound is refused with a
// limit error instead.
func TestDecodeMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector changes allocation")
	}
	const size = 4 << 20
	rep := func(head, unit string) []byte {
		return []byte("GCF profile=generic\n" + head + strings.Repeat(unit, size/len(unit)))
	}
	wide := strings.Repeat("1|", 49) + "1\n"
	var cols []string
	for i := range 50 {
		cols = append(cols, "c"+strconv.Itoa(i))
	}
	var kv strings.Builder
	for i := 0; kv.Len() < size; i++ {
		kv.WriteString("  k" + strconv.Itoa(i) + "=some value\n")
	}
	cases := []struct {
		name    string
		in      []byte
		refused bool
	}{
		{"one tiny column", rep("## a [?]{x}\n", "1\n"), true},
		{"wide one-digit cells", rep("## a [?]{"+strings.Join(cols, ",")+"}\n", wide), true},
		{"records", rep("## a [?]{id,name,role,score}\n", "1234|Alice Smith|engineer|0.75\n"), false},
		{"key values", []byte("GCF profile=generic\n## o\n" + kv.String()), false},
		{"inline numbers", []byte("GCF profile=generic\na[?]: " + strings.TrimSuffix(strings.Repeat("123,", size/4), ",") + "\n"), false},

		{"null cells", rep("## a [?]{p,q,r,s}\n", "-|-|-|-\n"), true},
		{"absent cells", rep("## a [?]{p,q,r,s}\n", "1|~|~|~\n"), true},
		{"sparse records", rep("## a [?]{id,name,note,tag}\n", "1234|Alice Smith|~|~\n"), false},
	}
	for _, c := range cases {
		if len(c.in) == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var err error
			f := wiretest.Measure(func() { _, err = gcfvalue.Decode(c.in, gcfvalue.Options{}) })
			if c.refused {
				wantLimit(t, err, "MaxMaterializedBytes")
			} else if err != nil {
				t.Fatalf("decode: %v", err)
			}
			bound := wiretest.DecodeMemoryBound(len(c.in))
			t.Logf("%d bytes in: %v (bound %d KiB)", len(c.in), f, bound>>10)
			if f.PeakHeap > bound {
				t.Fatalf("peak heap %d KiB for %d bytes of input, more than %d KiB", f.PeakHeap>>10, len(c.in), bound>>10)
			}
		})
	}
}

// TestMaxFields: MaxFields above MaxElements lets a table have more
// columns (and a row line more values) than MaxElements, both ways, while
// every other count keeps to MaxElements; out of range, it is an error.
func TestMaxFields(t *testing.T) {
	const doc = "GCF profile=generic\n## a [1]{p,q,r,s}\n1|2|3|4\n"
	o := gcfvalue.Options{Limits: wire.Limits{MaxElements: 3}, MaxFields: 4}
	v, err := gcfvalue.Decode([]byte(doc), o)
	if err != nil {
		t.Fatalf("4 fields under MaxFields 4: %v", err)
	}
	out, err := gcfvalue.Encode(v, o)
	if err != nil || string(out) != doc {
		t.Fatalf("Encode = %q, %v; want %q", out, err, doc)
	}
	o.MaxFields = 3
	_, err = gcfvalue.Decode([]byte(doc), o)
	wantLimit(t, err, "MaxElements")
	var ee *wire.EncodeError
	if _, err := gcfvalue.Encode(v, o); !errors.As(err, &ee) || ee.Limit != "MaxElements" {
		t.Fatalf("Encode of 4 columns under MaxFields 3: %v", err)
	}
	// Rows and members still count against MaxElements.
	o.MaxFields = 100
	_, err = gcfvalue.Decode([]byte("GCF profile=generic\n## a [4]{x}\n1\n2\n3\n4\n"), o)
	wantLimit(t, err, "MaxElements")
	for _, n := range []int{-1, 1 << 31} {
		if _, err := gcfvalue.Decode([]byte(doc), gcfvalue.Options{MaxFields: n}); err == nil || !strings.Contains(err.Error(), "MaxFields") {
			t.Errorf("MaxFields %d: %v, want an error naming it", n, err)
		}
	}
}

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
