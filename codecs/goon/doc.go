// Package goon is graphwire's GOON codec (Graph Object Output Notation,
// GKG ADR 012, version 1.0.0, with the pagination header of GKG's current
// encoder), registered as "goon" with the alias "llm" and the media type
// "text/x-goon; version=1.0.0": line-oriented text in which an LLM agent
// reads a graph query result in a fraction of the tokens of JSON. The
// encoder is byte-exact with GKG's own on every response GKG produces; the
// decoder, which GKG does not have, reads the text back.
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
// The rules are graphwire's SPEC §5 (ADR 012 and the decisions listed
// there): sections @header, @nodes, @edges (@paths for path_finding), then
// @rows when the response has rows; nodes grouped under Type(count): as
// "id key=value ...", edges under REL(count): as "From:id --> To:id[
// depth=N]", a path as one line "path=P: T:id --REL--> T:id", a row as
// name=value cells, a node cell as Type:id; strings truncated with a
// key_len=N breadcrumb, ClickHouse datetimes in T-form, then bare or
// quoted. format_version is not written. The pagination follows edges:,
// as GKG's encoders write it (has_more:true, total_rows:N, truncated:true,
// next_cursor:TOKEN, the token bare when the value rule allows, never
// truncated). Decode reads total_rows as schema v2's pagination;
// truncated, next_cursor, or has_more alone as schema v5's; total_rows
// beside a v5 field is an error at the later line.
//
// # Decisions where GKG's encoder is silent or differs
//
//   - Names (types, keys, column names, functions, aliases) are ASCII
//     letters, digits and underscores; group and metric columns may not
//     share a name; Encode returns a *wire.EncodeError otherwise.
//   - The response's own nodes are not de-duplicated (two of one type and
//     id are ordered by their row text); lifted nodes are, among
//     themselves.
//   - depth is part of the edge key; outside path_finding an edge's
//     path_id and step follow depth. @paths is written even when empty,
//     and edges: counts its edges.
//   - In a node-kind group column a string is always quoted (a bare Type:id
//     is a node reference). A row with no cell written is left out, and
//     rows: counts the lines; rows outside an aggregation are written with
//     every cell, in stored order.
//   - A list's truncation gets a breadcrumb like a string's; only the
//     ClickHouse form gets the datetime rule.
//   - A string that reads as cut (it ends in "...", within the key's limit,
//     at the limit when bare) is followed by the node's int property
//     key_len when that exceeds the limit: a truncated value as Decode
//     reads it back, written as it was read.
//
// # Decoding
//
// Decode reads everything Encode writes and promises a fixed point:
// Encode(Decode(Encode(r))) == Encode(r), byte for byte. What comes back
// is the response as the text shows it:
//
//   - A bare token is an int or a float when formatting that number gives
//     the token, true and false are bools, null is null (in @rows only);
//     anything else, and every quoted value, is a string ("42" comes back
//     as 42, 1.0 as 1, a list as its JSON text).
//   - A truncated value reads back as written, its key_len=N breadcrumb as
//     the int property key_len. Only where the node also has a key_len
//     property of its own is the value restored to N code points: the kept
//     prefix, "...", then '.' up to N.
//   - Where quoting dropped control characters so that the text differs
//     from what the encoder would write for it (bare, T-form, or nothing),
//     the string gains one U+001A, which quoting drops again.
//   - A path line names only the first edge's source: edges that do not
//     chain come back chained, with steps 0, 1, … and without depth.
//   - In an aggregation, the last node rows that match the rows' node
//     references, in first-reference order, are the lifted nodes.
//   - format_version and group columns' node aliases come back empty;
//     name(property) comes back with the property set to the name.
//
// Anything else is a *wire.DecodeError naming the line ("goon: line 7:
// unterminated quoted value"): an unknown, repeated or misplaced header
// field or section, a count that disagrees with the lines, a row before
// its group, a bad quote, escape or id, a control character, invalid
// UTF-8, a blank line, a missing final newline, a repeated key, cells out
// of column order, lifted nodes that do not match the references.
//
// # Detection
//
// Codec implements wirecodec.Sniffer: a first line "@header" scores 0.99,
// another line opening with '@' 0.4, anything else 0 (blank lines and a
// byte order mark may come first).
//
// # Security
//
// Decode applies the codec's wire.Limits (the defaults for the package
// functions). Past a limit it fails with a *wire.DecodeError naming the
// line and the field (errors.Is(err, wire.ErrLimit)), before allocating
// for what it bounds:
//
//   - MaxInputBytes (64 MiB): the length of the text.
//   - MaxElements (1,048,576): the nodes:, edges: and rows: counts, the
//     columns, the properties of a node row (twice as many pairs with
//     breadcrumbs), the cells of a row, a document's integer list.
//   - MaxStringBytes (16 MiB): every value, key, name and document text,
//     and a truncated value restored to its declared length.
//   - MaxMaterializedBytes (256 MiB): the response's canonical JSON,
//     counted as rows are read, a group's type once for each of its rows
//     and a lifted node once for each reference.
//   - MaxExpansion (8): that JSON at most 8 times the text plus 8 MiB, so
//     what GOON writes once and means many times (restored values, group
//     types, lifted nodes) stays proportional to the input.
//   - MaxDepth (32) does not arise: a list reads back as a string.
//
// No allocation is sized by a number the input declares: a count reserves
// no more than the rest of the input holds at the shortest line, the
// lines before the next section, and the meter's room. A decode's peak
// heap stays within 16 times its input plus 16 MiB. Work is linear: a
// quoted value is scanned once, repeated keys are found by sorting hashes,
// column lookups use a map once the header is wide. An error quotes at
// most 64 bytes. Decode copies its input once; the strings share that
// copy. A byte order mark is skipped and CRLF accepted.
//
// Encoding is symmetric: AppendEncode and EncodeTo refuse what
// wire.Limits.Check refuses, text longer than MaxInputBytes, and more
// node lines than MaxElements; near the limits, the encoder decodes its
// own text and refuses what Decode would refuse.
//
// # Deltas and references
//
// Codec implements delta.DocumentCodec. A document's fields are name:value
// lines at the top of @header, before GOON's own: an integer list as
// numbers separated by commas, a text as next_cursor is written. The
// content is a fragment: no goon_version or counts, query_type only when
// set, a section only when it holds something ("@nodes" when nothing
// does). A content without a query type takes the layout it shows: an
// aggregation's when it has rows or columns, path_finding's when every
// edge has a path id and none a depth. The delta that changes one
// property of one node:
//
//	@header
//	graphwire_delta:308993489190197980744170871255175690256
//	nodes_changed:1
//	@nodes
//	User(1):
//	1 name="ada lovelace"
//
// Decode refuses a document's fields; DecodeDocument refuses a field twice,
// a value not of its kind or past the limits, and what Decode refuses in
// the content, at its line in the whole document. AppendDocument refuses
// what DecodeDocument would, and a text GOON's quoting does not carry.
//
// # Versions
//
// Version, 1.0.0, is the goon_version the registered codec stamps;
// New(Options{Version: "4.0.1"}) stamps GKG's current encoder's, and
// nothing else changes (GKG's versions since differ only in the pagination
// header). Decode reads MAJOR.MINOR.PATCH with major 1 to 4 alike.
package goon
