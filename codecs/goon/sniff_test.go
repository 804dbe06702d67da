package goon_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestSniff: the codec's confidence on openings of GOON and of other
// formats; every encoding it writes, under every goon_version it can
// stamp, is its own from the header line on; random bytes never are.
func TestSniff(t *testing.T) {
	var stamps []wire.Codec
	for _, version := range []string{goon.Version, "2.0.0", "4.0.1"} {
		c, err := goon.New(goon.Options{Version: version})
		if err != nil {
			t.Fatal(err)
		}
		stamps = append(stamps, c)
	}
	wiretest.RunSniff(t, wiretest.SniffSuite{
		Sniffer: goon.Default(),
		Cases: []wiretest.SniffCase{
			{Name: "header", Input: "@header\nquery_type:search\n", Want: 0.99},
			{Name: "header with CRLF", Input: "@header\r\nquery_type:search\r\n", Want: 0.99},
			{Name: "blank lines before", Input: "\n \n@header\n", Want: 0.99},
			{Name: "after a byte order mark", Input: "\uFEFF@header\n", Want: 0.99},
			{Name: "header cut off before its newline", Input: "@header", Want: 0.4},
			{Name: "another section", Input: "@nodes\n", Want: 0.4},
			{Name: "a longer name", Input: "@headers\n", Want: 0.4},
			{Name: "no at sign", Input: "header\nquery_type:search\n", Want: 0},
			{Name: "empty", Input: "", Want: 0},
			{Name: "JSON", Input: `{"format_version":"1.2.0"}`, Want: 0},
			{Name: "TOON", Input: "format_version: 1.2.0\n", Want: 0},
			{Name: "cbor", Input: "\x85\x02\x651.2.0\x66search", Want: 0},
			{Name: "a NUL byte", Input: "@header\n\x00", Want: 0},
		},
		Encoders: stamps,
		From:     len("@header\n"),
	})
}
