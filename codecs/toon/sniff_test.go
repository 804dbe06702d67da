package toon

import (
	"math/rand/v2"
	"testing"

	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestSniff: the codec's confidence on openings of the graph layout, of
// other TOON, and of other formats.
func TestSniff(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  float64
	}{
		{"format_version first", "format_version: 1.2.0\nquery_type: search\n", 0.95},
		{"query_type first", "query_type: search\nnodes[0]:\n", 0.95},
		{"blank lines before", "\n\nformat_version: \"\"\n", 0.95},
		{"after a byte order mark", "\uFEFFformat_version: 1.2.0\n", 0.95},
		{"one line, cut off", "format_version: 1.", 0.95},
		{"another key and value", "name: Ada\n", 0.3},
		{"a block", "users:\n  - a\n", 0.3},
		{"a block, CRLF", "users:\r\n", 0.3},
		{"a table", "users[2]{id,name}:\n  1,Ada\n", 0.3},
		{"no space after the colon", "format_version:1.2.0\n", 0},
		{"a root array", "[3]: 1,2,3\n", 0},
		{"a quoted key", "\"format_version\": 1\n", 0},
		{"JSON", `{"format_version": "1.2.0"}`, 0},
		{"GOON", "@header\nquery_type:search\n", 0},
		{"plain prose", "hello, world", 0},
		{"empty", "", 0},
		{"msgpack", "\x95\x02\xa51.2.0\xa6search", 0},
		{"a NUL byte", "format_version: \x00", 0},
	}
	c := Default()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Sniff([]byte(tc.input)); got != tc.want {
				t.Errorf("Sniff(%q) = %v, want %v", tc.input, got, tc.want)
			}
		})
	}
}

// TestSniffOwnEncodings: every encoding the codec writes is recognised as
// its own from its first key and value on.
func TestSniffOwnEncodings(t *testing.T) {
	c := Default()
	n := 0
	for i, r := range wiretest.FixedResponses() {
		b, err := c.AppendEncode(nil, r)
		if err != nil {
			continue // a response the codec refuses
		}
		n++
		for k := len("format_version: "); k <= min(len(b), wirecodec.SniffLen); k++ {
			if got := c.Sniff(b[:k]); got < 0.9 {
				t.Fatalf("response %d cut after %d bytes (%q): Sniff = %v, want at least 0.9", i, k, b[:k], got)
			}
		}
	}
	if n == 0 {
		t.Fatal("no response encoded")
	}
}

// TestSniffRandomBytes: random bytes never look like the graph layout.
func TestSniffRandomBytes(t *testing.T) {
	c := Default()
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
