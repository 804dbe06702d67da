package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestSniff runs the shared detection suite (wiretest.RunSniff): the
// codec's confidence on openings of canonical JSON, of other JSON, and of
// other formats; its own encodings recognised from their first key on;
// random bytes never taken for canonical JSON.
func TestSniff(t *testing.T) {
	wiretest.RunSniff(t, wiretest.SniffSuite{
		Sniffer:  json.Default(),
		Encoders: []wire.Codec{json.Default()},
		From:     len(`{"format_version"`),
		Cases: []wiretest.SniffCase{
			{Name: "format_version first", Input: `{"format_version":"1.2.0","query_type":"search"}`, Want: 0.99},
			{Name: "query_type first", Input: `{"query_type":"search"}`, Want: 0.99},
			{Name: "whitespace before", Input: " \n\t{ \"format_version\" : \"1.2.0\"}", Want: 0.99},
			{Name: "after a byte order mark", Input: "\uFEFF{\"query_type\":\"search\"}", Want: 0.99},
			{Name: "cut off after the key", Input: `{"format_version"`, Want: 0.99},
			{Name: "another key first", Input: `{"nodes":[],"edges":[]}`, Want: 0.6},
			{Name: "a delta", Input: `{"graphwire_delta":1,"base":"sha256:00"}`, Want: 0},
			{Name: "an empty object", Input: `{}`, Want: 0.6},
			{Name: "cut off after the brace", Input: `{`, Want: 0.6},
			{Name: "an object opening with something else", Input: `{1:2}`, Want: 0.1},
			{Name: "an array", Input: `[1,2,3]`, Want: 0.2},
			{Name: "empty", Input: ``, Want: 0},
			{Name: "whitespace only", Input: " \n", Want: 0},
			{Name: "plain prose", Input: `hello, world`, Want: 0},
			{Name: "a string", Input: `"format_version"`, Want: 0},
			{Name: "GOON", Input: "@header\nquery_type:search\n", Want: 0},
			{Name: "TOON", Input: "format_version: 1.2.0\n", Want: 0},
			{Name: "msgpack", Input: "\x95\x02\xa51.2.0\xa6search", Want: 0},
			{Name: "a NUL byte", Input: "{\"format_version\":\"\x00\"}", Want: 0},
			{Name: "invalid UTF-8", Input: "{\"format_version\":\"\xff\"}", Want: 0},
		},
	})
}
