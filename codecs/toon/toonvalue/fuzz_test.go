package toonvalue

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// FuzzDecode checks that Unmarshal never panics, that every error is a
// positioned *wire.DecodeError, and that a decoded value re-encodes to text
// that decodes to the same value and re-encodes to the same bytes.
//
// flags: bit 0 selects lenient mode, bits 1-2 the indent size (1 to 4).
func FuzzDecode(f *testing.F) {
	f.Add([]byte("users[2]{id,name}:\n  1,Ada\n  2,Bob"), uint8(0))
	f.Add([]byte("a:\n  b[2|]: x|y\n  c: \"q\\n\""), uint8(0))
	f.Add([]byte("m[2:]{v,w{x}}:\n  a: 1,2\n  b: 3,4"), uint8(0))
	f.Add([]byte("items[2]:\n  - id: 1\n    tags[1]: a\n  - [2]: 1,2"), uint8(1))
	f.Add([]byte("# c\n[3\t]: a\tb\tc"), uint8(2))
	f.Add([]byte("\uFEFFa:\r\n  b: 1 \r\n  \t\r\n# \xff\nl[2]:\n  - x\n\n \t- y"), uint8(0))
	f.Add([]byte("\uFEFFa:\r\n  b: 1 \r\n  \t\r\n# \xff\nl[2]:\n  - x\n\n \t- y"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		opts := DecodeOptions{Lenient: flags&1 == 1, IndentSize: 1 + int(flags>>1)%4}
		v, err := Unmarshal(data, opts)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Line < 1 || de.Column < 1 || de.Codec != "toon" {
				t.Fatalf("error %v (%T) is not a positioned toon DecodeError", err, err)
			}
			_ = de.Error()
			return
		}
		eopts := EncodeOptions{IndentSize: opts.IndentSize}
		text, err := Marshal(v, eopts)
		if err != nil {
			t.Fatalf("Marshal of a decoded value: %v", err)
		}
		back, err := Unmarshal(text, DecodeOptions{IndentSize: opts.IndentSize})
		if err != nil {
			t.Fatalf("decoding our own output %q: %v", text, err)
		}
		if !equalUnordered(v, back) {
			t.Fatalf("round trip changed the value\ninput: %q\ntext:  %q\nfirst:  %s\nsecond: %s", data, text, jsonOf(t, v), jsonOf(t, back))
		}
		again, err := Marshal(back, eopts)
		if err != nil || !bytes.Equal(text, again) {
			t.Fatalf("encoding is not a fixed point: %q then %q (%v)", text, again, err)
		}
		if _, err := jsonvalue.Append(nil, v); err != nil {
			t.Fatalf("AppendJSON: %v", err)
		}
	})
}
