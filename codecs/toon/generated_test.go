package toon_test

import (
	"bytes"
	"testing"
	"time"

	"pgregory.net/rapid"

	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/internal/toongen"
)

// The tests over documents drawn by internal/toongen, the generator the
// CLI's differential test shares; they are external tests because
// toongen imports this package.

// TestReference is the differential test: for generated JSON documents, our
// FromJSON must equal the reference implementation's encode(JSON.parse(...))
// byte for byte, each side must decode the text to the same value, and that
// value must be the document again (key order aside in tables).
//
// It installs @toon-format/toon with npm (into a cache directory under the
// user cache, or a temporary one) and runs testdata/reference.mjs under node
// as one long-lived process. Without node or npm it is skipped, unless CI is
// set, when it fails.
//
// The reference runs on JavaScript numbers and objects, so the comparison
// applies the same host rules to our side first (jsHost): integers beyond
// ±2^53 are rounded to float64, and object keys that are array indices
// ("0", "1", ...) come first in ascending order, as JavaScript orders them.
func TestReference(t *testing.T) {
	ref := toon.StartReference(t)
	docs := 0
	prop := func(rt *rapid.T) {
		docs++
		text := toongen.Document(rt)
		opts := toon.EncodeOptions{
			Delimiter:  rapid.SampledFrom([]toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe}).Draw(rt, "delimiter"),
			IndentSize: rapid.SampledFrom([]int{2, 2, 2, 1, 3, 4}).Draw(rt, "indent"),
		}
		if err := toon.CompareWithReference(ref, text, opts); err != nil {
			rt.Fatalf("%v", err)
		}
	}
	start := time.Now()
	for docs < toon.ReferenceDocuments && !t.Failed() {
		rapid.Check(t, prop)
	}
	t.Logf("%d documents checked against @toon-format/toon@%s in %v", docs, toon.ReferenceVersion, time.Since(start).Round(time.Millisecond))
}

// TestReferenceEdges runs the differential comparison on hand-picked
// documents, so that every edge named in the spec is covered on every run.
func TestReferenceEdges(t *testing.T) {
	ref := toon.StartReference(t)
	var docs []string
	for _, n := range toongen.EdgeNumbers {
		docs = append(docs, n, "["+n+"]", `{"n":`+n+`}`, `[{"a":`+n+`,"b":1},{"a":2,"b":`+n+`}]`)
	}
	for _, s := range toongen.TrickyStrings {
		q := string(gjson.AppendString(nil, s))
		docs = append(docs, q, "["+q+","+q+"]", `{"k":`+q+`}`, `{`+q+`:1}`, `[{"a":`+q+`},{"a":"x"}]`, `{`+q+`:[1,2]}`)
	}
	for _, k := range toongen.TrickyKeys {
		q := string(gjson.AppendString(nil, k))
		docs = append(docs, `{`+q+`:{`+q+`:[]}}`, `{"m":{`+q+`:{"v":1},"z":{"v":2}}}`, `[{`+q+`:1,"b":{}}]`)
	}
	docs = append(docs, `{}`, `[]`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":[]}`, `[[],[1],{}]`, `[[1,2],[3]]`,
		`{"a":[[{"x":1}]]}`, `[{"a":[{"b":1},{"b":2}],"c":3}]`, `[{"a":{"b":1,"c":2}},{"a":{"c":3,"b":4}}]`,
		`{"x":{"a":{"p":1},"b":{"p":2}},"y":1}`, `[{"m":{"a":{"p":1},"b":{"p":2}},"n":1}]`,
		`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[1,[2,[3,[4]]]]}}}}}}}}}}`)
	for _, text := range docs {
		for _, opts := range []toon.EncodeOptions{{}, {Delimiter: toon.Tab}, {Delimiter: toon.Pipe, IndentSize: 4}} {
			if err := toon.CompareWithReference(ref, []byte(text), opts); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestRoundTrip: for generated documents (numbers exact, no host rules),
// toon.Unmarshal(toon.Marshal(v)) is v again (member order aside in tables), Marshal
// is a fixed point, and the streaming Encoder writes the same bytes.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v, err := toon.ParseJSON(toongen.Document(rt))
		if err != nil {
			rt.Fatal(err)
		}
		opts := toon.EncodeOptions{
			Delimiter:  rapid.SampledFrom([]toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe}).Draw(rt, "delimiter"),
			IndentSize: rapid.IntRange(1, 8).Draw(rt, "indent"),
		}
		text, err := toon.Marshal(v, opts)
		if err != nil {
			rt.Fatal(err)
		}
		back, err := toon.Unmarshal(text, toon.DecodeOptions{IndentSize: opts.IndentSize})
		if err != nil {
			rt.Fatalf("toon.Unmarshal(%q): %v", text, err)
		}
		if !toon.EqualUnordered(v, back) {
			rt.Fatalf("round trip changed the value\ntext: %q\nwant %s\ngot  %s", text, toon.JSONOf(t, v), toon.JSONOf(t, back))
		}
		if again, _ := toon.Marshal(back, opts); !bytes.Equal(again, text) {
			rt.Fatalf("not a fixed point:\n%q\n%q", text, again)
		}
		var buf bytes.Buffer
		if err := toon.NewEncoder(&buf, opts).Encode(v); err != nil || !bytes.Equal(buf.Bytes(), text) {
			rt.Fatalf("Encoder wrote %q (%v), Marshal %q", buf.Bytes(), err, text)
		}
		if prefix := []byte("prefix"); true {
			out, err := toon.AppendMarshal(prefix, v, opts)
			if err != nil || !bytes.Equal(out[:6], prefix) || !bytes.Equal(out[6:], text) {
				rt.Fatalf("AppendMarshal: %q, %v", out, err)
			}
		}
		lenient, err := toon.Unmarshal(text, toon.DecodeOptions{IndentSize: opts.IndentSize, Lenient: true})
		if err != nil || !toon.Equal(lenient, back) {
			rt.Fatalf("lenient decode differs: %v", err)
		}
		js, err := toon.AppendJSON(nil, back)
		if err != nil {
			rt.Fatal(err)
		}
		if fromJSON, err := toon.ParseJSON(js); err != nil || !toon.Equal(fromJSON, back) {
			rt.Fatalf("JSON bridge round trip: %s (%v)", js, err)
		}
	})
}
