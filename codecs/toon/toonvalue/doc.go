// Package toonvalue implements TOON, Token-Oriented Object Notation, spec v4.0
// (https://github.com/toon-format/spec): a line-oriented, indentation-based
// text form of the JSON data model that declares array lengths and field
// lists once, for LLM prompts: the generic library, for any JSON value (a
// jsonvalue.Value). It encodes and decodes any JSON value and
// agrees byte for byte with the reference implementation (npm
// @toon-format/toon 4.4.0) on encode; it passes all 516 cases of the spec's
// conformance fixtures.
//
// The GraphResponse codec registered as "toon" is the parent package,
// codecs/toon, built on this one.
//
// # Values
//
// Values are jsonvalue's: a jsonvalue.Value is nil, bool, Number, string,
// []Value or *Object. Objects keep their key order; a Number holds an int64
// or a float64 exactly, so an integer beyond 2^53 survives a round trip
// (the reference implementation, bound to JavaScript numbers, rounds it).
// jsonvalue.Equal compares two values with numbers by value. FromJSON and
// ToJSON convert JSON text to TOON and back in one call.
//
//	v, err := toonvalue.Unmarshal(text, toonvalue.DecodeOptions{})
//	out, err := toonvalue.Marshal(v, toonvalue.EncodeOptions{Delimiter: toonvalue.Tab})
//
// # Encoding
//
// Marshal, AppendMarshal and Encoder (streaming to an io.Writer) produce
// the canonical form of the spec: objects as "key: value" lines, arrays of
// primitives inline (tags[3]: a,b,c), arrays of uniform objects as tables
// (users[2]{id,name}: then one row per line, nested uniform objects as
// field groups such as {id,customer{name,country}}), objects whose values
// are uniform objects as keyed tables (users[2:]{age,city}: then
// "alice: 30,Berlin"), everything else as "- " list items. Strings are
// quoted only when spec §7.2 requires it. Numbers are written in canonical
// decimal (no exponent for 1e-6 <= |n| < 1e21, otherwise 1e-7 or 1e+21
// style, exactly as JavaScript writes them), -0 as 0, NaN and ±Inf as null.
// A Go string holding ill-formed UTF-8 is quoted with U+FFFD in place of the
// bad bytes. EncodeOptions select the delimiter (comma, tab, pipe) and the
// indentation width.
//
// # Decoding
//
// Unmarshal reads a document (root object, array or primitive, per spec
// §5), in strict mode by default: every error of spec §14 is a
// *wire.DecodeError whose message reads "toon: line N, column M: ...".
// DecodeOptions.Lenient is the spec's strict=false. Decoded numbers: an
// integer literal that fits int64 is an int64 Number, any other number the
// nearest float64 (the out-of-range policy of spec §4); a numeric token
// beyond the float64 range (1e400) is read as a string, as the reference
// does. Decoding also accepts a leading byte-order mark, CRLF line endings
// and full-line comments (a line whose text starts with '#' and whose
// indentation holds no tab). Tabs in indentation: strict mode refuses one
// in any line, a line of nothing but indentation included, as the
// reference does; lenient mode counts each tab as one level, beside the
// levels its spaces make.
//
// # Security
//
// Decoding untrusted input with Unmarshal is bounded: nesting of arrays,
// objects and field groups by DecodeOptions.MaxDepth (DefaultMaxDepth,
// 1000); a declared length [N] never sizes an allocation (preallocation
// is capped at 256 elements); a row's cells, an inline array's values and
// a header's names are counted before they are decoded, no further than
// one past what is declared; a repeated key or header name is reported
// where it is read. Parsing is linear in the line length. The peak heap of
// a decode stays within 16 times its input plus 16 MiB. jsonvalue.Parse limits nesting to 1000 levels; the encoder
// refuses values nested deeper than 10000, which also stops reference
// cycles. An error quotes at most 64 bytes of the input.
package toonvalue
