package toonvalue_test

import (
	"bytes"
	"testing"
	"time"

	"pgregory.net/rapid"

	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
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
	ref := toonvalue.StartReference(t)
	docs := 0
	prop := func(rt *rapid.T) {
		docs++
		text := toongen.Document(rt)
		opts := toonvalue.EncodeOptions{
			Delimiter:  rapid.SampledFrom([]toonvalue.Delimiter{toonvalue.Comma, toonvalue.Tab, toonvalue.Pipe}).Draw(rt, "delimiter"),
			IndentSize: rapid.SampledFrom([]int{2, 2, 2, 1, 3, 4}).Draw(rt, "indent"),
		}
		if err := toonvalue.CompareWithReference(ref, text, opts); err != nil {
			rt.Fatalf("%v", err)
		}
	}
	start := time.Now()
	for docs < toonvalue.ReferenceDocuments && !t.Failed() {
		rapid.Check(t, prop)
	}
	t.Logf("%d documents checked against @toon-format/toon@%s in %v", docs, toonvalue.ReferenceVersion, time.Since(start).Round(time.Millisecond))
}

// TestReferenceEdges runs the differential comparison on hand-picked
// documents, so that every edge named in the spec is covered on every run.
func TestReferenceEdges(t *testing.T) {
	ref := toonvalue.StartReference(t)
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
		for _, opts := range []toonvalue.EncodeOptions{{}, {Delimiter: toonvalue.Tab}, {Delimiter: toonvalue.Pipe, IndentSize: 4}} {
			if err := toonvalue.CompareWithReference(ref, []byte(text), opts); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestRoundTrip: for generated documents (numbers exact, no host rules),
// toonvalue.Unmarshal(toonvalue.Marshal(v)) is v again (member order aside in tables), Marshal
// is a fixed point, and the streaming Encoder writes the same bytes.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v, err := jsonvalue.Parse(toongen.Document(rt))
		if err != nil {
			rt.Fatal(err)
		}
		opts := toonvalue.EncodeOptions{
			Delimiter:  rapid.SampledFrom([]toonvalue.Delimiter{toonvalue.Comma, toonvalue.Tab, toonvalue.Pipe}).Draw(rt, "delimiter"),
			IndentSize: rapid.IntRange(1, 8).Draw(rt, "indent"),
		}
		text, err := toonvalue.Marshal(v, opts)
		if err != nil {
			rt.Fatal(err)
		}
		back, err := toonvalue.Unmarshal(text, toonvalue.DecodeOptions{IndentSize: opts.IndentSize})
		if err != nil {
			rt.Fatalf("toonvalue.Unmarshal(%q): %v", text, err)
		}
		if !toonvalue.EqualUnordered(v, back) {
			rt.Fatalf("round trip changed the value\ntext: %q\nwant %s\ngot  %s", text, toonvalue.JSONOf(t, v), toonvalue.JSONOf(t, back))
		}
		if again, _ := toonvalue.Marshal(back, opts); !bytes.Equal(again, text) {
			rt.Fatalf("not a fixed point:\n%q\n%q", text, again)
		}
		var buf bytes.Buffer
		if err := toonvalue.NewEncoder(&buf, opts).Encode(v); err != nil || !bytes.Equal(buf.Bytes(), text) {
			rt.Fatalf("Encoder wrote %q (%v), Marshal %q", buf.Bytes(), err, text)
		}
		if prefix := []byte("prefix"); true {
			out, err := toonvalue.AppendMarshal(prefix, v, opts)
			if err != nil || !bytes.Equal(out[:6], prefix) || !bytes.Equal(out[6:], text) {
				rt.Fatalf("AppendMarshal: %q, %v", out, err)
			}
		}
		lenient, err := toonvalue.Unmarshal(text, toonvalue.DecodeOptions{IndentSize: opts.IndentSize, Lenient: true})
		if err != nil || !jsonvalue.Equal(lenient, back) {
			rt.Fatalf("lenient decode differs: %v", err)
		}
		js, err := jsonvalue.Append(nil, back)
		if err != nil {
			rt.Fatal(err)
		}
		if fromJSON, err := jsonvalue.Parse(js); err != nil || !jsonvalue.Equal(fromJSON, back) {
			rt.Fatalf("JSON bridge round trip: %s (%v)", js, err)
		}
	})
}
