// Package json is graphwire's canonical JSON codec, registered as "json"
// with the alias "raw": exactly GKG's RAW query response (schema v2, and
// schema v5's pagination), byte for byte reproducible by any
// implementation that follows the rules below.
//
// # Shape
//
// Node objects are {"type","id",...properties} with the properties
// flattened in, in stored order. Every id (id, from_id, to_id and a node
// reference's id) is a decimal string, so int64 survives JavaScript
// readers. nodes and edges are always present; columns, group_columns, rows
// and pagination only when present in the response (an empty-but-present
// list stays, as []). A property or cell may hold a list (an extension of
// the schema, for the collect aggregation).
//
// # Encoding
//
// Compact, no trailing newline. Key order: top level format_version,
// query_type, nodes, edges, columns, group_columns, rows, pagination; node
// type, id, then properties; edge from, from_id, to, to_id, type, depth,
// path_id, step; column name, function, target, property; group column
// name, kind, node, property, entity; node reference type, id, properties;
// pagination has_more, total_rows, truncated, next_cursor (each of the
// last three only when present). Strings escape only '"', '\\' and the
// control characters U+0000–U+001F (\n \r \t \b \f, others \u00xx in lower
// case); no HTML escaping; invalid UTF-8 becomes U+FFFD. Floats are the
// shortest decimal that reads back to the same float64, in exponent form
// outside 1e-6 ≤ |x| < 1e21 as encoding/json writes it (1e+21, 5e-324),
// with ".0" added when there would be no '.', 'e' or 'E' (1.0, -0.0), so a
// float reads back as a float. NaN and ±Inf cannot be encoded (an
// *EncodeError names where), and neither can a property named type or id.
//
// # Decoding
//
// Any whitespace and key order, and a leading UTF-8 byte order mark, are
// accepted; everything else is strict. Integers go to int64 without
// passing through float64 and a number with '.', 'e' or 'E' is a float; an
// integer outside int64, a non-decimal id, a node without type or id, an
// unknown field (at the top level, in edges, columns, group columns, node
// references and pagination), a duplicate key, a node reference property
// named type or id (no property has those names), an object where a value
// belongs, a query_type or group kind outside the enumerations, and
// trailing data are errors. Errors are *wire.DecodeError with the byte
// offset, quoting at most 64 bytes of the input (see below for an example).
//
// pagination is either schema's object, keys in any order, and nothing
// else:
//
//	{"has_more":true,"total_rows":4312}                        schema v2
//	{"has_more":true,"truncated":false,"next_cursor":"eyJo"}   schema v5
//	{"has_more":false,"truncated":false}                       schema v5, last page
//
// A mix of the two, or a shape missing a key its schema requires, is
// refused (see wire.Pagination.Check), at the key that makes the mix or
// at the object; the encoder refuses the same paginations. next_cursor is
// any JSON string and comes back byte for byte.
//
// An error reads:
//
//	json: offset 57: node id: expected a decimal int64 string, found "x1"
//
// # Detection
//
// Codec implements wire.Sniffer (see Codec.Sniff): an object opening with
// the key "format_version" or "query_type" scores 0.99; a delta document
// (first key "graphwire_delta") 0, not being a response. Only the opening
// is read, so a response sniffed as json may still fail to decode.
//
// # Documents: deltas and references
//
// Codec implements delta.DocumentCodec, so it writes every delta and every
// response with references (package delta, "Documents") as one object: the
// header's fields as its first keys, in order (a list of integers as an
// array, a text as a string), then "content", the
// response in canonical JSON, absent from the unchanged delta. A
// one-node change and a response whose User 42 was sent earlier:
//
//	{"graphwire_delta":"034729650244591786432106655137043211902","nodes_changed":[0],
//	 "content":{"format_version":"1.2.0","query_type":"traversal","nodes":[
//	  {"type":"User","id":"42","username":"ada"}],"edges":[]}}
//	{"sent_earlier":"User 42","sent_earlier_at":[0],
//	 "content":{"format_version":"1.2.0","query_type":"traversal","nodes":[
//	  {"type":"MergeRequest","id":"7","title":"Fix cache"}],
//	 "edges":[{"from":"User","from_id":"42","to":"MergeRequest","to_id":"7","type":"AUTHORED"}]}}
//
// (shown on several lines; it is written compact). The content is a
// fragment: format_version and query_type are written only when they are
// not empty, nodes and edges only when they hold something, and
// DecodeDocument reads an absent one back as empty (absent ⇔ empty, so
// nothing is lost). A response is a document without a header: its bytes
// are AppendEncode's, and DecodeDocument reads it as Decode does, every
// field required. The reader refuses, with a *wire.DecodeError at its
// byte offset, a key that is not a header field, a field twice, a value
// of the wrong kind, a list past MaxElements, a text past MaxStringBytes,
// and anything after the content. delta/testdata/patch.py applies these
// deltas in Python.
//
// # Security
//
// The codec's wire.Limits (Options.Limits; the defaults in parentheses)
// bound what Decode accepts: the input's length (MaxInputBytes, 64 MiB),
// lists nested in a value (MaxDepth, 32), the elements of any one sequence
// — nodes, edges, columns, group columns, rows, the cells of a row, the
// properties of a node, the items of a list (MaxElements, 1,048,576) — a
// string, property key or cell name once decoded (MaxStringBytes, 16 MiB;
// the schema's own field names and enumerations are compared by value),
// and the canonical JSON the response would take (MaxMaterializedBytes,
// 256 MiB; JSON can grow it a little: "1e5" is 100000.0, an invalid byte
// is U+FFFD). Each is checked before the decoder allocates for what it
// bounds; past one, the error names it in Limit, gives the offset where it
// was passed, and matches errors.Is(err, wire.ErrLimit).
//
// AppendEncode refuses, with a *wire.EncodeError naming the path, exactly
// what Decode under the same Limits would refuse (wirecodec.Check), and
// an encoding longer than MaxInputBytes, so a response it writes always
// reads back.
//
// Decode never panics, allocates in proportion to the input (JSON declares
// no lengths), and finds duplicate keys in time linear in their number (a
// key repeated among more than 16 is reported, at its offset, once its
// object has been read). It does not keep the caller's slice: the scanner
// copies the input once, and the response's strings share that copy or a
// few chunks of unescaped text (see jsonvalue.Scanner); the decoder's
// scratch lists are pooled, so a response's lists cost an allocation each.
//
// Memory: a decode's peak heap stays within 16 times its input plus
// 16 MiB (codecs/memory_test.go and codecs/dense_test.go measure it); the
// densest input, a list of one-digit numbers, takes 24 bytes in memory
// for each two bytes of JSON.
package json
