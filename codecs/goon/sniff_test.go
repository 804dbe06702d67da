package goon_test

import (
	"math/rand/v2"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestSniff: the codec's confidence on openings of GOON and of other
// formats.
func TestSniff(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  float64
	}{
		{"header", "@header\nquery_type:search\n", 0.99},
		{"header with CRLF", "@header\r\nquery_type:search\r\n", 0.99},
		{"blank lines before", "\n \n@header\n", 0.99},
		{"after a byte order mark", "\uFEFF@header\n", 0.99},
		{"header cut off before its newline", "@header", 0.4},
		{"another section", "@nodes\n", 0.4},
		{"a longer name", "@headers\n", 0.4},
		{"no at sign", "header\nquery_type:search\n", 0},
		{"empty", "", 0},
		{"JSON", `{"format_version":"1.2.0"}`, 0},
		{"TOON", "format_version: 1.2.0\n", 0},
		{"cbor", "\x85\x02\x651.2.0\x66search", 0},
		{"a NUL byte", "@header\n\x00", 0},
	}
	c := goon.Default()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Sniff([]byte(tc.input)); got != tc.want {
				t.Errorf("Sniff(%q) = %v, want %v", tc.input, got, tc.want)
			}
		})
	}
}

// TestSniffOwnEncodings: every encoding the codec writes, under every
// goon_version it can stamp, is recognised as its own from its header
// line on.
func TestSniffOwnEncodings(t *testing.T) {
	n := 0
	for _, version := range []string{goon.Version, "2.0.0", "4.0.1"} {
		c, err := goon.New(goon.Options{Version: version})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range wiretest.FixedResponses() {
			b, err := c.AppendEncode(nil, r)
			if err != nil {
				continue // a response the codec refuses
			}
			n++
			for k := len("@header\n"); k <= min(len(b), wirecodec.SniffLen); k++ {
				if got := c.Sniff(b[:k]); got < 0.9 {
					t.Fatalf("%s, response %d cut after %d bytes: Sniff = %v, want at least 0.9", version, i, k, got)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no response encoded")
	}
}

// TestSniffRandomBytes: random bytes never look like GOON.
func TestSniffRandomBytes(t *testing.T) {
	c := goon.Default()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 10000 {
		b := make([]byte, 1+rng.IntN(wirecodec.SniffLen))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		if got := c.Sniff(b); got >= 0.5 {
			t.Fatalf("input %d (% x ...): Sniff = %v", i, b[:min(len(b), 8)], got)
		}
	}
}
