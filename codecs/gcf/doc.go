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
// no list, and writes as an attachment otherwise. Optional fields (a column's target, a
// pagination's total_rows, ...) are absent (~, or no line) when absent.
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
// AppendEncode writes the document straight from the response into one
// pooled buffer and appends it to dst: one allocation per encode (the
// output), none when dst has room. It writes exactly the bytes of the
// generic path (the document's generic value written by gcfvalue), which
// it leaves the few shapes it does not write itself to (a property or cell
// name with '>', a node cell a rows table cannot flatten, rows without
// cells) and every refusal, so the errors are the generic path's too.
//
// Decode reads a document in the form AppendEncode writes straight into
// the response: its strings share one copy of the input (a quoted string
// with escapes is its own), node properties and row cells are cut from
// slabs, and it bounds what it builds to 4 times the input plus 4 MiB.
// At the first departure from that form (another writer's choices, a
// malformed line, a count past MaxElements, that memory bound) it leaves
// the document to the generic path, which reads any GCF document and gives
// every error; what the reader accepts, the generic path reads to the same
// response (tests and a fuzz target hold them to it).
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
// the place in the layout ("gcf: offset 0: nodes[3].id: expected an
// integer"). gcfvalue bounds the memory of the value it builds (see its
// documentation): here to 6 times the input plus 6 MiB, since the value
// is held while the response is read from it (a row's cell takes half as
// much again as the member it is read from), which holds a decode's peak
// heap within 16 times its input plus 16 MiB; a document made of very
// short rows or cells (a few bytes each) past a few megabytes is refused
// with a limit error naming MaxMaterializedBytes for that reason, unless
// it is in the encoder's form and the response it holds stays within the
// reader's bound (see Speed).
//
// # Other implementations
//
// gcfvalue's differential test checks every corpus response's document
// against the TypeScript SDK @blackwell-systems/gcf 2.5.2: the SDK writes
// the value a document decodes to as the same bytes, and both decoders
// read it to one value, except for an integer beyond ±2^53 (a corpus id),
// which the SDK, holding it as a JavaScript number, rounds to a double (a
// departure from spec §2.3.2; see gcfvalue's documentation).
//
// # Session references
//
// Codec implements delta.SessionCodec, GCF §9's session references in the
// generic profile. A node sent earlier in the session is written as a
// reference: its row in its nodes table holds its type and id only,
// followed by two spaces and GCF's marker "# previously transmitted", and
// the header line ends in " session=true":
//
//	GCF profile=generic session=true
//	format_version=1.2.0
//	query_type=traversal
//	## nodes [2]{type,id,username,name}
//	User|1001  # previously transmitted
//	User|1002|bob|Bob
//	## edges [1]{from,from_id,to,to_id,type}
//	User|1001|User|1002|KNOWS
//
// A reference stays in place among the nodes, so a model reads its
// identity next to the edges that use it. Its row has two cells where a
// node's row has one per column, and its id cell is an integer only with
// the marker taken off: a node without properties ("User|1001|~|~", or
// "User|1001" in a {type,id} table) and a property whose value ends in
// the marker (a third cell) are never read as references. References are
// read only in a document whose header has session=true; without
// references AppendReferenced writes exactly what AppendEncode writes. A
// referenced node takes part in the grouping of nodes into tables as a
// node without properties.
//
// Where graphwire departs from §9: GCF's graph profile names a symbol by
// a session-local id ("@12  # previously transmitted") that the session
// assigns and keeps; graphwire's identity is the node's (type, id), which
// the reference writes itself, so a reference needs no id table and reads
// the same in any document. The reader's delta.Session, not the document,
// says which nodes were sent earlier and gives their properties back
// (Session.Resolve). §9's bare reference is a line of the graph profile;
// here it is a row of the generic profile's node table.
//
// Security: a reference can only stand for a node of the type and id it
// writes, with no properties, at its place among the nodes; the decoder
// reads it under the same Limits as any row and gives its position. It
// cannot make the decoder look anything up or reach another document:
// resolving is the caller's Session, which refuses a reference it does
// not hold (delta.ErrUnresolved). DecodeReferenced rewrites each reference
// row into a row of absent cells before reading, at most 4 times the
// input plus 1 MiB (and MaxInputBytes) in all, refusing more with a limit
// error; a malformed reference is not a reference, and the row it is in
// gives Decode's positioned error. AppendReferenced checks the whole
// response with wire.Limits.Check; the properties of the referenced nodes
// are not written, so what only the layout refuses (a NaN, a string that
// is not UTF-8) is not checked in them.
//
// # Deltas
//
// Codec implements delta.Codec with GCF's own generic delta (spec §10a),
// written and read by gcfvalue: the node set keyed by an identity column
// node_key ("Type:id", "#k" added for the k-th listing of a node the base
// lists more than once), ## added and ## changed tables of node rows
// (node_key, type, id, then the properties) and ## removed, the
// identities alone:
//
//	GCF profile=generic tool=graphwire delta=true base_root=sha256:… new_root=sha256:… key=node_key query_type=search added_at=1
//	## added [1]{@node_key,type,id,name}
//	User:3|User|3|cy
//	## changed [1]{@node_key,type,id,name}
//	User:1|User|1|ada lovelace
//	## removed [1]{@node_key}
//	User:2
//
// and "GCF profile=generic tool=graphwire unchanged=true pack_root=sha256:…"
// when nothing changed. Where GCF's delta cannot say what a graphwire
// delta must, these are the choices:
//
//   - base_root, new_root and pack_root are graphwire's fingerprints of
//     the whole responses (delta.Fingerprint), not gcf-pack-root-v1 of
//     the node set: delta.Patch checks the whole response, order, edges
//     and header included, which a pack root of one keyed set does not
//     name. A GCF consumer that computes its own pack root finds no match
//     and asks for the full payload, as §10.2 tells it to. The count= of
//     §10a.4 is left out of the unchanged payload: a delta does not know
//     the base's size.
//   - query_type, format_version (when not empty), rows=present (the
//     result has aggregation rows, none of them changed) and added_at
//     are extra header fields. GCF appends added rows at the end (set
//     semantics); graphwire keeps order, so the added nodes must form one
//     run in the result, starting at added_at.
//   - What §10a has no section for is refused with a *wire.EncodeError
//     (send the full response): moved nodes, added nodes that are not one
//     run, edges, aggregation rows and header fields (columns, group
//     columns, pagination). Of the corpus re-queries with 1, 5 or 20% of
//     the nodes changed, every one but the aggregations' is carried.
//   - A table keeps one column order, so the columns are the properties
//     in an order that agrees with every row's own; nodes whose property
//     orders contradict (a before b in one, b before a in another) are
//     refused. GCF writes numbers by value, so AppendDelta reads its text
//     back and refuses a delta that does not come back exactly (a float
//     2.0); a delta between two responses as gcf reads them is carried.
//
// DecodeDelta reads under the codec's Limits, like Decode. Sniff rates a
// delta or unchanged payload 0 and SniffDelta 0.99.
//
// Sniff scores a first line "GCF profile=generic" 0.95 and any other GCF
// header 0.5. EncodeTo builds the text before writing it (a table needs
// the union of its keys before its first row), then writes it in pieces
// of at most 32 KiB.
package gcf
