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
// jsonvalue.Equal compares two values with numbers by value.
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
// and full-line comments.
//
// # JSON
//
// jsonvalue.Parse reads JSON text into an ordered, exact Value,
// jsonvalue.Append writes one as compact JSON, and FromJSON / ToJSON
// convert between the two formats in one call.
//
// # Inside
//
// The writer and the reader live in codecs/toon/internal/toonwrite and
// codecs/toon/internal/toonread, shared with the GraphResponse codec: the
// codec writes its layout line by line through toonwrite.Writer (the same
// writer Marshal uses) and reads with the reader Unmarshal uses, under
// wire.Limits, which this package does not apply, its node groups, edges
// and rows taken row by row by the codec as the reader reads them
// (toonread.Sinks). Quoting and unescaping are internal/textwire's TOON
// rules.
//
// # Security
//
// Decoding untrusted input with Unmarshal is bounded:
// nesting of arrays, objects and header field groups is limited to
// DecodeOptions.MaxDepth (DefaultMaxDepth, 1000) levels; a declared length
// [N] is only compared against what is present and never sizes an
// allocation (preallocation is capped at 256 elements); every allocation
// is proportional to the input, and no list of a line's parts is built
// before it is checked:
//
//   - a row's cells are counted before any is decoded, and the counting
//     stops at the first cell past the header's fields, which the error
//     names;
//   - an inline array's cells are counted, in strict mode no further than
//     one past its declared length, before its values are allocated;
//   - a header's field names are kept in a flat list of 24 bytes a name,
//     sized once from the delimiters left on its line;
//   - a repeated header name, or a repeated key of an object, is reported
//     where it is read, before its value: among the first names by
//     comparing them, past them through an index of the names (8 to 24
//     bytes a name, in time per name that does not grow with the header
//     or object);
//   - 0 to 255 and one-byte strings decode to values boxed once; other
//     strings are copied into chunks that double up to the input's length
//     (about twice the input in all, at most), and strings, numbers and
//     table rows are boxed from slabs of up to 256, so a decode allocates
//     per slab, not per value; a decoded string keeps its chunk alive.
//
// Header, row and key parsing are linear in the line length. A run of
// blank lines is kept as one range. The bound that follows, which the
// tests measure (rows of 60 million delimiters, headers of 9 million
// names, inline arrays of 10 million one-byte values, the largest corpus
// response): the peak heap of a decode stays within 16 times its input
// plus 16 MiB. (An object of millions of keys, each on a line of its
// own, comes near it: its members take 32 bytes each, and growing the
// member list copies it.) jsonvalue.Parse limits nesting to 1000 levels
// too. The encoder refuses values nested deeper than 10000 levels, which
// also stops reference cycles. Keys such as __proto__ have no special
// meaning. An error quotes at most 64 bytes of the input.
//
// # Reference comparison and benchmarks
//
// reference_test.go checks this implementation against the reference one,
// run under node (see testdata/README.md); it needs node and npm, and is
// skipped without them unless CI is set. testdata/bench-reference.mjs
// times the reference implementation on the benchmark document:
//
//	go test -run TestWriteBenchDocument -bench-doc /tmp/doc.json ./codecs/toon/toonvalue
//	node codecs/toon/toonvalue/testdata/bench-reference.mjs /tmp/doc.json
package toonvalue
