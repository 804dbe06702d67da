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
