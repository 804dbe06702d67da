// Package toon implements TOON, Token-Oriented Object Notation, spec v4.0
// (https://github.com/toon-format/spec): a line-oriented, indentation-based
// text form of the JSON data model that declares array lengths and field
// lists once, for LLM prompts. It encodes and decodes any JSON value and
// agrees byte for byte with the reference implementation (npm
// @toon-format/toon 4.4.0) on encode; it passes all 516 cases of the spec's
// conformance fixtures.
//
// # Values
//
// A Value is nil, bool, Number, string, []Value or *Object. Objects keep
// their key order; a Number holds an int64 or a float64 exactly, so an
// integer beyond 2^53 survives a round trip (the reference implementation,
// bound to JavaScript numbers, rounds it). Equal compares two values with
// numbers by value.
//
//	v, err := toon.Unmarshal(text, toon.DecodeOptions{})
//	out, err := toon.Marshal(v, toon.EncodeOptions{Delimiter: toon.Tab})
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
// ParseJSON reads JSON text into an ordered, exact Value, AppendJSON writes
// one as compact JSON, and FromJSON / ToJSON convert between the two
// formats in one call.
//
// # The toon codec: layout of a GraphResponse
//
// The codec registered as "toon" (media type text/toon; Encode, Decode)
// writes a GraphResponse as one TOON document in a graph-aware layout that
// any TOON decoder reads.
//
// The document is an object with these keys, in this order:
//
//	format_version  string, always
//	query_type      string, always
//	nodes           the nodes, grouped (below), always
//	node_order      only when grouping changed the order of the nodes
//	edges           one table, always ("edges: []" when there are none)
//	columns         table, only when the response has columns
//	group_columns   table, only when the response has group columns
//	rows            aggregation rows, only when the response has rows
//	pagination      {has_more, total_rows?, truncated?, next_cursor?}, only when present
//
// pagination holds the fields of the response's pagination in canonical
// JSON's order, each optional one only when present: {has_more,
// total_rows} for schema v2, {has_more, truncated} or {has_more,
// truncated, next_cursor} for schema v5 (GKG's current response). Until
// schema v5 it was always {has_more, total_rows}, so documents written
// before then read as they did. The decoder requires has_more and refuses
// a pagination in neither schema's shape (total_rows beside truncated or
// next_cursor, next_cursor without truncated, has_more alone), as every
// codec does (see wire.Pagination.Check); the encoder refuses the same.
// next_cursor is a TOON string, quoted whenever TOON needs it, so any
// cursor comes back as it was.
//
// Nodes are grouped by type, the groups in the order in which each type
// first appears. A group is a TOON array of objects, the node's id first
// and then its properties in stored order. When every node of the type has
// the same property keys in the same order and no property holds a list,
// the group is a tabular array with one column per key:
//
//	nodes:
//	  User[2]{id,username,name}:
//	    1001,ada,Ada Lovelace
//	    1002,bob,null
//
// Otherwise the group is in list form, one "- id: ..." item per node, so
// that an absent property (no line) and a null one ("key: null") stay
// distinct and list values keep their nesting:
//
//	MergeRequest[2]:
//	  - id: 9007199254740993
//	    title: Fix the cache
//	    labels[2]: bug,"type::fix"
//	  - id: 42
//
// nodes is then an object whose keys are the type names. In one rare case
// the nodes of a type are split into several tables: when they all have
// the same keys with no lists but not all in the same order (a TOON table
// would impose the first node's order on the others). Each distinct key
// order becomes a table of its own, and nodes becomes a list of one-key
// objects, one per group ("nodes[3]:" then "- User[2]{id,a,b}:" and so on),
// since an object cannot hold the same type twice.
//
// Grouping keeps the original order when each group's nodes are contiguous
// in the response, which is how query results usually come. When they are
// not, node_order restores it: one group index (0-based, in group order)
// per node, in the original order; the k-th occurrence of index g stands
// for the k-th node of group g. For nodes User 1, MergeRequest 7, User 2:
//
//	node_order[3]: 0,1,0
//
// This costs about two o200k tokens per node: on a 250-node traversal
// shuffled at random, node_order adds 506 tokens to 9,386, where writing
// each run of same-typed nodes as a table of its own would add 1,406 (and
// 1,617 when each user is followed by its merge requests).
//
// Edges are one table with columns from, from_id, to, to_id, type, then
// depth, path_id and step, each only when some edge has it; a null cell is
// an absent value:
//
//	edges[2]{from,from_id,to,to_id,type,depth}:
//	  User,1001,MergeRequest,42,AUTHORED,null
//	  User,1002,MergeRequest,42,REVIEWED,1
//
// Aggregations: columns is a table {name,function,target,property} and
// group_columns a table {name,kind,node,property,entity}, the optional
// columns (target, property, entity) only when some entry has them, a
// null cell meaning absent. An absent list is left out; a present, empty
// one is written "columns: []". rows is an array of objects, one per row,
// a member per cell in stored order. A node-reference cell is an object
// {type, id, then its properties}; a list value is a TOON array. When
// every row has the same cells in the same order, all primitive or
// node references with the same keys in the same order, the rows are one
// table, node references flattened into field groups:
//
//	rows[2]{u{type,id,username},merged_count}:
//	  User,1243277,ghost1,65555
//	  User,35702613,bot_a,21277
//
// Otherwise rows are in list form ("- u:" ...). If rows have the same
// cells but in different orders (or node references the same keys in
// different orders), each row is instead written as a list of one-cell
// objects ("- [2]:" then "- u: ..."), which keeps every order.
//
// # The toon codec: what survives
//
// Everything, except that numbers compare by value (TOON has one number
// type): an integer-valued float such as 2.0 reads back as the integer 2,
// and -0.0 as 0. Integers keep all 64 bits, beyond 2^53 too. Strings that
// look like numbers, booleans or null ("42", "true", "null") are quoted and
// stay strings; type names, property keys and cell names may be any text
// and are quoted when needed.
//
// # Security
//
// The generic layer: decoding untrusted input with Unmarshal is bounded:
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
//   - 0 to 255 and one-byte strings decode to values boxed once.
//
// Header, row and key parsing are linear in the line length. A run of
// blank lines is kept as one range. The bound that follows, which the
// tests measure (rows of 60 million delimiters, headers of 9 million
// names, inline arrays of 10 million one-byte values, the largest corpus
// response): the peak heap of a decode stays within 16 times its input
// plus 16 MiB. (An object of millions of keys, each on a line of its
// own, comes near it: its members take 32 bytes each, and growing the
// member list copies it.) ParseJSON limits nesting to DefaultMaxDepth
// too. The encoder refuses values nested deeper than 10000 levels, which
// also stops reference cycles. Keys such as __proto__ have no special
// meaning. An error quotes at most 64 bytes of the input.
//
// The toon codec (Decode, Encode and the registered codec use the default
// wire.Limits; a Codec from New uses its Options.Limits) refuses, with a
// *wire.DecodeError naming the line and the Limits field
// (errors.Is(err, wire.ErrLimit)):
//
//   - MaxInputBytes (default 64 MiB): longer text, before reading it.
//   - MaxDepth (default 32): lists nested deeper, checked exactly on the
//     decoded values; the generic layer's nesting is bounded meanwhile by
//     2·MaxDepth+8 levels (a list inside a list takes two: its "- " item
//     and its header; the layout takes up to eight around a value).
//   - MaxElements (default 1,048,576): an array header declaring more
//     values, at the header before any row is read; an inline array
//     holding more, counted before any value is decoded; a header's field
//     group, or an object, of more than MaxElements+8 names or members
//     (the layout adds up to eight of its own), at the first one past it,
//     before its value is read; more nodes in all groups, properties in a
//     node or cells in a row. With the generic layer's bounds above, this
//     keeps a decode's peak heap within 16 times its input plus 16 MiB
//     before any error. A valid response whose text is dense (a table of
//     one-digit cells) takes more once decoded, its cells 56 bytes each
//     as wire.Values; MaxElements and MaxMaterializedBytes bound it then.
//   - MaxStringBytes (default 16 MiB): a longer string value, node type,
//     property key or cell name, as decoded. The layout's own keys
//     (format_version, group_columns, ...) are not response strings.
//   - MaxMaterializedBytes (default 256 MiB): a response whose canonical
//     JSON would be larger, counting a table header's field names once
//     for each row that repeats them. A table whose declared rows times
//     its names' bytes already exceed the limit is refused at its header.
//
// A leading UTF-8 byte order mark is skipped and CRLF line ends are read
// as LF. The encoder is symmetric: AppendEncode first checks r with
// wire.Limits.Check (a *wire.EncodeError naming the path and the limit,
// nothing written), then refuses text longer than MaxInputBytes. So what
// a toon Codec writes, a toon Codec with the same limits reads.
//
// Streaming: Codec.EncodeTo writes AppendEncode's bytes, and refuses
// what it refuses, without building the layout's document. It makes two
// passes over the response, the first into a counter (so a refusal,
// MaxInputBytes included, writes nothing), the second into the writer in
// writes of about 32 KiB. The header fields, node tables (and a type's
// nodes in list form), node_order and the edges table are written a line
// at a time straight from the response; columns, group_columns, rows and
// pagination, usually small, are each built as a document and written in
// turn. Memory is a 32 KiB buffer, the largest of those sections, and
// (only when a type's nodes are not contiguous) one index run per
// interruption; streaming traversal_xl or a 100,000-node traversal
// allocates about 60 KB. A document error (NaN, a key the layout cannot
// carry) wins over the generic encoder's depth error met earlier in the
// text, as in AppendEncode, which builds the document before encoding it.
//
// Output size: TOON indents each level of a nested list, so deep lists
// cost more than in JSON. For any response the encoder accepts, the text
// is at most MaxDepth+8 times the length of the response's canonical JSON
// (40 times under the default MaxDepth of 32); the worst case, a list at
// the depth limit holding many empty lists, comes to about 25 times. A
// list nested 509 deep, for which TOON once took 265 times the JSON, is
// refused.
//
// # Reference comparison and benchmarks
//
// reference_test.go checks this implementation against the reference one,
// run under node (see testdata/README.md); it needs node and npm, and is
// skipped without them unless CI is set. testdata/bench-reference.mjs
// times the reference implementation on the benchmark document:
//
//	go test -run TestWriteBenchDocument -bench-doc /tmp/doc.json ./codecs/toon
//	node codecs/toon/testdata/bench-reference.mjs /tmp/doc.json
package toon
