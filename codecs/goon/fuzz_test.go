package goon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecode: Decode never panics; every error is a positioned goon
// *wire.DecodeError (its message rendered, so formatting is fuzzed too); and
// whatever decodes encodes, and that text is a fixed point:
// encode(decode(encode(d))) == encode(d). The seed corpus is committed under
// testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, c := range goldenCases() {
		if out, err := goon.Encode(c.in); err == nil {
			f.Add(out)
		}
	}
	// Truncated values and their breadcrumbs: read back as properties,
	// beside a key_len of the node's own, and text that reads as cut.
	long := strings.Repeat("x", 197) + "..."
	for _, line := range []string{
		"1 title=" + long + " title_len=300",
		"1 title_len=5 title=" + long + " title_len=300",
		`1 title="a b..." title_len=900 note="\"q..." note_len=201`,
	} {
		f.Add([]byte("@header\nquery_type:search\ngoon_version:1.0.0\nnodes:1\nedges:0\n@nodes\nN(1):\n" + line + "\n@edges\n"))
	}
	// Small limits keep each run fast; their checks are fuzzed all the
	// same.
	dec, err := goon.New(goon.Options{Limits: wire.Limits{MaxStringBytes: 1 << 16, MaxMaterializedBytes: 1 << 20}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := dec.Decode(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Codec != "goon" || de.Line < 1 || !strings.HasPrefix(err.Error(), "goon: line ") {
				t.Fatalf("error %q (%T) is not a positioned goon error", err, err)
			}
			if r != nil {
				t.Fatalf("a response came back with error %v", err)
			}
			return
		}
		first, err := goon.Encode(r)
		if err != nil {
			t.Fatalf("a decoded response does not encode: %v\ninput:\n%q", err, data)
		}
		checkShape(t, first)
		fixedPoint(t, dec, first)
	})
}
