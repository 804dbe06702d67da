package json_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestRegistered: the codec registered as "json" (and "RAW", any case) is
// this package's, describes itself, and writes and reads canonical JSON,
// wire.AppendJSON's bytes.
func TestRegistered(t *testing.T) {
	c, err := wire.Lookup("RAW")
	if err != nil {
		t.Fatal(err)
	}
	if c != wire.Codec(json.Default()) {
		t.Errorf("Lookup(RAW) = %T %p, want json.Default()", c, c)
	}
	want := wire.Info{Name: json.Name, Aliases: []string{"raw"}, MediaType: json.MediaType, Description: c.Info().Description, Fidelity: wire.Exact}
	if diff := cmp.Diff(want, c.Info()); diff != "" || want.Description == "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
	r := wiretest.Response().Example(3)
	canonical, err := json.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]func() ([]byte, error){
		"json.Encode":         func() ([]byte, error) { return json.Encode(r) },
		"json.AppendEncode":   func() ([]byte, error) { return json.AppendEncode([]byte("abc"), r) },
		"registry":            func() ([]byte, error) { return c.AppendEncode(nil, r) },
		"EncodeWith(\"raw\")": func() ([]byte, error) { return wire.EncodeWith("raw", r) },
		"EncodeTo": func() ([]byte, error) {
			var b bytes.Buffer
			err := json.Default().EncodeTo(&b, r)
			return b.Bytes(), err
		},
	} {
		b, err := got()
		b = bytes.TrimPrefix(b, []byte("abc"))
		if err != nil || !bytes.Equal(b, canonical) {
			t.Errorf("%s = %s, %v; want wire.AppendJSON's %s", name, b, err, canonical)
		}
	}
	back, err := c.Decode(canonical)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(r, back, wire.Exact); diff != "" {
		t.Errorf("registered codec round trip (-want +got):\n%s", diff)
	}
}

// TestAppendHelpers: AppendString and AppendFloat write what the encoder
// writes for a string and a float.
func TestAppendHelpers(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\n\nt\tc\x01\x7f é \u2028 \xff"} {
		r := &wire.GraphResponse{FormatVersion: s, QueryType: wire.Search}
		enc, err := json.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"format_version":` + string(json.AppendString(nil, s)) + `,"query_type":"search","nodes":[],"edges":[]}`
		if string(enc) != want {
			t.Errorf("AppendString(%q): encoder writes %s, want %s", s, enc, want)
		}
	}
	for _, f := range []float64{0, 1, -2.5, 1e21, 5e-324, 1e-7, 123456789} {
		r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop("f", wire.Float(f))}}}}
		enc, err := json.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if want := `"f":` + string(json.AppendFloat(nil, f)) + `}`; !bytes.Contains(enc, []byte(want)) {
			t.Errorf("AppendFloat(%v): encoder writes %s, want %s in it", f, enc, want)
		}
	}
}
