package wire_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// sniffer is a fake codec that implements wirecodec.Sniffer with a function,
// recording the prefixes it was given.
type sniffer struct {
	*fake
	judge func(prefix []byte) float64
	seen  []int // len of each prefix judged
}

func newSniffer(name string, judge func([]byte) float64, aliases ...string) *sniffer {
	return &sniffer{fake: newFake(name, aliases...), judge: judge}
}

func (s *sniffer) Sniff(prefix []byte) float64 {
	s.seen = append(s.seen, len(prefix))
	return s.judge(prefix)
}

func constant(c float64) func([]byte) float64 { return func([]byte) float64 { return c } }

func newRegistry(t *testing.T, codecs ...wire.Codec) *wire.Registry {
	t.Helper()
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range codecs {
		reg.Register(c)
	}
	return reg
}

// TestRegistrySniff: Sniff asks every codec that implements Sniffer and
// only those, drops no confidence, counts more than 1 as 1, and orders the
// guesses by confidence, ties by name.
func TestRegistrySniff(t *testing.T) {
	reg := newRegistry(t,
		newSniffer("zeta", constant(0.7)),
		newSniffer("alpha", constant(0.7)),
		newSniffer("magic", func(p []byte) float64 {
			if bytes.HasPrefix(p, []byte("MAGIC")) {
				return 0.99
			}
			return 0
		}),
		newSniffer("never", constant(0)),
		newSniffer("negative", constant(-1)),
		newSniffer("eager", constant(1.5)),
		newFake("silent"), // no Sniffer: never named
	)
	tests := []struct {
		name  string
		input string
		want  []wirecodec.Guess
	}{
		{"signature", "MAGIC and more", []wirecodec.Guess{{Name: "eager", Confidence: 1}, {Name: "magic", Confidence: 0.99}, {Name: "alpha", Confidence: 0.7}, {Name: "zeta", Confidence: 0.7}}},
		{"no signature", "something else", []wirecodec.Guess{{Name: "eager", Confidence: 1}, {Name: "alpha", Confidence: 0.7}, {Name: "zeta", Confidence: 0.7}}},
		{"empty", "", []wirecodec.Guess{{Name: "eager", Confidence: 1}, {Name: "alpha", Confidence: 0.7}, {Name: "zeta", Confidence: 0.7}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, wirecodec.Sniff(reg, []byte(tc.input))); diff != "" {
				t.Errorf("Sniff(%q) (-want +got):\n%s", tc.input, diff)
			}
		})
	}
}

// TestSniffNoSniffers: a registry whose codecs cannot judge names none,
// whatever the input: there are no rules by codec name, so a codec under a
// built-in format's name takes part only through Sniffer.
func TestSniffNoSniffers(t *testing.T) {
	reg := newRegistry(t, newFake("json"), newFake("goon"), newFake("toon"), newFake("msgpack"), newFake("cbor"))
	for _, in := range []string{`{"format_version":"1.2.0"}`, "@header\n", "format_version: 1.2.0\n", "\x95\x02\xa51.2.0\xa6search", "\x85\x02\x651.2.0\x66search"} {
		if g := wirecodec.Sniff(reg, []byte(in)); len(g) != 0 {
			t.Errorf("Sniff(%q) = %v, want none", in, g)
		}
	}
}

// TestSniffPrefix: a Sniffer is given the input itself up to SniffLen
// bytes, and only its first SniffLen bytes beyond that.
func TestSniffPrefix(t *testing.T) {
	s := newSniffer("s", func(p []byte) float64 {
		if strings.Trim(string(p), "x") != "" {
			return 0 // not the input's bytes
		}
		return 0.5
	})
	reg := newRegistry(t, s)
	for _, n := range []int{0, 1, wirecodec.SniffLen - 1, wirecodec.SniffLen, wirecodec.SniffLen + 1, 1 << 20} {
		s.seen = nil
		g := wirecodec.Sniff(reg, bytes.Repeat([]byte("x"), n))
		if want := min(n, wirecodec.SniffLen); !cmp.Equal(s.seen, []int{want}) || len(g) != 1 {
			t.Errorf("input of %d bytes: Sniff = %v, prefixes judged %v, want one of %d bytes", n, g, s.seen, want)
		}
	}
}

// TestSniffAliases: a codec with aliases is asked once and named by its
// canonical name.
func TestSniffAliases(t *testing.T) {
	s := newSniffer("main", constant(0.8), "other", "third")
	reg := newRegistry(t, s)
	if diff := cmp.Diff([]wirecodec.Guess{{Name: "main", Confidence: 0.8}}, wirecodec.Sniff(reg, []byte("x"))); diff != "" {
		t.Errorf("Sniff (-want +got):\n%s", diff)
	}
	if len(s.seen) != 1 {
		t.Errorf("the codec was asked %d times, want once", len(s.seen))
	}
}

// TestSniffOnlyRegistered: a registry names only codecs it holds; the
// default registry's codecs do not leak into another.
func TestSniffOnlyRegistered(t *testing.T) {
	reg := newRegistry(t, newSniffer("goon", func(p []byte) float64 {
		if bytes.HasPrefix(p, []byte("@header\n")) {
			return 0.99
		}
		return 0
	}))
	if g := wirecodec.Sniff(reg, []byte(`{"format_version":"1.2.0"}`)); len(g) != 0 {
		t.Errorf("Sniff names %v, which the registry does not hold", g)
	}
	if diff := cmp.Diff([]wirecodec.Guess{{Name: "goon", Confidence: 0.99}}, wirecodec.Sniff(reg, []byte("@header\n"))); diff != "" {
		t.Errorf("Sniff (-want +got):\n%s", diff)
	}
}

// TestSniffText: the helper of text formats' sniffers.
func TestSniffText(t *testing.T) {
	tests := []struct {
		name  string
		input string
		text  string
		ok    bool
	}{
		{"plain", "abc", "abc", true},
		{"leading whitespace", " \t\r\n abc ", "abc ", true},
		{"byte order mark", "\uFEFF\n{", "{", true},
		{"byte order mark only", "\uFEFF", "", true},
		{"empty", "", "", true},
		{"multibyte", "é: 1", "é: 1", true},
		{"a rune cut off at the end", "ab\xc3", "ab\xc3", true},
		{"a three-byte rune cut off", "ab\xe2\x82", "ab\xe2\x82", true},
		{"invalid UTF-8 inside", "a\xffb", "", false},
		{"a truncated rune inside", "a\xc3b", "", false},
		{"NUL", "a\x00", "", false},
		{"escape", "\x1b[0m", "", false},
		{"DEL", "a\x7f", "", false},
		{"C1 control allowed as UTF-8", "a\u0085", "a\u0085", true},
		{"byte order mark twice", "\uFEFF\uFEFFa", "\uFEFFa", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, ok := wirecodec.SniffText([]byte(tc.input))
			if string(text) != tc.text || ok != tc.ok {
				t.Errorf("SniffText(%q) = %q, %v; want %q, %v", tc.input, text, ok, tc.text, tc.ok)
			}
		})
	}
}

// lines is a user codec: a response as "format_version query_type" on one
// line. Its Sniff method is all it takes to be detected.
type lines struct{}

func (lines) Info() wire.Info {
	return wire.Info{Name: "lines", MediaType: "text/x-lines", Description: "version and query type on one line"}
}

func (lines) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return fmt.Appendf(dst, "%s %s\n", r.FormatVersion, r.QueryType), nil
}

func (lines) Decode(data []byte) (*wire.GraphResponse, error) {
	version, query, ok := strings.Cut(strings.TrimSuffix(string(data), "\n"), " ")
	if !ok {
		return nil, &wire.DecodeError{Codec: "lines", Offset: int64(len(data)), Msg: "expected a space"}
	}
	return &wire.GraphResponse{FormatVersion: version, QueryType: wire.QueryType(query)}, nil
}

// Sniff: text whose first word is a version number and whose second is a
// query type.
func (lines) Sniff(prefix []byte) float64 {
	text, ok := wirecodec.SniffText(prefix)
	if !ok {
		return 0
	}
	version, rest, _ := bytes.Cut(text, []byte(" "))
	query, _, _ := bytes.Cut(rest, []byte("\n"))
	if len(version) == 0 || strings.Trim(string(version), "0123456789.") != "" {
		return 0
	}
	if !wire.QueryType(query).Valid() {
		return 0.2
	}
	return 0.9
}

func ExampleSniffer() {
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		panic(err)
	}
	reg.Register(lines{})
	fmt.Println(wirecodec.Sniff(reg, []byte("1.2.0 search\n")))
	fmt.Println(wirecodec.Sniff(reg, []byte("1.2.0 other\n")))
	fmt.Println(wirecodec.Sniff(reg, []byte("hello")))
	// Output:
	// [{lines 0.9}]
	// [{lines 0.2}]
	// []
}
