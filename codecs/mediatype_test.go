package codecs_test

import (
	"errors"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
)

// Every built-in is found by its media type, by its base type alone and by
// the base type with one of its parameters; a different layout or version
// finds nothing.
func TestLookupMediaType(t *testing.T) {
	for _, tc := range []struct {
		codec string
		found []string
	}{
		{"json", []string{"application/json", "application/json; charset=utf-8", "Application/JSON"}},
		{"goon", []string{"text/x-goon; version=1.0.0", "text/x-goon"}},
		{"toon", []string{"text/toon", "text/toon; charset=UTF-8"}},
		{"gcf", []string{"application/vnd.gcf+text", "application/vnd.gcf+text; charset=utf-8", "Application/VND.GCF+Text"}},
		{"msgpack", []string{"application/vnd.msgpack; layout=graphwire; version=2", "application/vnd.msgpack", "application/vnd.msgpack; version=2", "application/vnd.msgpack;layout=graphwire"}},
		{"cbor", []string{"application/cbor; layout=graphwire; version=2", "application/cbor", "application/cbor; layout=graphwire", "application/cbor; version=\"2\""}},
	} {
		c, err := wire.Lookup(tc.codec)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := wire.DefaultRegistry().LookupMediaType(c.Info().MediaType); err != nil || got.Info().Name != tc.codec {
			t.Errorf("LookupMediaType(%q) = %v, %v; want %s", c.Info().MediaType, got, err, tc.codec)
		}
		for _, mt := range tc.found {
			got, err := wire.DefaultRegistry().LookupMediaType(mt)
			if err != nil || got.Info().Name != tc.codec {
				t.Errorf("LookupMediaType(%q) = %v, %v; want %s", mt, got, err, tc.codec)
			}
		}
	}
	for _, mt := range []string{
		"application/cbor; layout=graphwire; version=3",
		"application/cbor; layout=other",
		"application/vnd.msgpack; version=0",
		"application/msgpack", // not registered, not served
		"text/x-goon; version=2.0.0",
	} {
		if c, err := wire.DefaultRegistry().LookupMediaType(mt); !errors.Is(err, wire.ErrUnknownCodec) {
			t.Errorf("LookupMediaType(%q) = %v, %v; want ErrUnknownCodec", mt, c, err)
		}
	}
}
