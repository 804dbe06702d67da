package gcfvalue_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestScaling: decoding runs in time linear in the input on the shapes
// that could make it quadratic: a header of many fields, a row of many
// attachment markers and their bodies, many '>' attachments, a long inline
// array, an object of many members, deep nesting.
func TestScaling(t *testing.T) {
	decode := func(b []byte) error { _, err := gcfvalue.Unmarshal(b); return err }
	names := func(n int, width int) []string {
		var out []string
		for i := 0; len(out)*width < n; i++ {
			out = append(out, "f"+strconv.Itoa(i))
		}
		return out
	}
	// grow is a document of head then line(0), line(1), ... up to n bytes.
	grow := func(head string, n int, line func(i int) string) []byte {
		var b strings.Builder
		b.WriteString("GCF profile=generic\n" + head)
		for i := 0; b.Len() < n; i++ {
			b.WriteString(line(i))
		}
		return []byte(b.String())
	}
	shapes := map[string]func(n int) []byte{
		"wide header": func(n int) []byte {
			fs := names(n/2, 8)
			return []byte("GCF profile=generic\n## t [1]{" + strings.Join(fs, ",") + "}\n" + strings.Repeat("1|", len(fs)-1) + "1\n")
		},
		"many markers": func(n int) []byte {
			fs := names(n, 24)
			var b strings.Builder
			b.WriteString("GCF profile=generic\n## t [1]{" + strings.Join(fs, ",") + "}\n@0 " + strings.Repeat("^|", len(fs)-1) + "^\n")
			for i := len(fs) - 1; i >= 0; i-- {
				b.WriteString("." + fs[i] + " [0]\n")
			}
			return []byte(b.String())
		},
		"many gt attachments": func(n int) []byte {
			return grow("## t [1]{a}\n@0 1\n", n, func(i int) string { return ".\"x>" + strconv.Itoa(i) + "\" =1\n" })
		},
		"long inline array": func(n int) []byte {
			return []byte("GCF profile=generic\na[?]: " + strings.Repeat("\"x\",", n/4) + "1\n")
		},
		"many members": func(n int) []byte {
			return grow("", n, func(i int) string { return "k" + strconv.Itoa(i) + "=v\n" })
		},
		"deep sections": func(n int) []byte {
			return grow("", n, func(i int) string { return strings.Repeat("  ", i%30) + "## s" + strconv.Itoa(i) + "\n" })
		},
	}
	for name, build := range shapes {
		wiretest.Scaling(t, name, build, decode)
	}
}
