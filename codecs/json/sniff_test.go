package json_test

import (
	"math/rand/v2"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestSniff: the codec's confidence on openings of canonical JSON, of
// other JSON, and of other formats.
func TestSniff(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  float64
	}{
		{"format_version first", `{"format_version":"1.2.0","query_type":"search"}`, 0.99},
		{"query_type first", `{"query_type":"search"}`, 0.99},
		{"whitespace before", " \n\t{ \"format_version\" : \"1.2.0\"}", 0.99},
		{"after a byte order mark", "\uFEFF{\"query_type\":\"search\"}", 0.99},
		{"cut off after the key", `{"format_version"`, 0.99},
		{"another key first", `{"nodes":[],"edges":[]}`, 0.6},
		{"an empty object", `{}`, 0.6},
		{"cut off after the brace", `{`, 0.6},
		{"an object opening with something else", `{1:2}`, 0.1},
		{"an array", `[1,2,3]`, 0.2},
		{"empty", ``, 0},
		{"whitespace only", " \n", 0},
		{"plain prose", `hello, world`, 0},
		{"a string", `"format_version"`, 0},
		{"GOON", "@header\nquery_type:search\n", 0},
		{"TOON", "format_version: 1.2.0\n", 0},
		{"msgpack", "\x95\x02\xa51.2.0\xa6search", 0},
		{"a NUL byte", "{\"format_version\":\"\x00\"}", 0},
		{"invalid UTF-8", "{\"format_version\":\"\xff\"}", 0},
	}
	c := json.Default()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Sniff([]byte(tc.input)); got != tc.want {
				t.Errorf("Sniff(%q) = %v, want %v", tc.input, got, tc.want)
			}
		})
	}
}

// TestSniffOwnEncodings: every encoding the codec writes, and every
// prefix of one past its first key, is recognised as its own.
func TestSniffOwnEncodings(t *testing.T) {
	c := json.Default()
	n := 0
	for i, r := range wiretest.FixedResponses() {
		b, err := c.AppendEncode(nil, r)
		if err != nil {
			continue // a response the codec refuses
		}
		n++
		if got := c.Sniff(b[:min(len(b), wire.SniffLen)]); got < 0.9 {
			t.Errorf("response %d: Sniff = %v, want at least 0.9", i, got)
		}
		for k := len(`{"format_version"`); k <= min(len(b), wire.SniffLen); k++ {
			if got := c.Sniff(b[:k]); got < 0.9 {
				t.Fatalf("response %d cut after %d bytes (%q): Sniff = %v, want at least 0.9", i, k, b[:k], got)
			}
		}
	}
	if n == 0 {
		t.Fatal("no response encoded")
	}
}

// TestSniffRandomBytes: random bytes never look like canonical JSON.
func TestSniffRandomBytes(t *testing.T) {
	c := json.Default()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 10000 {
		b := make([]byte, 1+rng.IntN(wire.SniffLen))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		if got := c.Sniff(b); got >= 0.5 {
			t.Fatalf("input %d (% x ...): Sniff = %v", i, b[:min(len(b), 8)], got)
		}
	}
}
