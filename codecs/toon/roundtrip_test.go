package toon

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestRoundTrip: for generated documents (numbers exact, no host rules),
// Unmarshal(Marshal(v)) is v again (member order aside in tables), Marshal
// is a fixed point, and the streaming Encoder writes the same bytes.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v, err := ParseJSON(writeJSON(nil, genDocument(rt), false))
		if err != nil {
			rt.Fatal(err)
		}
		opts := EncodeOptions{
			Delimiter:  rapid.SampledFrom([]Delimiter{Comma, Tab, Pipe}).Draw(rt, "delimiter"),
			IndentSize: rapid.IntRange(1, 8).Draw(rt, "indent"),
		}
		text, err := Marshal(v, opts)
		if err != nil {
			rt.Fatal(err)
		}
		back, err := Unmarshal(text, DecodeOptions{IndentSize: opts.IndentSize})
		if err != nil {
			rt.Fatalf("Unmarshal(%q): %v", text, err)
		}
		if !equalUnordered(v, back) {
			rt.Fatalf("round trip changed the value\ntext: %q\nwant %s\ngot  %s", text, jsonOf(t, v), jsonOf(t, back))
		}
		if again, _ := Marshal(back, opts); !bytes.Equal(again, text) {
			rt.Fatalf("not a fixed point:\n%q\n%q", text, again)
		}
		var buf bytes.Buffer
		if err := NewEncoder(&buf, opts).Encode(v); err != nil || !bytes.Equal(buf.Bytes(), text) {
			rt.Fatalf("Encoder wrote %q (%v), Marshal %q", buf.Bytes(), err, text)
		}
		if prefix := []byte("prefix"); true {
			out, err := AppendMarshal(prefix, v, opts)
			if err != nil || !bytes.Equal(out[:6], prefix) || !bytes.Equal(out[6:], text) {
				rt.Fatalf("AppendMarshal: %q, %v", out, err)
			}
		}
		lenient, err := Unmarshal(text, DecodeOptions{IndentSize: opts.IndentSize, Lenient: true})
		if err != nil || !Equal(lenient, back) {
			rt.Fatalf("lenient decode differs: %v", err)
		}
		js, err := AppendJSON(nil, back)
		if err != nil {
			rt.Fatal(err)
		}
		if fromJSON, err := ParseJSON(js); err != nil || !Equal(fromJSON, back) {
			rt.Fatalf("JSON bridge round trip: %s (%v)", js, err)
		}
	})
}
