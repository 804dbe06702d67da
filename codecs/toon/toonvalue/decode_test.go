package toonvalue

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// TestDecodeErrors pins the text and position of representative errors.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in string
		opts     DecodeOptions
		want     string
	}{
		{"count", "tags[3]: a,b", DecodeOptions{}, "toon: line 1, column 10: inline array declares 3 values but has 2"},
		{"row width", "t[2]{a,b}:\n  1,2\n  3", DecodeOptions{}, "toon: line 3, column 3: row has 1 values but the header declares 2 fields"},
		{"row count", "t[2]{a}:\n  1", DecodeOptions{}, "toon: line 2, column 3: tabular array declares 2 rows but has 1"},
		{"extra items", "l[1]:\n  - a\n  - b", DecodeOptions{}, "toon: line 3, column 3: list array declares 1 items but has more"},
		{"bad escape", "k: \"a\\x\"", DecodeOptions{}, `toon: line 1, column 6: invalid escape \x`},
		{"surrogate", "k: \"\\ud800\"", DecodeOptions{}, `toon: line 1, column 5: invalid escape: \ud800 is a surrogate (write supplementary characters as UTF-8)`},
		{"unterminated", "k: \"abc", DecodeOptions{}, "toon: line 1, column 4: unterminated string"},
		{"missing colon", "a:\n  user", DecodeOptions{}, `toon: line 2, column 7: missing colon after key "user"`},
		{"tab indent", "a:\n\tb: 1", DecodeOptions{}, "toon: line 2, column 1: tab character in indentation"},
		{"indent multiple", "a:\n   b: 1", DecodeOptions{}, "toon: line 2, column 1: indentation of 3 spaces is not a multiple of 2"},
		{"depth jump", "a:\n    b: 1", DecodeOptions{}, "toon: line 2, column 5: indentation jumps more than one level (depth 2, expected 1)"},
		{"over-indented", "a: 1\n  b: 2", DecodeOptions{}, "toon: line 2, column 3: line is indented deeper than its scope allows (depth 1, expected 0)"},
		{"duplicate", "a: 1\nb: 2\na: 3", DecodeOptions{}, `toon: line 3, column 1: duplicate key "a"`},
		{"blank in array", "l[2]:\n  - a\n\n  - b", DecodeOptions{}, "toon: line 3, column 1: blank line inside a list array"},
		{"bad length", "x[03]: a", DecodeOptions{}, `toon: line 1, column 2: invalid array length "[03]" (expected a non-negative integer without leading zeros)`},
		{"delimiter mismatch", "x[1|]{a,b}:\n  1|2", DecodeOptions{}, `toon: line 1, column 6: header delimiter mismatch: the bracket declares "|" but the field list contains an unquoted ","`},
		{"trailing root", "[1]: a\nb: 1", DecodeOptions{}, "toon: line 2, column 1: unexpected content after the root value"},
		{"two scalars", "hello\nworld", DecodeOptions{}, "toon: line 2, column 1: a document with more than one line must be an object or array: expected key: value, found a second top-level value line"},
		{"utf8", "a: \xff", DecodeOptions{}, "toon: line 1, column 4: invalid UTF-8 (byte 0xff)"},
		{"utf8 after an error", "a:\n  user\nb: \xff", DecodeOptions{}, `toon: line 2, column 7: missing colon after key "user"`},
		{"utf8 before an error", "a: \xff\nb:\n  user", DecodeOptions{}, "toon: line 1, column 4: invalid UTF-8 (byte 0xff)"},
		{"keyless", "a:\n  [2]: 1,2", DecodeOptions{}, "toon: line 2, column 3: an array header without a key is only valid at the document root or as a list item"},
		{"depth limit", "a:\n  b:\n    c:\n      d: 1", DecodeOptions{MaxDepth: 2}, "toon: line 4, column 7: nesting deeper than 2 levels"},
		{"duplicate field", "x[1]{a,b,a}:\n  1,2,3", DecodeOptions{}, `toon: line 1, column 10: duplicate field name "a" in field list`},
		{"duplicate quoted field", "x[1]{a,\"a\"}:\n  1,2", DecodeOptions{}, `toon: line 1, column 8: duplicate field name "a" in field list`},
		{"duplicate nested field", "x[1]{a,b{c,d,c}}:\n  1,2,3,4", DecodeOptions{}, `toon: line 1, column 14: duplicate field name "c" in field list`},
		{"duplicate wide field", "x[1]{" + wideFields(40) + ",f17}:\n  1", DecodeOptions{}, `toon: line 1, column 156: duplicate field name "f17" in field list`},
		{"duplicate before unmatched brace", "x[1]{a,a,b:\n  1", DecodeOptions{}, `toon: line 1, column 8: duplicate field name "a" in field list`},
		{"field group limit", "x[1]{a{b{c}}}:\n  1", DecodeOptions{MaxDepth: 2}, "toon: line 1, column 10: field groups nested deeper than 2 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Unmarshal([]byte(tt.in), tt.opts)
			if err == nil {
				t.Fatalf("Unmarshal(%q) = %s, want error %q", tt.in, jsonOf(t, v), tt.want)
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) || v != nil {
				t.Fatalf("error %v (%T) with value %v; want a *wire.DecodeError and no value", err, err, v)
			}
			if err.Error() != tt.want {
				t.Errorf("Unmarshal(%q) error\n got %q\nwant %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestDecodeForms(t *testing.T) {
	tests := []struct {
		name, in string
		opts     DecodeOptions
		want     string // JSON
	}{
		{"bom and crlf", "\uFEFFa: 1\r\nb: x\r\n", DecodeOptions{}, `{"a":1,"b":"x"}`},
		{"exact int64", "n: 9223372036854775807", DecodeOptions{}, `{"n":9223372036854775807}`},
		{"beyond float64 is a string", "n: 1e400", DecodeOptions{}, `{"n":"1e400"}`},
		{"lenient duplicate", "a: 1\nb: 2\na: 3", DecodeOptions{Lenient: true}, `{"a":3,"b":2}`},
		{"lenient literal key", "foo[2]extra: a,b", DecodeOptions{Lenient: true}, `{"foo[2]extra":"a,b"}`},
		{"lenient keyless", "a:\n  [2]: 1,2", DecodeOptions{Lenient: true}, `{"a":{"[2]":"1,2"}}`},
		{"lenient utf8", "a: \xff", DecodeOptions{Lenient: true}, `{"a":"` + "\uFFFD" + `"}`},
		{"lenient tabs", "a:\n\tb: 1", DecodeOptions{Lenient: true}, `{"a":{"b":1}}`},
		{"empty", "", DecodeOptions{}, `{}`},
		{"lenient duplicate field", "x[1]{a,b,a}:\n  1,2,3", DecodeOptions{Lenient: true}, `{"x":[{"a":3,"b":2}]}`},
		{"same name in two groups", "x[1]{a,b{a}}:\n  1,2", DecodeOptions{}, `{"x":[{"a":1,"b":{"a":2}}]}`},
		{"wide distinct fields", "x[1]{" + wideFields(40) + "}:\n  " + strings.TrimSuffix(strings.Repeat("1,", 40), ","), DecodeOptions{}, ""},
		{"huge declared length", "[99999999999999999999999]: a", DecodeOptions{Lenient: true}, `["a"]`},
		{"indent 4", "a:\n    b[2]:\n        - 1\n        - x: y", DecodeOptions{IndentSize: 4}, `{"a":{"b":[1,{"x":"y"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Unmarshal([]byte(tt.in), tt.opts)
			if err != nil {
				t.Fatalf("Unmarshal(%q): %v", tt.in, err)
			}
			if got := jsonOf(t, v); tt.want != "" && got != tt.want {
				t.Errorf("Unmarshal(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestDecodeLarge checks that sizes and nesting are bounded and decoding
// stays linear on hostile shapes.
func TestDecodeLarge(t *testing.T) {
	deep := strings.Repeat("{a", 200000) + strings.Repeat("}", 200000)
	if _, err := Unmarshal([]byte("x[1]"+deep+":\n  1"), DecodeOptions{}); err == nil {
		t.Error("deeply nested field groups accepted")
	}
	var b strings.Builder
	for i := range 3000 {
		b.WriteString(strings.Repeat(" ", 2*i))
		b.WriteString("a:\n")
	}
	if _, err := Unmarshal([]byte(b.String()), DecodeOptions{}); err == nil {
		t.Error("nesting beyond DefaultMaxDepth accepted")
	}
	wide := "x[1]{" + strings.Repeat("a,", 100000) + "b}:\n  1"
	if _, err := Unmarshal([]byte(wide), DecodeOptions{}); err == nil {
		t.Error("a width mismatch on a wide header was accepted")
	}
	if _, err := Unmarshal([]byte("x"), DecodeOptions{IndentSize: -1}); err == nil {
		t.Error("a negative IndentSize was accepted")
	}
}

// wideFields returns the field list f0,f1,…,f(n-1).
func wideFields(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	return strings.Join(names, ",")
}

// TestDecodeDuplicateFieldAllocation: a repeated field name is reported as
// soon as it is read, so a huge header that repeats its first name costs
// next to nothing beyond the decoder's one copy of the input.
func TestDecodeDuplicateFieldAllocation(t *testing.T) {
	in := []byte("x[1]{" + strings.Repeat("a,", 200000) + "a}:\n  1")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Unmarshal(in, DecodeOptions{})
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes allocated for a %d-byte header", alloc, len(in))
	const want = `toon: line 1, column 8: duplicate field name "a" in field list`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if alloc > uint64(len(in))+64<<10 {
		t.Errorf("%d bytes allocated for a %d-byte header that repeats its first field name", alloc, len(in))
	}
}
