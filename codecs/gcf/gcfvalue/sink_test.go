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
		out, err := gcfvalue.Marshal(r.Attached)
		if err != nil {
			return &wire.DecodeError{Codec: "test", Msg: err.Error()}
		}
		row += " attached " + strings.ReplaceAll(strings.TrimPrefix(string(out), "GCF profile=generic\n"), "\n", ";")
	}
	s.got = append(s.got, row)
	return nil
}

func (s *recordSink) Value() gcfvalue.Value { return "taken" }

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
