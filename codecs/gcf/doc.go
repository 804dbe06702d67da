// Package gcf is graphwire's gcf codec: a GraphResponse as a GCF v3.5.3
// document in the generic profile (media type application/vnd.gcf+text,
// the one the spec names), written and read with package gcfvalue. Any
// GCF generic-profile decoder reads the text; this package adds the layout
// of a response and checks it on the way back.
//
// # Layout
//
// The document is an object with these members, in this order:
//
//	format_version  string, always
//	query_type      string, always
//	nodes           the nodes (below), always
//	edges           one table, always (## edges [0] when there are none)
//	columns         table {name,function,target,property}, when the response has columns
//	group_columns   table {name,kind,node,property,entity}, when it has group columns
//	rows            the aggregation rows (below), when it has rows
//	pagination      section {has_more, total_rows, truncated, next_cursor}, when present
//
// A node is a row {type,id,<properties in stored order>}: its type, its
// id, then one column per property key. nodes is one table over the union
// of the nodes' keys in first-seen order, ~ where a node lacks a property
// and - where it holds null:
//
//	## nodes [2]{type,id,username,name}
//	User|1001|ada|Ada Lovelace
//	User|1002|bob|-
//
// unless one table would change some node's property order (a table reads
// its rows back in column order) or mixes types: then nodes is a list of
// such tables, one per run of consecutive nodes of one type that a table
// carries with their order ("## nodes [3]", "@0 [2]{type,id,...}", ...).
// Nodes keep their order either way. A list-valued property is a ^ cell
// and an attachment after its row (".labels [2]: bug,fix").
//
// Edges are one table {from,from_id,to,to_id,type,depth,path_id,step}, the
// last three columns present when some edge has them, ~ where an edge has
// not. A row of an aggregation is an object of its cells in stored order,
// rows a table (or a list of tables, as for nodes); a cell that holds a
// node is the node's object, which the table flattens into path columns
// ("u>type", "u>id", "u>name") when every row's node has the same keys and
// no list, and writes as an attachment otherwise (".u {}" and the node's
// members beneath it). Rows none of whose cells can be a column are a list
// of the rows' objects ("## rows [2]", "@0 {}", ...). Optional fields (a
// column's target, a pagination's total_rows, ...) are absent (~, or no
// line) when absent.
//
// # Fidelity
//
// wire.NumbersByValue: every response reads back as it was, property and
// cell order included, except that an integer-valued float below 2^53
// reads back as an int (GCF writes a number by value: 2.0 is "2"), and a
// float of 2^53 or more, or below 1e-6, is written in exponent form and
// reads back as the same float. Ints are exact over all of int64. A
// string reads back byte for byte; absent and null stay distinct. One
// exception to order: a property or cell whose name contains '>' cannot
// be a GCF column (spec §7.4.6.1) and travels as an attachment after its
// row, so it reads back after the node's (or row's) other members.
//
// The encoder refuses, with a *wire.EncodeError naming the place, what
// wire.Limits.Check refuses and what the layout cannot carry: a NaN or
// infinite float, a query type or group kind outside its enumeration, a
// pagination in neither of its shapes, a property named type or id, two
// properties (or cells) of one name, and text longer than MaxInputBytes.
//
// # Speed
//
// AppendEncode makes one allocation (the output), none when dst has room.
// Decode is one pass of gcfvalue's reader, the layout's tables going row
// by row into the response through its sinks (gcfvalue.Sinks), which
// read into a scratch the pooled reader keeps (up to 4,096 elements of a
// kind) and copy it out at its exact length: a decode allocates little
// beyond the input's copy and what the response holds.
//
// # Decoding and limits
//
// Decode reads with gcfvalue under the codec's Limits, widened by what
// the layout adds: MaxDepth by the four levels above a list value,
// MaxElements by a node's type and id, a table's columns up to the union
// a response within MaxElements can need (gcfvalue's MaxFields), and the
// memory gcfvalue estimates up to 32 times MaxMaterializedBytes plus 4
// KiB (its value takes more than the canonical JSON the limit counts). It
// then checks the response with wire.Limits.Check, which holds it to the
// Limits themselves. Malformed GCF gives gcfvalue's positioned
// *wire.DecodeError ("gcf: line 4, column 10: ...: count_mismatch");
// well-formed GCF that holds no response gives a *wire.DecodeError naming
// the place in the layout, at the line of its table's row when there is
// one ("gcf: line 6, column 1: nodes[3].id: expected an integer").
// gcfvalue bounds the memory of what it builds, the response the sinks
// build included (see its documentation): here to 6 times the input plus
// 6 MiB, which holds a decode's peak heap within 16 times its input plus
// 16 MiB; a document made of very short rows or cells (a few bytes each)
// past a few megabytes is refused with a limit error naming
// MaxMaterializedBytes for that reason.
//
// # Documents: deltas and references
//
// Codec implements delta.DocumentCodec: a delta, or a response whose
// nodes sent earlier are references (delta.Session), is a document of a
// few header fields then a response, the content. The fields are
// name=value lines after the first line "GCF profile=generic", before the
// content's own lines: an integer list as decimals separated by commas
// (an empty one is left out), a text as GCF writes a string value (the
// empty text is ""). The GCF line is written once. A delta that changes
// one node's name:
//
//	GCF profile=generic
//	graphwire_delta="246335714778093070011878324393808589389"
//	nodes_changed=0
//	## nodes [1]{type,id,name}
//	User|1001|ada lovelace
//
// Under a header the content is a fragment: format_version, query_type,
// nodes and edges are written only when not empty, and read back empty
// when absent; a content with nothing else writes "## nodes [0]", since a
// document without content lines is the header alone (the unchanged
// delta). A response is a document with no fields: AppendDocument then
// writes AppendEncode's bytes, and DecodeDocument reads any response as
// Decode does. The content starts at the first line that is not a field,
// a line name=value whose name is not one of the layout's members.
//
// DecodeDocument refuses, with a *wire.DecodeError at the field's line and
// column, a header package delta refuses (an unknown or repeated field, a
// malformed or empty list, a list or text past MaxElements or
// MaxStringBytes), a text bare where GCF quotes it or malformed when
// quoted, and a field line without its line end; the content is read as
// Decode reads a response, its errors positioned in the whole document.
// AppendDocument refuses the same header, and a document longer than
// MaxInputBytes. A spec §10a delta and a §9 reference row, which earlier
// versions wrote, are refused: their sections and rows are not the
// layout's.
//
// Sniff scores a first line "GCF profile=generic" 0.95 and any other GCF
// header 0.5. EncodeTo builds the text before writing it, in pieces of
// at most 32 KiB.
package gcf
