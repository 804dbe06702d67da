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
// Registries are values too: the package-level functions (Register,
// Lookup, EncodeWith, ...) work on DefaultRegistry, and NewRegistry makes
// one of a service's own, bounded by its Limits.
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
// decoder enforces, whatever the format: a query type of QueryTypes, group
// kinds node or property, a pagination of schema v2 or v5, no property
// named "type" or "id", no property key twice in one node, no cell name
// twice in one row, and the Limits (nesting, sequence lengths, string and
// materialised sizes). Limits.Check holds all of them in one walk, and
// every built-in encoder runs it before writing, so an encoder refuses
// what its decoder would refuse. A format may refuse more on its own: JSON
// and TOON cannot carry a NaN or an infinity (GOON drops them by design),
// GOON needs identifier names (a type "Merge Request" is refused by goon
// only), msgpack and CBOR need valid UTF-8.
//
// Registry.Validate (and Validate, on the default registry) asks both
// questions at once: it runs Limits.Check under the registry's Limits and
// each codec's own encoder checks (CheckEncode: a codec's CheckEncode
// method when it is a Checker, else its encoder into a discarding
// writer), and returns a *ValidationError naming the broken rule and every
// codec that refuses, each with its path. A service serving several
// formats validates once, before choosing the format.
//
// # Format detection
//
// Sniff names the registered codecs some bytes may be encoded in, most
// likely first, each with a confidence from 0 to 1, from the first
// SniffLen bytes. The registry knows no format itself: each codec judges
// its own encoding by implementing Sniffer, an optional interface found by
// type assertion, and a codec that does not implement it is never named.
// So the rule for a format lives with its codec and changes with it (the
// binary codecs read every layout version their decoder reads), and a
// codec of one's own takes part exactly as the built-in ones do: register
// it, give it a Sniff method (see the Sniffer example). SniffText does the
// common first step of text formats: it skips a byte order mark and
// leading whitespace and tells text from binary.
//
// Confidences follow one convention, which wirebench's -f auto relies on
// (it takes the first guess at 0.5 or more): 0.9 or more when the bytes
// open with the format's own signature, lower for weaker signs that
// another format may share, 0 when the bytes cannot be the format. The
// built-in codecs' rules (each codec's Sniff method documents its own):
// canonical JSON, an object whose first key is "format_version" or
// "query_type" (0.99); GOON, an "@header" first line (0.99); graph TOON, a
// "format_version: " or "query_type: " first line (0.95); msgpack and
// CBOR, the binary layout's opening array with a layout version the
// decoder reads, a format version and a query type (0.95).
//
// # Canonical JSON
//
// The canonical JSON of a response (SPEC §4, GKG's RAW shape) is defined
// here, with the model: AppendJSON and DecodeJSON implement it, codecs/json
// registers it, and GraphResponse and Value implement json.Marshaler and
// json.Unmarshaler with it: json.Marshal writes the canonical bytes (a
// float stays 1.0, an int64 stays exact, a list is an array) and
// json.Unmarshal reads them back exactly, strictly, under the default
// Limits. Value.UnmarshalJSON takes any JSON scalar or array and refuses
// objects. EncodeJSONTo streams the same bytes to an io.Writer.
//
// MarshalJSON has a value receiver on GraphResponse as on Value, so a
// response held by value (a struct field, a slice element, a map value)
// is written in canonical JSON as one held by pointer is, never with Go
// field names; UnmarshalJSON has a pointer receiver, as it must.
// Value.String is the value's canonical JSON too (fmt prints 1.0 for a
// float, "x" for a string; NaN, +Inf and -Inf where JSON has none), and
// Value.Text is the accessor for a string value's text.
//
// # Where an error points
//
// An *EncodeError's Path names the place refused in one syntax for every
// codec, the Path type's: nodes[3].properties.score,
// rows[0].g.properties.name, nodes[3].properties.tags[1],
// group_columns[1].kind. The examples of Path and EncodeError print them.
//
// One encoding/json behaviour applies on top: json.Marshal (and a
// json.Encoder left with SetEscapeHTML(true)) rewrites '<', '>', '&',
// U+2028 and U+2029 inside strings as \u escapes. That is the same JSON
// text, decoding to the same response; for the canonical bytes themselves
// use AppendJSON, EncodeJSONTo or a json.Encoder with SetEscapeHTML(false).
//
// The reader and writer live in this package, not in codecs/json, because
// MarshalJSON and UnmarshalJSON need them and codecs/json imports wire: Go
// forbids the cycle. Their files: json_encode.go (the writer),
// json_scan.go (the scanner: objects, arrays, strings, error builders),
// json_decode.go (the response's schema: which keys, which types),
// json_decode_values.go (values, numbers, ids) and json_methods.go (the
// encoding/json methods and EncodeJSONTo). Escaping, the string scanner,
// floats, integers and error excerpts come from internal/textwire, the
// text toolkit every text codec shares.
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
package wire
