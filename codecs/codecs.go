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
// The registry's own Limits (which bound DecodeFrom's reading) and every
// codec's are the same Limits, so whatever one codec of the registry decodes,
// every codec of it encodes and decodes back.
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

// NewRegistry returns a new registry holding every built-in codec
// configured with o, under the usual names and aliases, or an error naming
// the first option out of range.
func NewRegistry(o Options) (*wire.Registry, error) {
	reg, err := wire.NewRegistry(o.Limits)
	if err != nil {
		return nil, err
	}
	js, err := json.New(json.Options{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	gn, err := goon.New(goon.Options{Limits: o.Limits, Version: o.GOONVersion})
	if err != nil {
		return nil, err
	}
	tn, err := toon.New(toon.Options{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	gc, err := gcf.New(gcf.Options{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	mp, err := binary.New(binary.Msgpack, binary.Options{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	cb, err := binary.New(binary.CBOR, binary.Options{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	for _, c := range []wire.Codec{js, gn, tn, gc, mp, cb} {
		reg.Register(c)
	}
	return reg, nil
}
