// Package codecs registers every built-in graphwire codec. One blank import
// makes them all available by name through the wire registry:
//
//	import _ "github.com/graphwire/graphwire/codecs"
//
// The built-ins:
//
//	json     (alias raw)  codecs/json    canonical JSON, GKG's RAW response shape
//	goon     (alias llm)  codecs/goon    GOON 1.0.0 (GKG ADR 012), text for LLM agents
//	toon                  codecs/toon    TOON spec v4.0 text, graph-aware layout
//	msgpack               codecs/binary  MessagePack, positional layout, lossless
//	cbor                  codecs/binary  CBOR, core deterministic, positional layout, lossless
package codecs

import (
	_ "github.com/graphwire/graphwire/codecs/binary" // msgpack, cbor
	_ "github.com/graphwire/graphwire/codecs/goon"   // goon, llm
	_ "github.com/graphwire/graphwire/codecs/json"   // json, raw
	_ "github.com/graphwire/graphwire/codecs/toon"   // toon
)
