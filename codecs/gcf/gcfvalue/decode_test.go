package gcfvalue_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// TestDecodeErrorPosition: an error names the line and column of the
// problem, its kind, and quotes at most a short excerpt.
func TestDecodeErrorPosition(t *testing.T) {
	long := strings.Repeat("y", 500)
	cases := []struct {
		in        string
		line, col int
		kind      gcfvalue.Kind
		says      string
	}{
		{"GCF profile=generic\na=1\nb=~\n", 3, 3, gcfvalue.KindInvalidMissing, "~ (absent)"},
		{"GCF profile=generic\n## r [1]{a,b}\n1|2|3\n", 3, 1, gcfvalue.KindRowWidthMismatch, "3 cells"},
		{"GCF profile=generic\nv=\"ab\\qc\"\n", 2, 6, gcfvalue.KindInvalidEscape, "escape"},
		{"GCF profile=generic\n## r [2]{a}\n1\n", 2, 6, gcfvalue.KindCountMismatch, "declares 2"},
		{"GCF profile=generic\n" + long + "|x\n", 2, 1, gcfvalue.KindSyntax, "..."},
		{"GCF profile=generic\n## s\n    a=1\n", 3, 5, gcfvalue.KindInvalidIndent, "indented"},
		{"GCF profile=generic\nv=99999999999999999999\n", 2, 3, gcfvalue.KindOutOfRange, "outside int64"},
		{"GCF profile=generic\na=1\n\xff\n", 3, 1, gcfvalue.KindInvalidUTF8, "UTF-8"},
		{"GCF profile=generic\n## r [1]{a}\n@0 ^\n", 3, 4, gcfvalue.KindMissingAttachment, "no body"},
		{"GCF profile=generic\nx[2]: 1\n", 2, 2, gcfvalue.KindCountMismatch, "declares 2"},
	}
	for _, c := range cases {
		_, err := gcfvalue.Unmarshal([]byte(c.in))
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%.40q: error %v is not a *wire.DecodeError", c.in, err)
			continue
		}
		if de.Line != c.line || de.Column != c.col || gcfvalue.ErrorKind(err) != c.kind || !strings.Contains(err.Error(), c.says) ||
			len(err.Error()) > 160 || de.Codec != "gcf" || errors.Is(err, wire.ErrLimit) {
			t.Errorf("%.40q: error %q at %d:%d, want %s at %d:%d saying %q", c.in, err, de.Line, de.Column, c.kind, c.line, c.col, c.says)
		}
	}
}

// TestMemberOrder: members come back in the order of the document: an
// object's in line order, a table row's in the order of its header.
func TestMemberOrder(t *testing.T) {
	in := "GCF profile=generic\nz=1\na=2\n## m\n  y=3\n  b=4\n## rows [1]{q,\"p>z\",\"p>a\",c}\n1|2|3|4\n"
	v, err := gcfvalue.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var keys func(v jsonvalue.Value) []string
	keys = func(v jsonvalue.Value) []string {
		var out []string
		switch x := v.(type) {
		case *jsonvalue.Object:
			for _, m := range x.Members {
				out = append(out, m.Key)
				out = append(out, keys(m.Value)...)
			}
		case []jsonvalue.Value:
			for _, e := range x {
				out = append(out, keys(e)...)
			}
		}
		return out
	}
	want := []string{"z", "a", "m", "y", "b", "rows", "q", "p", "z", "a", "c"}
	if d := cmp.Diff(want, keys(v)); d != "" {
		t.Fatalf("member order (-want +got):\n%s", d)
	}
	out, err := gcfvalue.Marshal(v)
	if err != nil || string(out) != in {
		t.Fatalf("re-encoded %q (%v), want %q", out, err, in)
	}
}

// TestDocumentHeader: DecodeDocument gives the header's fields in order
// and the body; an identity column reads as a plain field.
func TestDocumentHeader(t *testing.T) {
	doc, err := gcfvalue.DecodeDocument([]byte("GCF profile=generic tool=t pack_root=sha256:ab key=id\n## s [2]{@id,v}\n1|x\n2|y\n"), gcfvalue.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []gcfvalue.HeaderField{{Key: "tool", Value: "t"}, {Key: "pack_root", Value: "sha256:ab"}, {Key: "key", Value: "id"}}
	if d := cmp.Diff(want, doc.Header); d != "" || doc.Profile != "generic" {
		t.Fatalf("header (-want +got):\n%s", d)
	}
	if v, ok := doc.Get("key"); !ok || v != "id" {
		t.Fatalf("Get(key) = %q, %v", v, ok)
	}
	text, _ := gcfvalue.Marshal(doc.Value)
	if string(text) != "GCF profile=generic\n## s [2]{id,v}\n1|x\n2|y\n" {
		t.Fatalf("body %q", text)
	}
	for _, in := range []string{
		"GCF profile=generic key=id\n## s [2]{@id,v}\n1|x\n1|y\n", // duplicate identity
		"GCF profile=generic\n## s [1]{@id,v}\n1|x\n",             // @ without key=
		"GCF profile=generic key=id\n## s [1]{@v}\n1\n",           // @ on another field
	} {
		if _, err := gcfvalue.Unmarshal([]byte(in)); err == nil {
			t.Errorf("%q decoded", in)
		}
	}
}

// TestHostileNoPanic: malformed variations of valid documents give an
// error or a value, never a panic.
func TestHostileNoPanic(t *testing.T) {
	base := []string{
		"GCF profile=generic\n## o [2]{id,c,i}\n@0 1|^{a,b,c}|^\n1|2|3\n.i [1]{x}\n    1\n@1 2|^|^\n4|5|6\n.i [1]\n    2\n",
		"GCF profile=generic\n## [2:]{key,a,\"p>q\"}\n@0 k|^|1\n.a {}\n    ## s\n      t=1\n@1 l|~|-\n",
		"GCF profile=generic\n## a [?]\n@0 [1]: \"x\\u0041\"\n@1 {}\n  b[0]:\n##! summary counts=2\n",
	}
	for _, b := range base {
		for i := 0; i <= len(b); i++ {
			for _, cut := range []string{b[:i], b[:i] + "\"" + b[i:], b[:i] + "|" + b[i:], b[:i] + "  " + b[i:], b[:i] + "\n@" + b[i:]} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("panic %v on %q", r, cut)
						}
					}()
					_, _ = gcfvalue.Unmarshal([]byte(cut))
				}()
			}
		}
	}
}

// recordSinks takes the tables at the paths in take, and the scalar
// members at those paths, and records what their sinks are given, as
// text.
type recordSinks struct {
	take []string // paths joined by "/", a scalar's with its key
	got  []string
	fail string // a cell value whose row the sink refuses
}

func (s *recordSinks) Table(path []string, h *gcfvalue.TableHeader) gcfvalue.TableSink {
	p := strings.Join(path, "/")
	for _, t := range s.take {
		if t == p {
			cols := make([]string, h.Columns())
			for i := range cols {
				cols[i] = h.Column(i)
			}
			s.got = append(s.got, "table "+p+" {"+strings.Join(cols, ",")+"}")
			return (*recordSink)(s)
		}
	}
	return nil
}

func (s *recordSinks) Scalar(path []string, key string, sc *gcfvalue.Scalar) (gcfvalue.Value, bool) {
	p := strings.Join(append(path, key), "/")
	for _, t := range s.take {
		if t == p {
			s.got = append(s.got, "scalar "+p+" "+sc.Str)
			return "taken", true
		}
	}
	return nil, false
}

type recordSink recordSinks

func (s *recordSink) Row(r *gcfvalue.Row) *wire.DecodeError {
	var cells []string
	for _, c := range r.Cells {
		switch c.Kind {
		case gcfvalue.Absent:
			cells = append(cells, "~")
		case gcfvalue.Marker:
			cells = append(cells, "^")
		case gcfvalue.Null:
			cells = append(cells, "-")
		case gcfvalue.Bool:
			cells = append(cells, map[bool]string{true: "true", false: "false"}[c.Bool])
		case gcfvalue.Number:
			cells = append(cells, "#"+c.Num.String())
		case gcfvalue.String:
			if c.Str == s.fail {
				return &wire.DecodeError{Codec: "test", Line: r.Line(), Msg: "refused"}
			}
			cells = append(cells, c.Str)
		}
	}
	row := "row " + strings.Join(cells, "|")
	if r.Attached != nil {
		out, err := gcfvalue.Marshal(plainLists(r.Attached))
		if err != nil {
			return &wire.DecodeError{Codec: "test", Msg: err.Error()}
		}
		row += " attached " + strings.ReplaceAll(strings.TrimPrefix(string(out), "GCF profile=generic\n"), "\n", ";")
	}
	s.got = append(s.got, row)
	return nil
}

func (s *recordSink) Value() gcfvalue.Value { return "taken" }

// plainLists is v with its *gcfvalue.ScalarList values (a sink's row's
// inline arrays) as the arrays of their strings.
func plainLists(v gcfvalue.Value) gcfvalue.Value {
	switch x := v.(type) {
	case *gcfvalue.ScalarList:
		out := []gcfvalue.Value{}
		for _, sc := range x.Items {
			out = append(out, sc.Str)
		}
		return out
	case []gcfvalue.Value:
		out := make([]gcfvalue.Value, len(x))
		for i, e := range x {
			out[i] = plainLists(e)
		}
		return out
	case *jsonvalue.Object:
		o := &jsonvalue.Object{}
		for _, m := range x.Members {
			o.Add(m.Key, plainLists(m.Value))
		}
		return o
	}
	return v
}

// TestDecodeSinks: the tables a Sinks chooses reach its sinks row by row
// (cells decoded, markers with their attachments, '>' attachments after),
// at the path of keys above them; the document holds what the sink's
// Value returns there; the other tables are generic values. The scalar
// members it takes reach it decoded, the others are generic values.
func TestDecodeSinks(t *testing.T) {
	doc := "GCF profile=generic\n" +
		"name=\"n 1\"\n" +
		"kept=k\n" +
		"## nodes [2]\n" +
		"@0 [2]{type,id,tags}\n" +
		"  @0 User|1|^\n" +
		"  .tags [2]: a,b\n" +
		"  User|2|~\n" +
		"  .\"x>y\" =3\n" +
		"@1 [1]{type,id,ok}\n" +
		"  Issue|\"7\"|true\n" +
		"## edges [1]{from,to}\n" +
		"a|-\n"
	s := &recordSinks{take: []string{"name", "nodes/", "edges"}}
	v, err := gcfvalue.DecodeSinks([]byte(doc), gcfvalue.Options{}, s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"scalar name n 1",
		"table nodes/ {type,id,tags}",
		"row User|#1|^ attached tags[2]: a,b;",
		`row User|#2|~ attached "x>y"=3;`,
		"table nodes/ {type,id,ok}",
		"row Issue|7|true",
		"table edges {from,to}",
		"row a|-",
	}
	if d := cmp.Diff(want, s.got); d != "" {
		t.Errorf("sinks saw (-want +got):\n%s", d)
	}
	o, ok := v.(*jsonvalue.Object)
	if !ok || len(o.Members) != 4 {
		t.Fatalf("value %#v", v)
	}
	if o.Members[0].Value != "taken" || o.Members[1].Value != "k" {
		t.Errorf("scalars %#v", o.Members[:2])
	}
	if d := cmp.Diff([]gcfvalue.Value{"taken", "taken"}, o.Members[2].Value); d != "" {
		t.Errorf("nodes (-want +got):\n%s", d)
	}
	if o.Members[3].Value != "taken" {
		t.Errorf("edges %#v", o.Members[3].Value)
	}

	// Without the edges' sink, the edges are a generic value.
	s = &recordSinks{take: []string{"nodes/"}}
	v, err = gcfvalue.DecodeSinks([]byte(doc), gcfvalue.Options{}, s)
	if err != nil {
		t.Fatal(err)
	}
	generic, err := gcfvalue.Decode([]byte(doc), gcfvalue.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(generic.(*jsonvalue.Object).Members[3], v.(*jsonvalue.Object).Members[3], cmp.AllowUnexported(jsonvalue.Number{})); d != "" {
		t.Errorf("generic edges (-want +got):\n%s", d)
	}

	// A sink's error ends the decode with it; the syntax's errors in a
	// sink's table are the reader's, positioned.
	s = &recordSinks{take: []string{"edges"}, fail: "a"}
	if _, err := gcfvalue.DecodeSinks([]byte(doc), gcfvalue.Options{}, s); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a sink's error: %v", err)
	}
	for _, bad := range []string{
		"GCF profile=generic\n## edges [2]{from,to}\na|b\n",            // too few rows
		"GCF profile=generic\n## edges [1]{from,to}\na|b|c\n",          // a row too wide
		"GCF profile=generic\n## edges [1]{from,to}\n@0 a|^\n",         // a marker without its attachment
		"GCF profile=generic\n## edges [1]{from,to}\na|\"b\n",          // an unterminated quote
		"GCF profile=generic\n## edges [1]{from,to}\na|b\n  .x>y =1\n", // an attachment too deep
	} {
		s = &recordSinks{take: []string{"edges"}}
		_, err := gcfvalue.DecodeSinks([]byte(bad), gcfvalue.Options{}, s)
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Line < 2 {
			t.Errorf("%q: %v, want a positioned *wire.DecodeError", bad, err)
		}
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
