// Package gcfvalue reads and writes GCF, the Graph Compact Format (spec
// v3.5.3), in its generic profile: any JSON value, as text built to cost an
// LLM few tokens. It also computes GCF's pack_root and writes, reads and
// applies its generic delta; and it reads and writes the graph profile
// (code symbols and their edges, see Graph).
//
// # Values
//
// A value is a jsonvalue.Value (see Value): nil, bool, jsonvalue.Number, string,
// []jsonvalue.Value or *jsonvalue.Object, whose members keep their order. Numbers
// are exact in GCF's numeric domain (spec §2.3.2): an integer literal
// reads as an exact int64, any other number as the nearest float64, and a
// literal outside int64 (or past float64) is an error of KindOutOfRange,
// never an approximation. ParseJSON reads JSON into a Value under the same
// rule. The encoder writes numbers canonically (§2.3.1): an int64 in plain
// digits, a float64 in plain decimal when 1e-6 <= |x| < 2^53 and in
// exponent form otherwise (1e+21, 4e-7), -0 as 0; it refuses NaN and ±Inf.
//
// # Encoding
//
// Marshal, Encode and AppendEncode write the canonical form of spec §7:
// key=value lines and ## sections for objects; a keyed table ## [N:]{key,...}
// for an object of two or more objects (§7.2a); inline name[N]: a,b for an
// array of scalars; a table ## name [N]{fields} over the ordered union of
// the keys for an array of objects (§7.4), with - for null and ~ for
// absent; expanded @i items for any other array. In a table:
//
//   - A field whose values are objects of one shape is flattened into path
//     columns "f>k" (§7.4.6). Beyond the spec's conditions, it is not
//     flattened when one of its objects, or of their nested objects, has
//     no members or only null leaves: its cells would read back as null.
//   - Any other nested value is a ^ cell and a .field attachment after the
//     row, whose row then takes its @i prefix. A table attachment repeats
//     no field declaration already given by the same field in an earlier
//     row (the shared array schema, §7.4.5.3).
//   - Inline object schemas (^{fields}, §7.4.5.1) are read but never
//     written: flattening covers the same objects in fewer tokens.
//   - A field whose name contains '>' is no column: it travels as a
//     ."name" attachment after the row (§7.4.6.1 rule 4), a scalar as
//     ."name" =value.
//
// A string is quoted when spec §2.4 requires it, with two choices where
// the spec is open: a string holding '|' or ',' is quoted in every value
// context, not only where that delimiter is active, and every string of
// the shape ^{...} is quoted, whether or not its braces hold a valid field
// declaration. Keys are bare when they match [A-Za-z_][A-Za-z0-9_]*.
//
// What reads back: every value the encoder writes decodes to an equal
// value (numbers by value, objects by membership), with one exception to
// member order: a table row's members come back in the order of the
// table's field union, a '>' field's after the columns. One value has no
// form in the spec and is refused with KindUnsupported: a row attachment
// that is an expanded array (items that are not all objects) for a field
// whose earlier row gave a table, since the decoder must read it with the
// shared schema.
//
// # Decoding
//
// Unmarshal, Decode and DecodeDocument read a generic-profile document in
// the strict mode of spec §16.5; DecodeDocument returns the header fields
// too. Bad input is a *wire.DecodeError with the line and the byte column
// of the problem, a message quoting at most about 40 bytes of the input,
// and the Kind of the error (ErrorKind, or errors.Is with a Kind), whose
// name ends the message ("gcf: line 3, column 5: ...: count_mismatch").
// The decoder never panics and never returns a partial value. Choices
// where the spec is open or silent:
//
//   - A UTF-8 byte order mark before the header, CRLF line ends, blank
//     lines, trailing blanks and comment lines ("# ...", or "#" alone)
//     are accepted; a tab in the indentation and an indentation that is
//     not a multiple of two spaces are errors.
//   - An empty unquoted token reads as the empty string; a raw control
//     character inside a quoted string is an error (KindInvalidEscape);
//     a literal UTF-16 surrogate in the UTF-8 is KindInvalidSurrogate.
//   - A row cell is an inline object schema marker (§7.4.5.1) only when
//     the whole cell is ^{names}, its names bare or quoted (a quoted name
//     may hold the delimiter: ^{"a|b",c}); any other cell starting ^{ is
//     a bare string (^{, ^{a).
//   - A row with an attachment marker must carry its @i prefix; the key
//     cell of a keyed table must be a string; a .name =value attachment
//     is accepted only for a name containing '>'.
//   - A [?] section's rows run until a dedent or a line starting with
//     "##"; a "##! summary counts=..." trailer is checked against the [?]
//     sections when there are any, and otherwise ignored.
//   - A line where an object member is expected, after an array whose
//     declared count it would exceed, is KindCountMismatch (or
//     KindOrphanInlineAttachment after rows with inline schemas).
//   - An @ identity field (§10a.1) is accepted only when the header has
//     key= naming it; its values must be unique; it reads as a plain
//     field.
//   - A graph-profile document is refused with KindUnknownProfile:
//     DecodeGraph and DecodeGraphDelta read that profile.
//
// DecodeSinks is the same reader with chosen tables read by the caller's
// sinks, row by row, instead of into generic values (see Sinks): the
// GraphResponse codec reads its nodes, edges and rows this way, so that
// GCF has one reader, whose checks (counts, row widths, markers and
// attachments, limits, the memory bound) hold for every table alike.
//
// # Syntax rules
//
// Each rule of GCF's syntax is written once, in rules.go, and the gcf
// codec reads and writes through the exported ones.
//
// # Limits
//
// Options.Limits bounds both directions (zero fields take the defaults of
// wire.DefaultLimits): MaxInputBytes the input (default 64 MiB); MaxDepth
// the nesting of objects and arrays, the root container at depth 1
// (default 32); MaxElements the members of an object, the items of an
// array, the fields of a table (default 1,048,576); MaxStringBytes a
// string or key (default 16 MiB). The decoder checks a declared count
// before it reads the rows and allocates nothing sized by one. It also
// estimates the memory of the value it builds and refuses, with a limit
// error naming MaxMaterializedBytes, a value that would take more than ten
// times the input plus 10 MiB (or MaxMaterializedBytes, if lower), so that
// a decode's peak heap stays within 16 times its input plus 16 MiB. The
// estimate counts what a table needs while its rows are read, as well as
// the value: its fields, each row's cells, the groups of its path columns,
// the markers waiting for their attachments. The shapes it refuses are
// those whose value is many times their text: a table of one tiny column,
// rows of one-character cells, rows that are mostly ~, a header of
// hundreds of thousands of path columns. A path column nests its groups
// inside the row: each counts against MaxDepth. Every name is looked up
// by hash, never by a scan of the names before it (a path column's
// parent, a repeated field, header field or inline schema name), so
// decoding takes time linear in the input whatever its columns.
//
// # pack_root and generic delta
//
// PackRoot computes gcf-pack-root-v1 over rows (§10a.3). A KeyedSet is
// rows with an identity field: AppendFull writes its full payload,
// AppendUnchanged the header-only one, Diff the Delta between two sets,
// AppendDelta and DecodeDelta its payload, Delta.Apply applies it
// atomically, never modifying the base. A Session sends a set in full,
// then deltas, re-anchoring on a schema change and per its Policy.
//
// # Graph profile
//
// AppendGraph writes a Graph (spec §5-§6a, and the streaming form of §8
// with GraphOptions.Streaming); GraphSession keeps IDs across calls and
// writes a symbol sent before as a bare reference (§9); DecodeGraph reads
// a payload, refusing bare references (it holds no session).
// GraphPackRoot, AppendGraphDelta, DecodeGraphDelta and GraphDelta.Apply
// are §10's pack root and delta. The graph profile's fields are printable
// ASCII without blanks (§20); the encoder refuses anything else.
//
// # Conformance and the TypeScript SDK
//
// The tests run every fixture of the GCF conformance suite (GCF_SPEC_DIR)
// and compare this package byte for byte, both ways, with the TypeScript
// SDK @blackwell-systems/gcf 2.5.2; reference_test.go lists where the SDK
// departs from the spec, each departure checked by a model of it.
package gcfvalue
