// Package codecs registers every built-in graphwire codec. One blank import
// makes them all available by name through the default wire registry:
//
//	import _ "github.com/graphwire/graphwire/codecs"
//
// The built-ins:
//
//	json     (alias raw)  codecs/json    canonical JSON, GKG's RAW response shape
//	goon     (alias llm)  codecs/goon    GOON 1.0.0 (GKG ADR 012), text for LLM agents
//	toon                  codecs/toon    TOON spec v4.0 text, graph-aware layout
//	gcf                   codecs/gcf     GCF v3.5.3 text, generic profile (application/vnd.gcf+text)
//	msgpack               codecs/binary  MessagePack, positional layout, lossless
//	cbor                  codecs/binary  CBOR, core deterministic, positional layout, lossless
//
// # Registries of one's own
//
// NewRegistry fills a new wire.Registry with every built-in codec,
// configured with the given Options, under the same names and aliases. A
// service that decodes untrusted bodies under its own limits builds one
// once and uses it for every request:
//
//	reg, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxInputBytes: 1 << 20}})
//	if err != nil {
//		return err
//	}
//	resp, err := reg.DecodeFrom(req.Header.Get("X-Format"), req.Body)
//
// The registry's Limits and every codec's are the same, so whatever one
// codec of the registry decodes, every codec of it encodes and decodes back.
package codecs

import (
	"github.com/graphwire/graphwire/codecs/binary" // msgpack, cbor
	"github.com/graphwire/graphwire/codecs/gcf"    // gcf
	"github.com/graphwire/graphwire/codecs/goon"   // goon, llm
	"github.com/graphwire/graphwire/codecs/json"   // json, raw
	"github.com/graphwire/graphwire/codecs/toon"   // toon
	"github.com/graphwire/graphwire/wire"
)

// Options configure the codecs of a registry built by NewRegistry. The zero
// value gives the defaults: the codecs of the default registry.
type Options struct {
	// Limits bound what every codec decodes and, symmetrically, encodes
	// (see wire.Limits); zero fields take their defaults.
	Limits wire.Limits

	// GOONVersion is the goon_version the goon codec writes (goon.Options
	// Version); "" means goon.Version.
	GOONVersion string
}

// NewRegistry returns a new registry holding every built-in codec configured
// with o, under the usual names and aliases, or the error naming the first
// option out of range.
func NewRegistry(o Options) (*wire.Registry, error) {
	l := o.Limits
	reg, err := wire.NewRegistry(l)
	if err != nil {
		return nil, err
	}
	for _, build := range []func() (wire.Codec, error){
		func() (wire.Codec, error) { return json.New(json.Options{Limits: l}) },
		func() (wire.Codec, error) { return goon.New(goon.Options{Limits: l, Version: o.GOONVersion}) },
		func() (wire.Codec, error) { return toon.New(toon.Options{Limits: l}) },
		func() (wire.Codec, error) { return gcf.New(gcf.Options{Limits: l}) },
		func() (wire.Codec, error) { return binary.New(binary.Msgpack, binary.Options{Limits: l}) },
		func() (wire.Codec, error) { return binary.New(binary.CBOR, binary.Options{Limits: l}) },
	} {
		c, err := build()
		if err != nil {
			return nil, err
		}
		reg.Register(c)
	}
	return reg, nil
}
