package toonvalue

import (
	"fmt"
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// referenceVersion is the version of the npm package @toon-format/toon the
// differential test compares against.
const referenceVersion = "4.4.0"

// referenceDocuments is the number of generated documents the differential
// test checks.
const referenceDocuments = 5000

// compareWithReference runs one document through both implementations.
func compareWithReference(ref *reference, jsonText []byte, opts EncodeOptions) error {
	opts, err := opts.resolve()
	if err != nil {
		return err
	}
	v, err := jsonvalue.Parse(jsonText)
	if err != nil {
		return fmt.Errorf("jsonvalue.Parse(%s): %v", jsonText, err)
	}
	v = jsHost(v)
	ours, err := Marshal(v, opts)
	if err != nil {
		return fmt.Errorf("Marshal(%s): %v", jsonText, err)
	}
	describe := func() string {
		return fmt.Sprintf("document: %s\noptions: delimiter %q, indent %d\nours:\n%s\n", jsonText, rune(opts.Delimiter), opts.IndentSize, ours)
	}
	theirs, err := ref.encode(jsonText, opts)
	if err != nil {
		return fmt.Errorf("reference encode failed: %v\n%s", err, describe())
	}
	if theirs != string(ours) {
		return fmt.Errorf("encode differs from the reference\n%sreference:\n%s\nours (quoted):      %q\nreference (quoted): %q", describe(), theirs, ours, theirs)
	}
	dopts := DecodeOptions{IndentSize: opts.IndentSize}
	ourValue, err := Unmarshal([]byte(theirs), dopts)
	if err != nil {
		return fmt.Errorf("Unmarshal of the reference's output: %v\n%s", err, describe())
	}
	refJSON, err := ref.decode(string(ours), opts.IndentSize)
	if err != nil {
		return fmt.Errorf("reference decode of our output failed: %v\n%s", err, describe())
	}
	refValue, err := jsonvalue.Parse([]byte(refJSON))
	if err != nil {
		return fmt.Errorf("ParseJSON of the reference's decode (%s): %v", refJSON, err)
	}
	if ourJSON, _ := jsonvalue.Append(nil, jsHost(ourValue)); !jsonvalue.Equal(jsHost(refValue), jsHost(ourValue)) {
		return fmt.Errorf("decoded values differ\n%sreference decodes to: %s\nwe decode to:         %s", describe(), refJSON, ourJSON)
	}
	if !equalUnordered(v, ourValue) {
		ourJSON, _ := jsonvalue.Append(nil, ourValue)
		return fmt.Errorf("decode(encode(x)) != x\n%sdecoded: %s", describe(), ourJSON)
	}
	return nil
}

// jsHost is JavaScript's view of a JSON value (testsupport.JSView).
var jsHost = testsupport.JSView

// equalUnordered is Equal with object members compared as sets: tabular
// forms give every row the first row's key order (spec §2).
func equalUnordered(a, b jsonvalue.Value) bool {
	switch x := a.(type) {
	case []jsonvalue.Value:
		y, ok := b.([]jsonvalue.Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalUnordered(x[i], y[i]) {
				return false
			}
		}
		return true
	case *jsonvalue.Object:
		y, ok := b.(*jsonvalue.Object)
		if !ok || x == nil || y == nil || len(x.Members) != len(y.Members) {
			return ok && x == nil && y == nil
		}
		for _, m := range x.Members {
			w, ok := y.Get(m.Key)
			if !ok || !equalUnordered(m.Value, w) {
				return false
			}
		}
		return true
	}
	if n, ok := a.(jsonvalue.Number); ok && !n.IsInt() && (n.Float64() != n.Float64()) {
		return b == nil // NaN encodes as null
	}
	return jsonvalue.Equal(a, b)
}

// reference is the node process answering encode/decode requests with
// the reference implementation (testdata/reference.mjs).
type reference struct{ node *testsupport.Node }

func (r *reference) encode(jsonText []byte, opts EncodeOptions) (string, error) {
	o, err := opts.resolve()
	if err != nil {
		return "", err
	}
	options := map[string]any{"delimiter": string(rune(o.Delimiter)), "indentSize": o.IndentSize}
	return r.node.Ask(map[string]any{"op": "encode", "json": string(jsonText), "options": options}, "toon")
}

func (r *reference) decode(toonText string, indent int) (string, error) {
	return r.node.Ask(map[string]any{"op": "decode", "toon": toonText, "options": map[string]any{"indentSize": indent}}, "json")
}

// startReference returns the shared reference process, starting it (and
// installing the npm package) on first use.
func startReference(t *testing.T) *reference {
	t.Helper()
	return &reference{testsupport.StartNode(t, "testdata/reference.mjs", "@toon-format/toon@"+referenceVersion)}
}
