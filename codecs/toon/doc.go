// Package toon is graphwire's TOON codec: it writes a wire.GraphResponse
// as one TOON document (spec v4.0, https://github.com/toon-format/spec) in
// a graph-aware layout that any TOON decoder reads, and reads such a
// document back. It registers itself as "toon" (media type text/toon).
//
// The generic TOON library, for any JSON value, is codecs/toon/toonvalue
// (Marshal, Unmarshal, FromJSON, ToJSON, the spec's conformance suite);
// this package is built on the same writer and reader (the internal
// packages toonwrite and toonread).
//
// Files: codec.go (Codec, Options, New, Default, Name, MediaType),
// encode.go (Encode, AppendEncode, EncodeTo: one writer),
// encode_nodes.go and encode_edges.go (the node groups, node_order and
// the edges table, written line by line), encode_columns.go (columns,
// group_columns and pagination, written line by line), encode_rows.go
// (rows as a table or a list, line by line) and encode_sections.go (rows
// of other shapes, built as a generic value), decode.go (the one reader),
// decode_tables.go (node groups, edges and rows read straight into the
// response inside it), decode_nodes.go and decode_sections.go (the
// conversion of generic values), decode_path.go (error paths and their
// lines), rules.go (the layout's depth and width, value tokens as wire
// values), errors.go, sniff.go, head.go (a document's header: Deltas and
// references).
//
// # The toon codec: layout of a GraphResponse
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
// # Deltas and references
//
// A delta (delta.Delta), or a response written in a delta.Session with
// some of its nodes as references to nodes sent earlier, is a document
// (delta.DocumentCodec): a header of named fields, then a response, the
// content, which is the layout above, written by AppendEncode and read by
// Decode. What the fields mean is package delta's, the same for every
// codec; this codec gives them their syntax, and AppendDocument and
// DecodeDocument (head.go) write and read them. A plain response is a
// document with no header: its text is AppendEncode's, byte for byte.
//
// Each field is one member of the document's top-level object, written
// before the content's, in the order of the header: a list of integers a
// TOON inline primitive array, "name[3]: 0,3,5" (an empty list is left
// out), a text a TOON string value, quoted by TOON's rules when it must
// be. The content follows at the same indentation, in the layout, as a
// fragment: its format_version and query_type are written only when not
// empty, and its nodes and edges only when it has some (an absent one
// reads back empty); a content with neither nodes, edges nor rows writes
// "nodes:", so that it is told from no content. Decode, which reads
// responses, still requires format_version and query_type; only
// DecodeDocument reads a fragment, after a header. A delta in which one
// node's string property
// changed (the content keeps the base's format_version and query_type):
//
//	graphwire_delta: "270670938487002172079740440993224071359"
//	nodes_changed[1]: 0
//	nodes:
//	  User[1]{id,username}:
//	    1007430,ada.lovelace
//
// The one-node delta of the corpus's lean/traversal_m takes 57 o200k
// tokens, 26 of them its header (TestOneNodeDeltaTokens).
//
// The unchanged delta is one line alone, graphwire_delta (its check, 39
// digits, is quoted because TOON reads bare digits as a number). A
// response in which the nodes MergeRequest 480003477 and User 1007430, at
// positions 1 and 2 of its nodes, were sent earlier in the session
// (sent_earlier names them by type and id, sent_earlier_at gives their
// positions; the content holds the other nodes, in order; head_test.go
// holds both texts):
//
//	sent_earlier: MergeRequest 480003477; User 1007430
//	sent_earlier_at[2]: 1,2
//	format_version: 1.2.0
//	query_type: traversal
//	nodes:
//	  User[1]{id,username}:
//	    1007431,grace
//	edges[1]{from,from_id,to,to_id,type}:
//	  User,1007431,MergeRequest,480003477,REVIEWED
//
// DecodeDocument reads a document with Decode's one reader, in one pass:
// the members of the top-level object whose names are header fields
// (delta.FieldKind) are the header, in the order read, the others the
// content (nil when there are none). A field given twice is a duplicate
// key; a value not of its field's kind (a list of integers, not empty; a
// string, not a number, true, false or null) is refused at its line, and
// lists and texts are held to MaxElements and MaxStringBytes as any TOON
// array and string. Decode and Sniff do not take a document with a
// header for a response: Decode refuses a header field as an unknown
// field and Sniff rates the document 0.
//
// # Security
//
// The generic layer's bounds (see codecs/toon/toonvalue) hold here too.
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
//     one-digit cells) takes more once decoded, its cells 48 bytes each;
//     the meter (MaxExpansion, MaxMaterializedBytes) bounds it then. A
//     rows table is metered row by row as it is read, into room sized by
//     what the meter still allows, and refused at the row that passes,
//     so a dense table decodes within 16 times its input plus 16 MiB,
//     accepted or refused (about 10 times for a table of one to five
//     one-digit ints or of node cells). Rows in list form are read as
//     TOON values and metered once the document is read: a dense list of
//     rows can take about 40 times its input before it is refused.
//   - MaxStringBytes (default 16 MiB): a longer string value, node type,
//     property key or cell name, as decoded. The layout's own keys
//     (format_version, group_columns, ...) are not response strings.
//   - MaxMaterializedBytes (default 256 MiB): a response whose canonical
//     JSON would be larger, counting a table header's field names once
//     for each row that repeats them. A table whose declared rows times
//     its names' bytes already exceed the limit is refused at its header.
//
// A document's header (DecodeDocument) is read by the same reader under
// the same limits.
//
// A leading UTF-8 byte order mark is skipped and CRLF line ends are read
// as LF. The encoder is symmetric: AppendEncode first checks r with
// wire.Limits.Check (a *wire.EncodeError naming the path and the limit,
// nothing written), then refuses text longer than MaxInputBytes. So what
// a toon Codec writes, a toon Codec with the same limits reads.
//
// One writer: AppendEncode and Codec.EncodeTo run the same layout writer,
// AppendEncode into its dst, EncodeTo into an io.Writer; neither builds
// the layout's document. EncodeTo makes two
// passes over the response, the first into a counter (so a refusal,
// MaxInputBytes included, writes nothing), the second into the writer in
// writes of about 32 KiB. The header fields, node tables (and a type's
// nodes in list form), node_order, the edges table, columns,
// group_columns and pagination are written a line at a time straight from
// the response; rows, usually small, is built as a document and written.
// Memory is a 32 KiB buffer, the rows section, and
// (only when a type's nodes are not contiguous) one index run per
// interruption; streaming traversal_xl or a 100,000-node traversal
// allocates about 60 KB. A layout error (NaN, a key the layout cannot
// carry) wins over the generic writer's depth error met earlier in the
// text.
//
// Allocations: AppendEncode grows dst once, to the length of the
// response's canonical JSON (which the text rarely passes), and keeps its
// other scratch space in a pool: an encode allocates its output and
// nothing else (none when dst has that room), except for the rows section
// and properties holding lists of lists, which go through generic values.
// One reader: Decode reads a document in one pass, by the syntax layer
// the generic library uses (internal/toonread), whatever its shape: the
// layout's sections in any order, quoted keys, tables or lists, any
// delimiter, comments and blank lines where TOON allows them. A node
// table, the edges table and a rows table are read row by row straight
// into the response, each cell decoded by the same rule as any TOON value
// and converted, with no generic value of the table built; a type's nodes
// in list form are read item by item, each item's value read into one
// object reused and converted at once; the rest (format_version,
// query_type, node_order, columns, group_columns, rows in list form,
// pagination, and a table of a shape the layout does not write) is read
// into generic TOON values and converted once the document is read. No
// part of the input is read twice. Errors are positioned where they are
// found: a syntax error at its line and column, a value of the wrong
// kind at the line of its row or member. The reader copies the strings
// of the input into a few growing chunks and takes values and node
// properties from slabs: it allocates per slab or per table, not per
// value, and a decoded response's strings keep the chunks they sit in
// alive.
//
// Output size: TOON indents each level of a nested list, so deep lists
// cost more than in JSON. For any response the encoder accepts, the text
// is at most MaxDepth+8 times the length of the response's canonical JSON
// (40 times under the default MaxDepth of 32); the worst case, a list at
// the depth limit holding many empty lists, comes to about 25 times. A
// list nested 509 deep, for which TOON once took 265 times the JSON, is
// refused.
package toon
