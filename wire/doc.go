// Package wire holds graphwire's data model, GraphResponse, and the registry
// through which codecs are chosen by name at run time.
//
// # Data model
//
// A GraphResponse is one graph query result (GKG's unified query response,
// schema v2, with the pagination of schema v5 as well). Its values keep
// apart what a wire format must keep apart: int and float, the string
// "true" and the bool true, null, "" and absent, absent and zero optional
// fields, and int64 beyond 2^53. See Value and the nil-versus-empty rule on
// GraphResponse. ValueOf and NodeOf build values and nodes from ordinary
// Go values; Equal compares two responses under a Fidelity.
//
// Pagination holds both published shapes, each with every field its
// schema requires: v2 {has_more, total_rows} and v5 {has_more, truncated,
// next_cursor when there is a next page}; Pagination.Schema tells them
// apart. Anything else (has_more alone, next_cursor without truncated,
// total_rows beside v5's fields) is refused by every built-in encoder and
// decoder (Pagination.Check says why): each reading would invent a
// meaning the sender never stated. next_cursor is opaque and carried byte
// for byte where a codec is lossless.
//
// # Registry
//
// Codec packages register themselves in init; importing
//
//	import _ "github.com/graphwire/graphwire/codecs"
//
// registers every built-in codec. The package-level functions Register,
// Lookup, EncodeWith, DecodeWith and List work on DefaultRegistry; the
// rest are its methods, and NewRegistry makes one of a service's own,
// bounded by its Limits. DecodeFrom reads one response from an
// io.Reader, a Decoder (NewDecoder) one after another.
//
// # Validity
//
// A response is valid when it keeps the rules every built-in decoder
// enforces whatever the format (wirecodec.Check lists them) and the
// Limits; every built-in encoder checks them before writing, so an
// encoder refuses what its decoder would refuse. A format may refuse
// more: JSON and TOON cannot carry a NaN or an infinity, GOON needs
// identifier names, msgpack and CBOR valid UTF-8. An *EncodeError's Path
// names the place refused in one syntax for every codec:
// nodes[3].properties.tags[1], rows[0].g.properties.name.
//
// # Canonical JSON
//
// The canonical JSON of a response (SPEC §4) is the json codec's
// (codecs/json); GraphResponse's MarshalJSON and UnmarshalJSON go through
// the codec registered as "json" in the default registry. A value's own
// canonical JSON is written here, by Value.MarshalJSON, Value.String and
// AppendValueJSON.
//
// What only a codec's author needs (the Meter a decoder counts with, the
// checks an encoder runs, format detection, the optional interfaces the
// registry finds by their signatures) is package wirecodec's.
package wire
