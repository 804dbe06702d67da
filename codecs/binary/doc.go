// Package binary holds graphwire's two binary codecs, registered as
// "msgpack" (application/msgpack, built on github.com/vmihailenco/msgpack/v5)
// and "cbor" (application/cbor, built on github.com/fxamacker/cbor/v2). Both
// write one layout; they differ only in the encoding of its items. Importing
// the package registers both:
//
//	import _ "github.com/graphwire/graphwire/codecs/binary"
//
// Both are lossless: every response decodes to one equal to it under
// wire.Exact, with int and float kept apart, int64 exact over its whole
// range and float64 bit for bit (-0.0, infinities and NaN payloads
// included). Both are deterministic: a response always gives the same
// bytes.
//
// # Layout
//
// A response is one array of positional records; nothing carries a field
// name. Optional fields follow one presence rule: trailing absent fields
// are left out of their record, and an absent field followed by a present
// one is null.
//
//	response     = [2, format_version, query_type, nodes, edges, columns?, group_columns?, rows?, pagination?]
//	nodes        = [node ...]
//	node         = [type, id, key, value, key, value, ...]
//	edges        = [edge ...]
//	edge         = [from, from_id, to, to_id, type, depth?, path_id?, step?]
//	columns      = [column ...] | null
//	column       = [name, function, target?, property?]
//	group_columns= [group_column ...] | null
//	group_column = [name, kind, node, property?, entity?]
//	rows         = [row ...] | null
//	row          = [cell ...]
//	cell         = [name, value]                         a value
//	             | [name, type, id, key, value, ...]      a node reference
//	pagination   = [has_more, total_rows?, truncated?, next_cursor?] | null
//	value        = null | bool | integer | float | string | [value ...]
//
// The leading 2 is the layout version. A pagination follows schema v2,
// [has_more, total_rows], or schema v5, [has_more, null, truncated] or
// [has_more, null, truncated, next_cursor] (see wire.Pagination.Schema);
// any other combination is refused by the encoder and the decoder.
// has_more and truncated are bools, next_cursor a string written in full
// (it is not a name). Ids, depths, path ids, steps and total_rows are
// integers; format_version is a string.
//
// Layout 1, written before schema v5, differs only in its pagination,
// always [has_more, total_rows]: the decoder still reads it (a layout 1
// pagination of any other length is an error), so bytes stored by an
// earlier graphwire decode as they did. Since a v2 pagination has the same
// record in both layouts, only a v5 pagination needed the new version;
// the encoder writes 2 for every response, so that one number tells a
// reader which records it may meet. Any other layout version is an error
// naming it ("unsupported layout version 3 (this decoder reads 1 and 2)"). A value is written in the format's own item of its kind, so the
// six kinds of wire.Value never mix: integers in their shortest form,
// floats in the shortest form that holds them bit for bit (msgpack: float32
// or float64; CBOR: float16, float32 or float64, RFC 8949 preferred
// serialization), except NaN, always float64 so its payload survives.
// A cell is told apart by its length: two elements hold a value, an odd
// number of at least three a node reference.
//
// Every other string of the layout — query type, entity and edge types,
// property keys, column, group and cell names, function and kind — is a
// name, and names go through a per-response string table built as the
// response is written: the first occurrence of a name is written as a
// string and takes the next index (0, 1, 2, ...); later occurrences are
// written as that index, an integer. The decoder rebuilds the table as it
// reads. On the benchmark responses (a 50-user, 200-merge-request traversal
// and a 10,000-node response) the table makes the encoding 24% to 25%
// smaller (0.58x and 0.56x of canonical JSON, against 0.76x and 0.75x
// without it) and decoding faster, since each name is allocated once. The
// decoder also accepts names written in full every time.
//
// CBOR uses RFC 8949 core deterministic encoding (definite lengths,
// shortest heads and floats), NaN excepted as above. The layout has no maps,
// so map key order never arises.
//
// # Decoding
//
// Decoding is strict: the wrong kind of item anywhere, an integer outside
// int64, a name index outside the table, an unknown query type or group
// kind, a property named "type" or "id" or given twice, a string that is
// not UTF-8, byte strings, maps, msgpack extensions, CBOR tags,
// indefinite-length CBOR items, CBOR undefined, or bytes after the response
// are all errors. Every error is a *wire.DecodeError whose Offset is the
// byte offset of the offending item ("cbor: offset 42: node id: expected
// integer, found string"). The encoder refuses, with an *EncodeError, the
// responses the decoder would refuse.
//
// # Security
//
// Decode is meant for untrusted bytes. Options bound it, with defaults:
// MaxInputBytes 64 MiB, MaxNesting 32 levels of arrays, MaxElements
// 1,048,576 per array, MaxStringBytes 16 MiB. Before anything is allocated
// for an array or a string, its declared length is checked against these
// limits and against the bytes actually left in the input (every element
// takes at least one byte), so a ten-byte input declaring 2^32 elements or
// a 2^62-byte string fails at once without allocating. Memory is then
// proportional to the input actually present. msgpack is decoded item by item
// with the library's low-level Decoder; CBOR is first checked for
// well-formedness and the same limits by the CBOR library (DecMode with
// MaxNestedLevels, MaxArrayElements, tags and indefinite lengths
// forbidden) before it decodes anything. Decoding never panics.
//
// New(format, Options) builds a codec with other limits; the value is
// immutable and safe for concurrent use. Default(format) is the codec with
// default limits that the registry holds.
package binary
