// Package goon is graphwire's GOON codec (Graph Object Output Notation,
// GKG ADR 012, version 1.0.0, with the pagination header of GKG's current
// encoder), registered as "goon" with the alias "llm" and the media type
// "text/x-goon; version=1.0.0": line-oriented text in which an LLM agent
// reads a graph query result in a fraction of the tokens of JSON.
//
// The encoder is byte-exact with GKG's own on every response GKG produces;
// the decoder, which GKG does not have, reads the text back.
//
//	@header
//	query_type:traversal
//	goon_version:1.0.0
//	nodes:3
//	edges:2
//	@nodes
//	MergeRequest(1):
//	482927048 iid=18 state=merged title="chore: move skill to project scope"
//	Project(1):
//	80212187 full_path=gitlab-com/cx-engineering/webapp-scaffold name=webapp-scaffold
//	User(1):
//	5252563 name="Jordan NG" username=jordan_ng
//	@edges
//	AUTHORED(1):
//	User:5252563 --> MergeRequest:482927048
//	IN_PROJECT(1):
//	MergeRequest:482927048 --> Project:80212187
//
// # The text
//
// Every line ends in \n, there are no blank lines, and the text starts with
// @header. Sections come in a fixed order: @header; @nodes; @paths for
// path_finding, @edges otherwise (each marker written even when the section
// is empty); then @rows when the response has rows (Rows not nil).
//
// The header has one key:value per line: query_type, goon_version, nodes
// and edges (the lines that follow in @nodes and @edges, or the edges of the
// chains in @paths); then the pagination (below); and for aggregation rows (the lines
// in @rows), group_by (group descriptors name(node:Entity), name(node),
// name(property) or name(property:underlying) when the alias differs) and
// aggregations (name(fn), name(fn:target), name(fn:target.property)).
// format_version, the upstream schema's version, is not written.
//
// # Pagination
//
// After edges:, as GKG's encoders write it — 1.0.0 for schema v2's
// pagination, its current one for schema v5's:
//
//	has_more:true        when has_more is true
//	total_rows:N         when total_rows is present (schema v2)
//	truncated:true       when truncated is true (schema v5)
//	next_cursor:TOKEN    when next_cursor is present (schema v5)
//
// The token is written bare when the value rule allows (GKG's tokens,
// such as eyJoIjoiYWQyMTczMWM5MTZm, always are), otherwise quoted by the value rule ("abc=" is
// quoted, '=' not being bare-safe); it is never truncated or put in
// T-form, being opaque. Decode reads total_rows as schema v2's pagination;
// truncated or next_cursor, or has_more:true alone, as schema v5's, with
// truncated false when its line is absent (GKG's 1.0.0 encoder never wrote
// has_more without total_rows, and the current one writes exactly that for
// has_more:true, truncated:false); and none of the four as no pagination
// (a v5 pagination with everything false and no cursor writes nothing, so
// it comes back absent). total_rows beside truncated or next_cursor is an
// error at the later line, as in canonical JSON, and Encode refuses a
// pagination in neither schema's shape (see wire.Pagination.Check). A bare
// token after next_cursor: is read as it is, true, false and null
// included, since GKG writes tokens as they are; a quoted one whose text
// the encoder would write bare gains one U+001A, as a quoted value does
// (see Decoding), so the fixed point holds for cursors of any content.
//
// Nodes are grouped under Type(count): headers, one node per line: its id,
// then key=value pairs. They are sorted by type (bytewise), then id
// (numerically); aggregation keeps the server's order and then lists the
// node cells of node-kind group columns, in the order rows first reference
// them, once per (type, id). Properties come in priority classes, then
// bytewise: iid username name full_path path uuid; state status
// visibility_level; everything else; created_at updated_at merged_at
// closed_at; title description body note.
//
// Edges are sorted and de-duplicated by (path_id, step, type, from,
// from_id, to, to_id, depth) — absent path_id and step after present ones,
// absent depth before present — and grouped under REL(count): headers as
// From:id --> To:id lines, with depth=N when the edge has a depth. A path is
// one line, path=P: T:id --REL--> T:id --REL--> T:id, paths by id, edges in
// edge order; only edges with a path_id appear in @paths.
//
// Each @rows line is a row: its cells in group_by then aggregations order,
// name=value, a node cell as Type:id.
//
// # Values
//
// null and "" are left out of node rows (null is a bare null in @rows, ""
// is left out there too); bools are true and false; ints are decimal; finite
// floats are the shortest decimal that reads back to the same float, without
// an exponent (strconv.FormatFloat(f, 'f', -1, 64)); NaN and ±Inf are left
// out; a list is written as its compact canonical JSON and then treated as a
// string (a NaN or ±Inf inside it becomes null).
//
// A string is first truncated: past 200 code points under the keys body,
// description, name, note and title, past 1000 under any other, it keeps
// its first limit−3 code points and gains "..."; in a node row a
// key_len=N breadcrumb with the original length in code points follows it.
// Then a ClickHouse datetime, YYYY-MM-DD HH:MM:SS with an optional fraction
// and a real date and time, has its space replaced by T. The result is
// written bare when every byte is one of [A-Za-z0-9_\-:./@+] and it is not
// true, false or null; otherwise in double quotes, with \\ \" \n \r \t
// escaped, every other control character (U+0000–U+001F, U+007F) dropped
// and invalid UTF-8 written as U+FFFD.
//
// # Decisions where GKG's encoder is silent or differs
//
// The rules above follow graphwire's SPEC §5, which settles where ADR 012,
// the older merge request and GKG's code disagree. Beyond them:
//
//   - Names — entity and relationship types, property keys, column names,
//     functions, aliases — must be ASCII letters, digits and underscores,
//     since the line grammar is built from them; a property may not be named
//     id or type, two properties of a node may not share a key, and group
//     and metric columns may not share a name. Encode returns an
//     *wire.EncodeError otherwise (GKG's data always satisfies this).
//   - The response's own nodes are not de-duplicated (GKG does not either);
//     two with the same type and id are ordered by their row text, so that
//     the output never depends on input order. Nodes lifted from rows are
//     de-duplicated among themselves, not against the response's own.
//   - depth is part of the edge de-duplication key (GKG leaves it out).
//   - Outside path_finding, an edge's path_id and step, when present, are
//     written after depth (path_id=P step=S), since they order the edges.
//   - @paths is written even when empty, and the edges count is that of the
//     edges in @paths (GKG omits an empty @paths and counts every edge).
//   - In a node-kind group column a string is always quoted, since a bare
//     Type:id there is a node reference.
//   - A row none of whose cells is written is left out (it would be a blank
//     line), and rows: counts the lines written.
//   - A response other than an aggregation has no column declarations in
//     its header, so its rows, if any, are written with every cell, in
//     stored order.
//   - A list's truncation gets a breadcrumb like a string's.
//   - A string the encoder does not cut but which reads as cut — it ends in
//     "...", within the key's limit (at the limit when bare) — is followed
//     by the node's int property key_len, when that exceeds the limit,
//     rather than key_len standing in its place: that is a truncated value
//     as Decode reads it back (see Decoding), written as it was read.
//   - The datetime rule applies to the ClickHouse form only; other ISO 8601
//     text is written bare when its bytes allow and quoted otherwise.
//
// # Decoding
//
// Decode reads everything Encode writes and promises a fixed point:
// Encode(Decode(Encode(r))) == Encode(r), byte for byte. GOON is lossy, so
// what comes back is the response as the text shows it:
//
//   - A bare token is an int when formatting that int gives the token, a
//     float when formatting the float as above gives it (and it is finite),
//     true and false are bools, null is null (in @rows only); any other bare
//     token, and every quoted value, is a string. So the string "42" comes
//     back as the int 42, the float 1.0 as the int 1, a list as its JSON
//     text, a ClickHouse datetime in T-form.
//   - A truncated value reads back as written, and invents nothing: the
//     kept text with its "...", and its key_len=N breadcrumb as the int
//     property key_len (N, the original length in code points). The
//     encoder writes such a pair together again (see the decisions above),
//     so the fixed point holds, and a reader of the decoded response sees
//     which text was cut and by how much. A breadcrumb is a value that ends
//     in "...", has at most the key's limit in code points (exactly the
//     limit when bare) and is followed by key_len=N with N above the limit.
//     Only where the node also has a key_len property of its own, so that
//     the breadcrumb cannot be one, is the value restored instead to N code
//     points that truncate to the same text: the kept prefix, "...", then
//     '.' up to N.
//   - Quoting may have dropped control characters. Where that makes the
//     text differ from what the encoder would write for it — quoted text
//     the encoder would write bare, in T-form or not at all — the string
//     gains one U+001A (SUBSTITUTE), which quoting drops again; a value
//     restored to its length gains one per code point dropped from its
//     kept prefix.
//   - A path line names the first edge's source, then each edge's
//     relationship and target, as GKG writes it; an edge's source is not
//     written, so where it is not the previous edge's target (the edges do
//     not chain) it is lost. A:1→B:2 then C:3→D:4 on one path is written
//     path=0: A:1 --R--> B:2 --S--> D:4 and comes back as A:1→B:2,
//     B:2→D:4. Path edges come back with steps 0, 1, … in line order and
//     without depth.
//   - In an aggregation, the last node rows that match the rows' node
//     references, in first-reference order, are taken as lifted: the cells
//     point at them and they are not in Nodes. Earlier node rows are the
//     response's own.
//   - format_version and the group columns' node aliases are not written
//     and come back empty; name(property) comes back with the property set
//     to the name; a metric's property without a target is not written.
//     Absent and empty columns, group columns and property lists read back
//     the same way (absent).
//
// Decode copies its input once; the strings of the response share that copy
// (or, for quoted values with escapes, storage of the decoder's own) and the
// input may be reused as soon as Decode returns.
//
// Anything else is an error, a *wire.DecodeError naming the line and what
// was expected ("goon: line 7: unterminated quoted value"): an unknown,
// repeated or misplaced header field or section, a count that disagrees
// with the lines, a row before its Type(n): group, an unterminated quote,
// an invalid escape, a bad id, a control character, invalid UTF-8, a blank
// line, a missing final newline, a repeated key, cells out of column order,
// or lifted nodes that do not match the rows' references.
//
// # Detection
//
// Codec implements wirecodec.Sniffer, so wire.Registry.Sniff (and wirebench's -f auto)
// names goon for text whose first line is "@header" (confidence 0.99),
// which every GOON document starts with under every goon_version; any
// other line opening with '@' scores 0.4 and anything else 0. Blank lines
// and a byte order mark may come first. GOON written with another stamp
// (New(Options{Version: ...})) is recognised the same way.
//
// # Security
//
// Decode (the registered codec, and the package-level functions) applies
// the default wire.Limits; a Codec from New applies its Options.Limits.
// Past any limit it fails with a *wire.DecodeError naming the line and the
// Limits field (errors.Is(err, wire.ErrLimit)), before allocating for what
// the limit bounds:
//
//   - MaxInputBytes (default 64 MiB): the length of the text.
//   - MaxElements (default 1,048,576): the nodes:, edges: and rows: counts
//     of the header, the columns of group_by and aggregations, the
//     properties of a node row (a key_len breadcrumb read back as a
//     property counts as one; a row line may hold twice the limit in
//     key=value pairs), the cells of a row.
//   - MaxStringBytes (default 16 MiB): every value, key and name, and a
//     truncated value restored to the length its breadcrumb declares
//     (only where the node has a key_len property of its own).
//   - MaxMaterializedBytes (default 256 MiB): the response's canonical
//     JSON, counting the type of a Type(n): group once for each of its rows
//     and a node lifted from rows once for each row that references it.
//     Rows count as they are read, so the row that passes the limit is
//     the one reported; restored truncated values count before they are
//     allocated.
//   - MaxExpansion (default 8): the same canonical JSON, at most 8 times
//     the length of the text plus wirecodec.ExpansionAllowance (8 MiB). GOON
//     writes much less than it means — a value restored to the length its
//     breadcrumb declares (see Decoding), a type name written once in a
//     Type(n): line is the type of each of its rows, a lifted node is the
//     node of every cell that references it — and this is what keeps that
//     proportional to the input: 16 names restored to 16 MiB from 3.7 KB
//     are refused at the first, before it is built. Every GOON text of graphwire's corpus
//     and of GKG's reference cases materialises to at most 2.5 times its
//     length.
//   - MaxDepth (default 32) does not arise: GOON writes a list value as
//     its JSON text, which reads back as a string.
//
// The bound: what Decode allocates for materialisation its input does not
// hold is at most MaxExpansion times the input plus 8 MiB, and no
// allocation is sized by a number the input declares: a header count
// reserves no more than the rest of the input can hold at the shortest
// line of its section, nor more than the lines before the next section
// (nodes, edges, rows: one a line), nor more than the in-memory size the
// meter still allows (wirecodec.Meter.MemoryRoom), so a count the lines back is
// reserved once and exactly, and the meter refuses a dense section before
// its reserve runs out; the pairs of a line reserve no more than the line
// can hold; a row's node cells point at the lifted nodes as they are read,
// one record kept per node rather than per cell; group_by and
// aggregations are read one descriptor at a time. Under the default
// Limits the largest text of graphwire's corpus (1.9 MB) peaks under 8 MiB
// of heap, within 16 times its input plus 16 MiB. The response's own
// structures are bounded by the meter's in-memory measure (see
// wirecodec.InMemorySize): a wire.Node, Property, Edge and Cell take 48, 40,
// 112 and 48 bytes, so a text made only of the shortest lines (node rows
// "0", cells "a=0", node cells "u=T:1") is refused at MaxExpansion times
// its length plus 8 MiB in memory, and its decode peaks within 16 times
// its input plus 16 MiB (measured for 2^20 such lines: node rows "0" 13
// times, cells "a=0" 12, five cells a line 8, node cells 7, one-letter
// properties 7).
//
// Work is linear in the input: a quoted value is scanned once to find its
// end and unescaped into storage its own size; repeated keys are found by
// sorting hashes of a line's keys, not by probing a map that outgrows the
// caches; column lookups use a map once the header is wide. An error
// quotes at most 64 bytes of the input. A leading UTF-8 byte order mark is
// skipped and a line may end in CRLF; the encoder writes LF, so such text
// reaches the same fixed point.
//
// A document's header (see Deltas and references) is read under the same
// Limits: an integer list holds at most MaxElements numbers, counted
// before it is parsed, and grows by the numbers read; a text holds at most
// MaxStringBytes; the content is metered against its own length.
//
// Encoding is symmetric: AppendEncode and EncodeTo first check r with
// wire.Limits.Check (nothing is written on error, a *wire.EncodeError
// naming the path and the limit), then refuse text longer than
// MaxInputBytes, and, with the nodes lifted from rows, more node lines
// than MaxElements. A list written as JSON text reads back as a string
// whose canonical JSON escaping can double; when the response is within a
// factor two of MaxMaterializedBytes, or such a text longer than half
// MaxStringBytes, the encoder decodes its own text and refuses what Decode
// would refuse. The same holds for MaxExpansion, which Decode applies to
// the text's length: when the response's canonical JSON is more than half
// the limit for a text of the length written (a sixth, when a truncated
// value's kept prefix lost control characters to quoting, each of which
// comes back as a six-byte U+001A), the encoder decodes its text and
// refuses, naming MaxExpansion, what Decode would refuse. So whatever the
// encoder writes, Decode under the same limits reads.
//
// # Deltas and references
//
// Codec implements delta.DocumentCodec. A delta, or a response written in
// a delta.Session with the nodes its reader holds as references, is a
// document: a header of named fields (package delta gives them their
// meaning), then a response, the content. The fields are name:value
// lines at the top of the @header section, before GOON's own: an integer
// list as numbers separated by commas (delta.AppendInts), a text as
// next_cursor is written, bare when GOON's value rule lets it be and
// quoted otherwise.
//
// The content is GOON text without its "@header" line, written as a
// fragment: query_type only when not empty, no goon_version and no
// nodes:/edges: counts, and the @nodes and @edges (@paths) sections only
// when they hold something, though a content with neither nodes, edges
// nor rows writes "@nodes", so that it is told from no content. A content
// without a query type (a delta's whose result keeps the base's) is
// written in the layout it shows: an aggregation's when it has rows or
// columns (rows:, group_by: or aggregations: in the header tells the
// reader), path_finding's when each of its edges has a path id and none
// a depth (@paths tells the reader), a traversal's otherwise. Only
// DecodeDocument reads a fragment, after a header; Decode still requires
// what every response has. The delta that changes one property of one
// node (delta.AppendDelta):
//
//	@header
//	graphwire_delta:308993489190197980744170871255175690256
//	nodes_changed:1
//	@nodes
//	User(1):
//	1 name="ada lovelace"
//
// The unchanged delta is its first three lines: "@header" and its fields,
// no content. A response of three nodes of which the reader holds two
// (delta.AppendReferenced), the content the one node left and the edge:
//
//	@header
//	sent_earlier:"MergeRequest 7; User 2"
//	sent_earlier_at:0,2
//	query_type:traversal
//	@nodes
//	User(1):
//	1 name="ada lovelace"
//	@edges
//	AUTHORED(1):
//	User:1 --> MergeRequest:7
//
// A response is a document with no header: AppendDocument without fields
// writes exactly what AppendEncode writes, and DecodeDocument, which looks
// at the line after "@header" and reads any other text as Decode does,
// reads every GOON response. Decode refuses a document with fields ("document
// header field ... among GOON's header fields"), so a reader without
// package delta never takes a delta for a response.
//
// DecodeDocument refuses, with a *wire.DecodeError naming the line: a
// field twice; a value not of its kind (a list as delta.ParseInts reads it, a bare token or quoted text); a list
// of more than MaxElements numbers or a text of more than MaxStringBytes
// (errors.Is wire.ErrLimit); and whatever Decode refuses in the content,
// at its line in the whole document. A name package delta does not know
// ends the fields, and GOON's header refuses it as an unknown header
// field, as it refuses a document's field after its own. AppendDocument refuses a field name package delta does not know,
// a name twice, a value past those limits, and a text GOON's quoting does
// not carry (invalid UTF-8, a control character other than tab, CR and
// LF, which quoting drops).
//
// GOON is lossy and a patch must be exact, so delta.AppendDelta reads a
// GOON delta back and refuses one whose content GOON does not carry as it
// is (a string it truncates, a null it leaves out); a delta between two
// responses as a GOON client holds them (Decode's results) is carried.
// The one-node delta above costs 52 o200k tokens for a node of the
// corpus's lean/traversal_m: 23 in the fields, 10 in GOON's own header
// and section lines, 19 in the node's row (TestOneNodeDeltaTokens).
//
// # Versions
//
// Version is the GOON wire version the registered codec writes in every
// header, 1.0.0. The package's tests hold it together with a hash of each
// golden output under testdata/: a change to the bytes the encoder writes
// for a golden case fails them until Version is bumped.
//
// The stamp is an option: New(Options{Version: "4.0.1"}) gives a codec
// that stamps goon_version:4.0.1, GKG's current encoder, with the media
// type text/x-goon; version=4.0.1. The stamp is all it changes. GKG's
// versions since 1.0.0 changed nothing in what its encoder writes for a
// response but the pagination part of the header (2.0.0, keyset
// pagination); that pagination is written whenever the response has it,
// whatever the stamp, as GKG's current encoder does (its snapshot tests
// stamp 1.0.0 and write truncated and next_cursor). So a 1.0.0 header with
// truncated or next_cursor is well formed: it is what GKG's current
// encoder writes under 1.0.0, though its 1.0.0 encoder never did.
//
// Decode accepts goon_version MAJOR.MINOR.PATCH with major 1 to 4
// (decimal, no leading zeros) and reads every one the same way; New
// refuses a Version outside that range, so a codec never writes what it
// cannot read. Decode does not report the version it read: the response
// model has no field for it and nothing in the response depends on it; a
// caller that needs it finds it on the header's second line.
package goon
