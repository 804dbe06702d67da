package wire_test

import (
	"math/rand/v2"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// builtinNames is a registry holding codecs under the built-in formats'
// names, none of which implements Sniffer: Sniff judges them by its
// built-in rules.
func builtinNames(t *testing.T) *wire.Registry {
	t.Helper()
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"json", "goon", "toon", "msgpack", "cbor"} {
		reg.Register(newFake(name))
	}
	return reg
}

// TestSniff: the built-in rules on openings of each format and on text
// and bytes of none. (internal/cli tests them on every codec's encoding of
// every corpus case.)
func TestSniff(t *testing.T) {
	reg := builtinNames(t)
	tests := []struct {
		name  string
		input string
		want  string // first guess, "" for none at 0.5 or more
	}{
		{"json object with format_version", " \n{\"format_version\":\"1.2.0\"}", "json"},
		{"json after a byte order mark", "\uFEFF{\"query_type\":\"search\"}", "json"},
		{"goon header", "@header\nquery_type:search\n", "goon"},
		{"graph toon", "format_version: 1.2.0\nquery_type: search\n", "toon"},
		{"msgpack head", "\x95\x01\xa51.2.0\xa6search", "msgpack"},
		{"cbor head", "\x85\x01\x651.2.0\x66search", "cbor"},
		{"msgpack with an unknown layout version", "\x95\x03\xa51.2.0\xa6search", ""},
		{"cbor with an unknown query type", "\x85\x01\x651.2.0\x66searcx", ""},
		{"empty", "", ""},
		{"plain prose", "hello, world", ""},
		{"a json array", "[1,2,3]", ""},
		{"NUL bytes", "format_version: \x00", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := reg.Sniff([]byte(tc.input))
			got := ""
			if len(g) > 0 && g[0].Confidence >= 0.5 {
				got = g[0].Name
			}
			if got != tc.want {
				t.Errorf("Sniff(%q) = %v, want %q first", tc.input, g, tc.want)
			}
			for _, x := range g {
				if x.Confidence <= 0 || x.Confidence > 1 {
					t.Errorf("confidence %v out of (0, 1]", x)
				}
			}
		})
	}
}

// TestSniffRandomBytes: random bytes look like no codec.
func TestSniffRandomBytes(t *testing.T) {
	reg := builtinNames(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 10000 {
		b := make([]byte, 1+rng.IntN(600))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		if g := reg.Sniff(b); len(g) > 0 && g[0].Confidence >= 0.5 {
			t.Fatalf("input %d (% x ...) sniffed as %v", i, b[:min(len(b), 8)], g)
		}
	}
}

type sniffingCodec struct{ wire.Codec }

func (sniffingCodec) Info() wire.Info {
	return wire.Info{Name: "json", MediaType: "application/x-test"}
}
func (sniffingCodec) Sniff(prefix []byte) float64 { return 0.7 }

// TestSniffer: a codec that implements Sniffer judges for itself, even
// under a built-in name.
func TestSniffer(t *testing.T) {
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(sniffingCodec{})
	g := reg.Sniff([]byte("\x00anything"))
	if len(g) != 1 || g[0] != (wire.Guess{Name: "json", Confidence: 0.7}) {
		t.Errorf("Sniff = %v, want json at 0.7", g)
	}
	if g := reg.Sniff([]byte(`{"format_version":"x"}`)); len(g) != 1 || g[0].Confidence != 0.7 {
		t.Errorf("the built-in JSON rule overrode the codec's Sniff: %v", g)
	}
}

// TestSniffOnlyRegistered: a registry names only codecs it holds.
func TestSniffOnlyRegistered(t *testing.T) {
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(newFake("goon"))
	if g := reg.Sniff([]byte(`{"format_version":"1.2.0"}`)); len(g) != 0 {
		t.Errorf("Sniff names %v, which the registry does not hold", g)
	}
	if g := reg.Sniff([]byte("@header\n")); len(g) != 1 || g[0].Name != "goon" {
		t.Errorf("Sniff = %v, want goon", g)
	}
}
