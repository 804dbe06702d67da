// Package binary holds graphwire's two binary codecs, registered as
// "msgpack" (MessagePack) and "cbor" (CBOR, RFC 8949). Both write one
// layout and differ only in the encoding of its items. Importing the
// package registers both:
//
//	import _ "github.com/graphwire/graphwire/codecs/binary"
//
// Both are lossless (every response decodes to one equal to it under
// wire.Exact: int and float kept apart, int64 exact, float64 bit for bit,
// -0.0, infinities and NaN payloads included) and deterministic.
//
// # Layout
//
// A response is one array of positional records; nothing carries a field
// name. Trailing absent optional fields are left out of their record; an
// absent field followed by a present one is null.
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
// The leading 2 is the layout version. A pagination is schema v2's,
// [has_more, total_rows], or schema v5's, [has_more, null, truncated,
// next_cursor?] (wire.Pagination.Schema); any other is refused both ways.
// Layout 1, written before schema v5, differs only in its pagination,
// always [has_more, total_rows]; Decode still reads it. Any other layout
// version is an error naming it ("unsupported layout version 3 (Decode
// reads 1 and 2)").
//
// A value is written in its format's item of its kind: integers in their
// shortest form, floats in the shortest form that holds them bit for bit
// (msgpack float32 or float64; CBOR float16, float32 or float64, RFC 8949
// preferred serialization), NaN always as float64 so its payload
// survives. A cell is told apart by its length: two elements hold a value,
// an odd number of at least three a node reference. CBOR follows RFC
// 8949 core deterministic encoding (definite lengths, shortest heads).
//
// Every other string — query type, entity and edge types, property keys,
// column, group and cell names, function and kind — is a name, written
// through a per-response string table: its first occurrence as a string,
// which takes the next index (0, 1, 2, ...), later ones as that index.
// The decoder rebuilds the table as it reads, and also accepts names
// written in full. The table makes the benchmark responses about 25%
// smaller (0.56x–0.58x of canonical JSON) and faster to decode.
//
// AppendEncode allocates once, its output; EncodeTo writes chunks of
// about 32 KiB.
//
// # Decoding
//
// Both formats are read item by item in place (decode_source.go), without
// a library decoder or an intermediate tree. Decoding is strict: the
// wrong kind of item anywhere, an integer outside int64, a name index
// outside the table, an unknown query type or group kind, a property named
// "type" or "id" or given twice, a string that is not UTF-8, byte
// strings, maps, msgpack extensions, CBOR tags, indefinite lengths, CBOR
// undefined, or bytes after the response are errors. Every error is a
// *wire.DecodeError whose Offset is the byte offset of the offending item
// ("cbor: offset 42: node id: expected integer, found string"). The
// encoder refuses what the decoder would refuse, with a *wire.EncodeError
// whose Path is the wirecodec.Path of the element
// (nodes[1].properties.tags[2]).
//
// # Security
//
// Decode is meant for untrusted bytes. The codec's wire.Limits
// (Options.Limits; defaults in parentheses) bound the input's length
// (MaxInputBytes, 64 MiB); lists nested in a value (MaxDepth, 32); the
// elements of any one sequence — nodes, edges, columns, group columns,
// rows, cells, properties, list items (MaxElements, 1,048,576); a string,
// name or key (MaxStringBytes, 16 MiB); and the canonical JSON of the
// decoded response (MaxMaterializedBytes, 256 MiB), which counts every
// use of a table name in full, so a 64 KiB name referenced 200,000 times
// is refused in time proportional to the input. Past a limit the
// *wire.DecodeError names it in Limit (errors.Is(err, wire.ErrLimit)).
//
// Before anything is allocated for an array or a string, its declared
// length is checked against the bytes left (an element takes a byte at
// least, and open arrays' undeclared elements are counted) and against
// bounds derived from the Limits (arrays MaxDepth + 4 deep, 2×MaxElements
// + 3 items, strings MaxStringBytes or 64 bytes), so a ten-byte input
// declaring 2^32 elements fails at once without allocating.
//
// A decode's peak heap stays within 16 times its input plus 16 MiB. The
// decoded response is held by wirecodec.Meter to MaxExpansion (8) times
// the input plus 8 MiB in memory; a sequence whose declared elements
// cannot fit under that bound is refused at its head, naming MaxExpansion,
// one that fits is allocated whole, and small sequences share chunks that
// grow four-fold up to 8,192 elements, never past the bytes left. Strings
// are substrings of one copy of the input. A key repeated in a node of
// many properties is found by sorting hashes of the keys.
//
// # Documents: deltas and references
//
// A document (delta.DocumentCodec) is a map: the header's field names in
// order, each with its value (an IntList an array of integers, a Text a
// string), then "content", whose value is the content as AppendEncode
// writes it (left out when there is none). A response with no header is
// written as AppendEncode writes it, an array, so DecodeDocument tells the
// two apart by the first byte. A one-node delta, in RFC 8949 diagnostic
// notation:
//
//	{"graphwire_delta": "122341154542354260606422251279106206365", "nodes_changed": [1],
//	 "content": [2, "", "", [["User", 2, "username", "bobby"]], []]}
//
// DecodeDocument refuses, at the offending item's offset: a map of no
// entries, more than 17, or of indefinite length; a key that is not a
// string; a field delta.FieldKind does not know, or given twice; a value
// not of its field's kind; a list longer than MaxElements or a text longer
// than MaxStringBytes (errors.Is(err, wire.ErrLimit)); "content" first or
// not last; bytes after a document without content; and what Decode
// refuses in the content. Lengths are checked before anything is
// allocated. AppendDocument refuses what DecodeDocument would.
//
// # Media types
//
// application/vnd.msgpack and application/cbor, each with "layout=graphwire;
// version=2", so a client can refuse a layout version it does not know.
//
// # Detection
//
// Each Codec implements wirecodec.Sniffer: the layout's opening as the
// encoder writes it — the response's array head (one byte, different in
// each format), a layout version Decode reads in its shortest form,
// format_version as a string of at most 64 printable ASCII bytes, and a
// query type of wirecodec.QueryTypes — scores 0.95; an opening cut off,
// or with a longer format_version or an unknown query type, 0.3; anything
// else 0 (a document's map among them).
package binary
