package toonvalue

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
)

func TestMarshalForms(t *testing.T) {
	obj := func(kv ...any) *jsonvalue.Object {
		o := &jsonvalue.Object{Members: []jsonvalue.Member{}}
		for i := 0; i < len(kv); i += 2 {
			o.Add(kv[i].(string), kv[i+1])
		}
		return o
	}
	tests := []struct {
		name string
		v    jsonvalue.Value
		opts EncodeOptions
		want string
	}{
		{"empty root object", obj(), EncodeOptions{}, ""},
		{"root null", nil, EncodeOptions{}, "null"},
		{"root bom string", "\uFEFFx", EncodeOptions{}, "\"\uFEFFx\""},
		{"go numbers", []jsonvalue.Value{1, int64(-2), 2.5, jsonvalue.Float(math.Copysign(0, -1))}, EncodeOptions{}, "[4]: 1,-2,2.5,0"},
		{"nil array", obj("a", []jsonvalue.Value(nil)), EncodeOptions{}, "a: []"},
		{"nil objects", obj("a", (*jsonvalue.Object)(nil), "b", obj("c", 1), "l", []jsonvalue.Value{(*jsonvalue.Object)(nil), obj("c", (*jsonvalue.Object)(nil))}), EncodeOptions{}, "a: null\nb:\n  c: 1\nl[2]:\n  - null\n  - c: null"},
		{"nil object in table", []jsonvalue.Value{obj("a", (*jsonvalue.Object)(nil)), obj("a", 1)}, EncodeOptions{}, "[2]{a}:\n  null\n  1"},
		{"invalid utf8", obj("k", "a\xffb"), EncodeOptions{}, "k: \"a\uFFFDb\""},
		{"control characters", obj("k", "\x00\x1f\x7f"), EncodeOptions{}, `k: "\u0000\u001f` + "\x7f" + `"`},
		{"pipe quoting", obj("a", "x|y", "b", []jsonvalue.Value{"x|y", "x,y"}), EncodeOptions{Delimiter: Pipe}, "a: \"x|y\"\nb[2|]: \"x|y\"|x,y"},
		{"keyed root", obj("u", obj("a", 1), "v", obj("a", 2)), EncodeOptions{}, "[2:]{a}:\n  u: 1\n  v: 2"},
		{"indent", obj("a", obj("b", []jsonvalue.Value{obj("c", 1, "d", []jsonvalue.Value{})})), EncodeOptions{IndentSize: 3}, "a:\n   b[1]:\n      - c: 1\n         d: []"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.v, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	dup := &jsonvalue.Object{Members: []jsonvalue.Member{{Key: "a", Value: 1}, {Key: "a", Value: 2}}}
	cycle := &jsonvalue.Object{}
	cycle.Add("self", cycle)
	tests := []struct {
		name string
		v    jsonvalue.Value
		opts EncodeOptions
		want string
	}{
		{"duplicate key", &jsonvalue.Object{Members: []jsonvalue.Member{{Key: "x", Value: dup}}}, EncodeOptions{}, `toon: object has duplicate key "a"`},
		{"duplicate key in table", []jsonvalue.Value{dup, dup}, EncodeOptions{}, `toon: object has duplicate key "a"`},
		{"unsupported type", []jsonvalue.Value{1, struct{}{}}, EncodeOptions{}, "toon: cannot encode value of type struct {}"},
		{"cycle", cycle, EncodeOptions{}, "toon: value nested deeper than 10000 levels (a cycle?)"},
		{"delimiter", "x", EncodeOptions{Delimiter: ';'}, `toon: invalid delimiter ';' (want ',', '\t' or '|')`},
		{"indent", "x", EncodeOptions{IndentSize: 65}, "toon: invalid IndentSize 65 (want 1 to 64)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []byte("keep")
			out, err := AppendMarshal(dst, tt.v, tt.opts)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("AppendMarshal error = %v, want %q", err, tt.want)
			}
			if string(out) != "keep" {
				t.Errorf("AppendMarshal left %q, want dst unchanged", out)
			}
			var buf bytes.Buffer
			if err := NewEncoder(&buf, tt.opts).Encode(tt.v); err == nil || buf.Len() != 0 {
				t.Errorf("Encoder.Encode: %v, wrote %d bytes; want an error and no output", err, buf.Len())
			}
		})
	}
}

type countingWriter struct {
	bytes.Buffer
	writes int
	failAt int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.failAt > 0 && w.writes >= w.failAt {
		return 0, errors.New("disk full")
	}
	return w.Buffer.Write(p)
}

func TestEncoderStreams(t *testing.T) {
	d := benchOnce()
	want, err := Marshal(d.value, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := &countingWriter{}
	if err := NewEncoder(w, EncodeOptions{}).Encode(d.value); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), want) || w.writes < len(want)/toonwrite.FlushSize {
		t.Errorf("Encoder wrote %d bytes in %d writes; want %d bytes in chunks", w.Len(), w.writes, len(want))
	}
	failing := &countingWriter{failAt: 2}
	if err := NewEncoder(failing, EncodeOptions{}).Encode(d.value); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("write error not reported: %v", err)
	}
}

// TestDefaultsMatchTheReader pins the documented defaults to the ones the
// shared reader applies when an option is zero.
func TestDefaultsMatchTheReader(t *testing.T) {
	if DefaultIndentSize != toonread.DefaultIndentSize || DefaultMaxDepth != toonread.DefaultMaxDepth {
		t.Errorf("toonvalue defaults %d, %d; the reader applies %d, %d", DefaultIndentSize, DefaultMaxDepth, toonread.DefaultIndentSize, toonread.DefaultMaxDepth)
	}
}
