package toonvalue

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
)

// lineCases are documents that exercise how lines are split and what a
// strict reader refuses of them: indentation, blank and comment lines,
// a byte order mark, CRLF, and ill-formed UTF-8 meeting other errors.
// want is the decoded JSON, or the error when err is set.
var lineCases = []struct {
	name, in string
	lenient  bool
	err      bool
	want     string
}{
	{"bom, crlf and comments", "\uFEFF# c\r\na:\r\n  b: 1 \r\n\r\n  # x\r\nc[2]: 1,2\r\n", false, false, `{"a":{"b":1},"c":[1,2]}`},
	{"a tab in a blank line", "a: 1\n  \t\nb: 2", false, true, "toon: line 2, column 3: tab character in indentation"},
	{"a tab in a blank line of a list", "l[2]:\n  - a\n\t\n  - b", false, true, "toon: line 3, column 1: tab character in indentation"},
	{"a tab in a blank line, lenient", "a: 1\n  \t\nb: 2", true, false, `{"a":1,"b":2}`},
	{"a tab and spaces count one level each, lenient", "a:\n \tb: 1", true, false, `{"a":{"b":1}}`},
	{"a tabbed # line is content, lenient", "a:\n\t# x: 1", true, false, `{"a":{"# x":1}}`},
	{"uneven indentation of a blank line", "l[2]:\n  - a\n   \n  - b", false, true, "toon: line 3, column 1: blank line inside a list array"},
	{"uneven indentation of a comment", "a: 1\n   # c\nb: 2", false, false, `{"a":1,"b":2}`},
	{"utf8 in a comment before a tab", "# \xff\na:\n\tb: 1", false, true, "toon: line 1, column 3: invalid UTF-8 (byte 0xff)"},
	{"utf8 on the line of a tab", "a:\n\tb: \xff", false, true, "toon: line 2, column 5: invalid UTF-8 (byte 0xff)"},
	{"a tab before utf8", "a:\n\tb: 1\nc: \xff", false, true, "toon: line 2, column 1: tab character in indentation"},
	{"uneven indentation before utf8", "a:\n   b: 1\nc: \xff", false, true, "toon: line 2, column 1: indentation of 3 spaces is not a multiple of 2"},
	{"utf8 in a last comment", "a: 1\n# \xff", false, true, "toon: line 2, column 3: invalid UTF-8 (byte 0xff)"},
	{"utf8 in a last comment after a blank line", "a: 1\n\n# x\xfe\n", false, true, "toon: line 3, column 4: invalid UTF-8 (byte 0xfe)"},
	{"utf8 after a byte order mark", "\uFEFFa: \xff", false, true, "toon: line 1, column 7: invalid UTF-8 (byte 0xff)"},
	{"utf8 on a row after a short table", "t[1]{a}:\n  1\n  \xff", false, true, "toon: line 3, column 3: invalid UTF-8 (byte 0xff)"},
}

// TestLineRules pins what the reader makes of lines, and which error a
// document with several reports: the first in the text.
func TestLineRules(t *testing.T) {
	for _, tc := range lineCases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Unmarshal([]byte(tc.in), DecodeOptions{Lenient: tc.lenient})
			if !tc.err {
				if err != nil {
					t.Fatalf("Unmarshal(%q): %v", tc.in, err)
				}
				if got := jsonOf(t, v); got != tc.want {
					t.Fatalf("Unmarshal(%q) = %s, want %s", tc.in, got, tc.want)
				}
				return
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) || v != nil {
				t.Fatalf("Unmarshal(%q) = %v, %v; want a *wire.DecodeError and no value", tc.in, v, err)
			}
			if err.Error() != tc.want {
				t.Fatalf("Unmarshal(%q) error\n got %q\nwant %q", tc.in, err, tc.want)
			}
		})
	}
}

// TestLineRulesReference: the reference implementation accepts and
// refuses the same strict documents of valid UTF-8 (it reads text, not
// bytes).
func TestLineRulesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("needs node and the reference package")
	}
	ref := startReference(t)
	for _, tc := range lineCases {
		if tc.lenient || !utf8.ValidString(tc.in) {
			continue
		}
		_, refErr := ref.decode(tc.in, 2)
		if (refErr != nil) != tc.err {
			t.Errorf("%s: the reference says %v, we say error=%v", tc.name, refErr, tc.err)
		}
	}
}
