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
// GraphResponse.
//
// # Pagination: schema v2 and v5
//
// GKG has served two pagination objects: schema v2's {has_more,
// total_rows} (GOON 1.0.0's time) and schema v5's {has_more, truncated,
// next_cursor?} (what it serves today). Pagination holds each field as an
// optional one, so both round-trip exactly, and Pagination.Schema tells
// them apart. The model accepts exactly the two published shapes, each
// with every field its schema requires:
//
//   - v2: has_more and total_rows;
//   - v5: has_more and truncated, next_cursor when there is a next page.
//
// Everything else is refused by every built-in encoder and decoder
// (Pagination.Check says why), because no server writes it and each
// reading would invent a meaning: has_more alone is neither shape (v2
// requires total_rows, v5 requires truncated; reading it as v5 would
// assert truncated:false, which the sender never said); next_cursor
// without truncated is an incomplete v5 object; total_rows beside
// truncated or next_cursor mixes two schemas, and a consumer following
// either would misread the other's field. total_rows is any int64, as
// before (schema v2's minimum 0 is the server's promise, not checked);
// next_cursor is any string, "" included, and is opaque: codecs carry it
// byte for byte where they are lossless.
//
// # Registry
//
// Codec packages register themselves in init; importing
//
//	import _ "github.com/graphwire/graphwire/codecs"
//
// registers every built-in codec. Names and aliases are case-insensitive;
// the registry is safe for concurrent use and reads never take a lock.
//
// Registries are values too: the package-level functions Register,
// Lookup, EncodeWith, DecodeWith and List work on DefaultRegistry; the
// rest are its methods (wire.DefaultRegistry().DecodeFrom(...), EncodeTo,
// LookupMediaType, NewDecoder), and NewRegistry makes one of a service's
// own, bounded by its Limits.
//
// # Reading from a stream
//
// DecodeFrom reads an io.Reader to its end, in chunks of at most 32 KiB
// and never past MaxInputBytes + 1 bytes, and decodes it as one response,
// with the codec's own errors. A Decoder (NewDecoder) reads responses one
// after another instead: in a codec whose media type is JSON it stops at
// the end of each JSON value, as encoding/json.Decoder does, so that
// several responses on one stream are read in turn and a reader that
// blocks after a response still gives it; other codecs' encodings do not
// say where they end, and are read to the end of the stream. Every codec
// decodes from the bytes of one whole response (at most MaxInputBytes):
// a stream is never held whole, one response always is.
//
// # Validity: the model's rules and each codec's
//
// A response is valid for the model when it keeps the rules every built-in
// decoder enforces, whatever the format: a valid query type
// (QueryType.Valid), group kinds node or property, a pagination of schema
// v2 or v5 (Pagination.Check), no property named "type" or "id", no
// property key twice in one node, no cell name twice in one row, and the
// Limits (nesting, sequence lengths, string and materialised sizes).
// wirecodec.Check holds all of them in one walk, and every built-in
// encoder runs it before writing, so an encoder refuses what its decoder
// would refuse. A format may refuse more on its own: JSON and TOON cannot
// carry a NaN or an infinity (GOON drops them by design), GOON needs
// identifier names, msgpack and CBOR need valid UTF-8. wirecodec.Validate
// asks every codec of a registry at once, for a service that validates a
// response before it chooses the format.
//
// # Canonical JSON
//
// The canonical JSON of a response (SPEC §4, GKG's RAW shape) is the json
// codec's, package codecs/json: its reader and its writer live there and
// nowhere else, and it is the one way to write it (json.Encode,
// AppendEncode, EncodeTo, or EncodeWith("json", r)). GraphResponse
// implements json.Marshaler and json.Unmarshaler through the codec
// registered as "json" in the default registry, so they need codecs/json
// registered, as DecodeWith does: json.Marshal writes the canonical bytes
// (a float stays 1.0, an int64 stays exact, a list is an array) and
// json.Unmarshal reads them back exactly and strictly, under that codec's
// Limits. Value.UnmarshalJSON reads one JSON value (any scalar or array,
// no object) with that codec as well. A value's own canonical JSON is
// written here, by Value.MarshalJSON, Value.String and AppendValueJSON,
// since Value is the model's.
//
// MarshalJSON has a value receiver on GraphResponse as on Value, so a
// response held by value (a struct field, a slice element, a map value)
// is written in canonical JSON as one held by pointer is, never with Go
// field names; UnmarshalJSON has a pointer receiver, as it must.
// Value.String is the value's canonical JSON too (fmt prints 1.0 for a
// float, "x" for a string; NaN, +Inf and -Inf where JSON has none), and
// Value.Text is the accessor for a string value's text.
//
// One encoding/json behaviour applies on top: json.Marshal (and a
// json.Encoder left with SetEscapeHTML(true)) rewrites '<', '>', '&',
// U+2028 and U+2029 inside strings as \u escapes. That is the same JSON
// text, decoding to the same response; for the canonical bytes themselves
// use the json codec.
//
// # Where an error points
//
// An *EncodeError's Path names the place refused in one syntax for every
// codec, wirecodec.Path's: nodes[3].properties.score,
// rows[0].g.properties.name, nodes[3].properties.tags[1],
// group_columns[1].kind.
//
// ValueOf builds a Value from ordinary Go values (nil, bools, integers of
// every kind, floats, strings, json.Number, slices and arrays of these) and
// refuses, with a *ValueOfError naming the type and the place, what a
// Value cannot hold exactly: maps, structs, a uint64 above MaxInt64, a
// json.Number integer outside int64 (never rounded to a float), and []byte,
// whose meaning (text or numbers) it cannot know.
//
// # Equality
//
// Equal compares two responses under a Fidelity (Exact or NumbersByValue);
// package wiretest gives the same rules as go-cmp options for tests.
//
// # What is not here
//
// This package is what a user of graphwire needs: the model, the
// registry, errors and limits. What only a codec's author needs is
// package wirecodec's, and implemented there: the Meter a decoder counts
// with, the checks an encoder runs (Check, Measure, CheckExpansion),
// validation over a registry, the Path of an *EncodeError, format
// detection (Sniff) and the optional interfaces the registry finds by type
// assertion (StreamEncoder, Sniffer, Checker). Package wire depends on
// none of it: its registry asks a codec for those methods by their
// signatures, and its encoding/json methods go through the registered
// json codec. One generic Opt[T] (Some) holds every optional field; the
// defaults of Limits are written on its fields and returned by
// DefaultLimits.
package wire
