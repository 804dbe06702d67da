package toon_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// decodeTimeBound is the longest a decode of n bytes may take: a second
// plus 200 ns a byte, several times what a linear decoder needs.
func decodeTimeBound(n int) time.Duration {
	return time.Second + time.Duration(n)*200*time.Nanosecond
}

// graphPrefix opens a response whose first node table has the five
// fields id, name, state, email and age; what follows is its first row.
const graphPrefix = "format_version: \"1.0\"\nquery_type: traversal\nnodes:\n  User[1]{id,name,state,email,age}:\n    "

// longRow is a response whose one node row holds n delimiters under a
// five-field header.
func longRow(n int) []byte {
	var b bytes.Buffer
	b.Grow(len(graphPrefix) + n + 16)
	b.WriteString(graphPrefix)
	b.Write(bytes.Repeat([]byte{','}, n))
	b.WriteString("\nedges[0]:\n")
	return b.Bytes()
}

// distinctFields writes n distinct five-letter field names, comma
// separated.
func distinctFields(b *bytes.Buffer, n int) {
	var name [5]byte
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		k := i
		for j := range name {
			name[len(name)-1-j] = byte('a' + k%26)
			k /= 26
		}
		b.Write(name[:])
	}
}

// wideHeader is a response whose node table header declares n field
// names: distinct ones, or sixteen distinct names and then q repeated.
func wideHeader(n int, distinct bool) []byte {
	var b bytes.Buffer
	b.Grow(16 + 6*n)
	b.WriteString("format_version: \"1.0\"\nquery_type: traversal\nnodes:\n  User[1]{")
	if distinct {
		distinctFields(&b, n)
	} else {
		b.WriteString("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p")
		b.Write(bytes.Repeat([]byte(",q"), n-16))
	}
	b.WriteString("}:\n    1\nedges[0]:\n")
	return b.Bytes()
}

// wideNode is a response whose one node, in list form, has n properties
// (p0, p1, ...).
func wideNode(n int) []byte {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b bytes.Buffer
	b.Grow(64 + 13*n)
	b.WriteString("format_version: \"1.0\"\nquery_type: traversal\nnodes:\n  User[1]:\n    - id: 1\n")
	for i := range n {
		b.WriteString("      p")
		for k := i; k > 0 || b.Bytes()[b.Len()-1] == 'p'; k /= len(alphabet) {
			b.WriteByte(alphabet[k%len(alphabet)])
		}
		b.WriteString(": 1\n")
	}
	b.WriteString("edges[0]:\n")
	return b.Bytes()
}

// inlineFlood is an inline array declaring five values and holding n+1.
func inlineFlood(n int) []byte {
	var b bytes.Buffer
	b.Grow(n + 16)
	b.WriteString("tags[5]: ")
	b.Write(bytes.Repeat([]byte{','}, n))
	return b.Bytes()
}

// measureDecode runs decode on in and checks that it fails (or not, as
// wantErr says) within DecodeMemoryBound and decodeTimeBound.
func measureDecode(t *testing.T, in []byte, wantErr bool, decode func([]byte) error) {
	t.Helper()
	var err error
	f := wiretest.Measure(func() { err = decode(in) })
	t.Logf("input %d bytes: %v (bound %d KiB, %v); error: %.160v", len(in), f, wiretest.DecodeMemoryBound(len(in))>>10, decodeTimeBound(len(in)), err)
	if (err != nil) != wantErr {
		t.Fatalf("error %v, want an error: %v", err, wantErr)
	}
	if err != nil {
		// One positioned, one-line error quoting a short excerpt.
		if text := err.Error(); len(text) > maxErrorLen || bytes.ContainsAny([]byte(text), "\r\n") {
			t.Errorf("error is %d bytes or more than one line: %.400q", len(text), text)
		}
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Line == 0 {
			t.Errorf("error %v is not a *wire.DecodeError with a line", err)
		}
	}
	if f.PeakHeap > wiretest.DecodeMemoryBound(len(in)) {
		t.Errorf("peak heap %d bytes for %d bytes of input, more than the bound %d", f.PeakHeap, len(in), wiretest.DecodeMemoryBound(len(in)))
	}
	if !raceEnabled && f.Elapsed > decodeTimeBound(len(in)) {
		t.Errorf("took %v for %d bytes of input, more than %v", f.Elapsed, len(in), decodeTimeBound(len(in)))
	}
}

func graphDecode(in []byte) error {
	_, err := toon.Decode(in)
	return err
}

func genericDecode(opts toonvalue.DecodeOptions) func([]byte) error {
	return func(in []byte) error {
		_, err := toonvalue.Unmarshal(in, opts)
		return err
	}
}

// hostileShapes are the inputs of issue 19's "split before counting"
// class: a row of 20 or 60 million delimiters under a five-field header, a
// header of nine million field names, an inline array far longer than it
// declares.
func hostileShapes(t *testing.T) map[string]func() []byte {
	shapes := map[string]func() []byte{
		"row_20M":             func() []byte { return longRow(20_000_000) },
		"header_9M_distinct":  func() []byte { return wideHeader(9_000_000, true) },
		"header_9M_repeating": func() []byte { return wideHeader(9_000_000, false) },
		"inline_20M":          func() []byte { return inlineFlood(20_000_000) },
	}
	if !testing.Short() {
		shapes["row_60M"] = func() []byte { return longRow(60_000_000) }
	}
	return shapes
}

// TestHostileSplitMemory: a decode's peak heap stays within 16 times its
// input plus 16 MiB, and its time linear, however many cells or field
// names a line holds: a row is split only as far as its header allows,
// and a header's field list is checked as it is read.
func TestHostileSplitMemory(t *testing.T) {
	for name, build := range hostileShapes(t) {
		t.Run("graph/"+name, func(t *testing.T) {
			measureDecode(t, build(), true, graphDecode)
		})
		t.Run("generic/"+name, func(t *testing.T) {
			measureDecode(t, build(), true, genericDecode(toonvalue.DecodeOptions{}))
		})
	}
	t.Run("graph/node_of_4M_properties", func(t *testing.T) {
		// An object's members are counted as they are read: a node in list
		// form with four million properties stops at MaxElements.
		measureDecode(t, wideNode(4_000_000), true, graphDecode)
	})
	t.Run("generic/lenient_header_9M", func(t *testing.T) {
		// Lenient mode lets names repeat: nine million of them, two bytes
		// each, and a row too short for them.
		in := []byte("x[1]{" + string(bytes.Repeat([]byte("a,"), 9_000_000)) + "a}:\n  1")
		measureDecode(t, in, true, genericDecode(toonvalue.DecodeOptions{Lenient: true}))
	})
	t.Run("generic/lenient_row_20M", func(t *testing.T) {
		measureDecode(t, longRow(20_000_000), true, genericDecode(toonvalue.DecodeOptions{Lenient: true}))
	})
}

// TestLargeDocumentMemory: the largest corpus response, as TOON, decodes
// within the bound, through the codec and through the generic layer.
func TestLargeDocumentMemory(t *testing.T) {
	cases, err := corpus.LoadCommitted()
	if err != nil {
		t.Fatal(err)
	}
	var largest corpus.Case
	size := 0
	for _, c := range cases {
		text, err := toon.Encode(c.Response)
		if err != nil {
			t.Fatalf("%s: %v", c.ID(), err)
		}
		if len(text) > size {
			largest, size = c, len(text)
		}
	}
	text, err := toon.Encode(largest.Response)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("largest case %s: %d bytes of TOON", largest.ID(), len(text))
	t.Run("graph", func(t *testing.T) { measureDecode(t, text, false, graphDecode) })
	t.Run("generic", func(t *testing.T) { measureDecode(t, text, false, genericDecode(toonvalue.DecodeOptions{})) })
	if testing.Short() {
		return
	}
	// The densest values there are: ten million one-byte strings, and
	// as many small integers, two bytes of text each.
	for _, v := range []string{"a", "7"} {
		in := []byte("[10000000]: " + strings.Repeat(v+",", 9_999_999) + v)
		t.Run("generic/dense_"+v, func(t *testing.T) { measureDecode(t, in, false, genericDecode(toonvalue.DecodeOptions{})) })
	}
}

// TestSplitErrors: the errors of the counting that replaced splitting name
// the cell, field or member where the count passed what the header, the
// declared length or the limits allow.
func TestSplitErrors(t *testing.T) {
	small := wire.Limits{MaxElements: 3}
	cases := []struct {
		name, in   string
		codec      bool // decode with the toon codec under small
		line, col  int
		msg, limit string
	}{
		{"row past header", "t[1]{a,b}:\n  1,2,3,4", false, 2, 7, "row has more than the 2 values the header declares", ""},
		{"row past header, quoted", "t[1]{a,b}:\n  \"x,y\",2,\"z\"", false, 2, 11, "row has more than the 2 values the header declares", ""},
		{"keyed row past header", "t[1:]{a}:\n  k: 1,2", false, 2, 8, "row has more than the 1 values the header declares", ""},
		{"inline past declared", "tags[2]: a,b,c,d", false, 1, 14, "inline array declares 2 values but has more", ""},
		{"repeat past the pairwise names", "x[1]{" + fieldNames(40) + ",f33}:\n  1", false, 1, 156, `duplicate field name "f33" in field list`, ""},
		{"wide object repeat", wideKeys(30) + "k7: 1\n", false, 31, 1, `duplicate key "k7"`, ""},
		{"field group past MaxElements", "format_version: \"1\"\nquery_type: search\nnodes:\n  N[1]{id,a,b,c,d,e,f,g,h,i,j,k}:\n    1,2,3,4,5,6,7,8,9,10,11,12", true, 4, 31, "a field group of more than 11 fields", "MaxElements"},
		{"object past MaxElements", "format_version: \"1\"\nquery_type: search\nnodes:\n  N[1]:\n    - id: 1\n" + indentLines(wideKeys(12), "      "), true, 16, 7, "an object of more than 11 members", "MaxElements"},
		{"inline past MaxElements", "format_version: \"1\"\nquery_type: search\nnodes:\n  N[1]:\n    - id: 1\n      l[3]: 1,2,3,4", true, 6, 19, "inline array declares 3 values but has more", ""},
	}
	codec := mustCodec(t, small)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.codec {
				_, err = codec.Decode([]byte(c.in))
			} else {
				_, err = toonvalue.Unmarshal([]byte(c.in), toonvalue.DecodeOptions{})
			}
			wantDecodeError(t, err, c.line, c.msg, c.limit)
			var de *wire.DecodeError
			if errors.As(err, &de) && de.Column != c.col {
				t.Errorf("error %v at column %d, want %d", err, de.Column, c.col)
			}
		})
	}
}

// wideKeys is an object of n key-value lines k0: 0, k1: 1, ...
func wideKeys(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("k" + strconv.Itoa(i) + ": " + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// indentLines indents every line of s by prefix.
func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+prefix)
}

// fieldNames is the field list f0,f1,…,f(n-1).
func fieldNames(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	return strings.Join(names, ",")
}
