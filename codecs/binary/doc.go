// Package binary holds graphwire's two binary codecs, registered as
// "msgpack" (built on github.com/vmihailenco/msgpack/v5) and "cbor" (built
// on github.com/fxamacker/cbor/v2). Both write one layout; they differ only
// in the encoding of its items. Importing the package registers both:
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
// naming it ("unsupported layout version 3 (Decode reads 1 and 2)"); 3
// led a response with session references in an earlier graphwire, which
// now writes those as documents (below).
//
// A value is written in the format's own item of its kind, so the
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
// so map key order never arises (a document's map, below, keeps its
// header's order).
//
// One walk of the layout (encode.go) feeds one byte writer per format:
// this package's own appenders of MessagePack items (encode_msgpack.go)
// and of core deterministic CBOR items (encode_cbor.go), which tests hold
// to what the msgpack library's Encoder and the CBOR library write for the
// same items.
// AppendEncode and EncodeTo both run it. AppendEncode gathers the bytes in
// a reused scratch buffer and appends them to dst once: one allocation
// per encode, none when dst has room. One scratch buffer (of at most
// 8 MiB) is kept for good, out of the garbage collector's reach, so a
// goroutine encoding response after response always finds it; concurrent
// encodes take theirs from a sync.Pool. EncodeTo hands the bytes to its
// writer in chunks of about 32 KiB.
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
// integer, found string"); a key repeated in a node of more than 16
// properties is found once the node is read (with a map of the keys, or
// past 1,024 of them a sort of 32-bit hashes beside their indices, 8 bytes
// a key) and reported at the node's last item. The encoder refuses the
// responses the decoder would refuse, with a *wire.EncodeError whose Path
// is the wirecodec.Path of the offending element: nodes[1].properties.tags[2]
// for a string that is not UTF-8 in a list, rows[0].g.type for the type
// of the node a cell holds.
//
// # Security
//
// Decode is meant for untrusted bytes. The codec's wire.Limits
// (Options.Limits; the defaults in parentheses) bound it: the input's length
// (MaxInputBytes, 64 MiB); lists nested in a value (MaxDepth, 32); the
// elements of any one sequence — nodes, edges, columns, group columns, rows,
// the cells of a row, the properties of a node, the items of a list
// (MaxElements, 1,048,576); a string, name or key (MaxStringBytes, 16 MiB;
// the query type and group kinds are compared with their enumerations
// instead); and the canonical JSON the decoded response would take
// (MaxMaterializedBytes, 256 MiB). That last one counts every use of a name
// from the string table in full, so a 64 KiB name written once and
// referenced 200,000 times (1.3 MB of input, 13 GB as JSON) is refused
// where it passes the limit, in time proportional to the input. Past any
// limit the *wire.DecodeError names it in Limit and matches
// errors.Is(err, wire.ErrLimit).
//
// Before anything is allocated for an array or a string, its declared
// length is checked against the bytes actually left in the input (every
// element takes at least one byte) and against bounds derived from the
// Limits: the layout's arrays nest MaxDepth + 4 deep at most (response,
// rows, row, cell, then the lists), hold at most 2×MaxElements + 3 items (a
// node reference: name, type, id, then a key and a value per property),
// and no string item is longer than MaxStringBytes (or 64 bytes, whichever
// is more, so that the enumerations read). The exact limits are then
// checked per sequence as the response is built. So a ten-byte input
// declaring 2^32 elements or a 2^62-byte string fails at once without
// allocating, and memory stays proportional to the input actually present.
//
// Memory: a decode's peak heap stays within 16 times its input plus
// 16 MiB (wiretest.DecodeMemoryBound), the densest inputs included. The
// decoded response is held by wirecodec.Meter to MaxExpansion (8) times the
// input plus wirecodec.ExpansionAllowance (8 MiB) in memory, as
// wirecodec.InMemorySize estimates it, and the decoder's own scratch stays
// within that same bound: a sequence whose declared elements cannot fit
// under it beside what is already decoded (a node takes 48 bytes in
// memory, a property 40, a cell 48, a row 24, a list item 24) is refused
// at its head, naming MaxExpansion, before anything is allocated for it;
// one that fits beside what is decoded and what open sequences have
// reserved is allocated whole, so that no slice grows by copying; the
// rest start at 1,024 elements and grow with the elements read. Small
// rows, lists, node references and property sets (of 64 elements at most)
// share chunks, which grow four-fold from 16 elements to 8,192 and never
// past the bytes left in the input, so a chunk's unused room is below
// 384 KiB of each kind; the name
// table grows by chunks of 4,096 names; strings are substrings of one copy
// of the input (so a decoded response holds that copy while any of its
// strings lives). codecs/dense_test.go and codecs/memory_test.go measure
// it: a list of 2^20 one-digit integers is refused at its head at 1.0x
// its input, 2^20 rows of one integer at 13.6x, 2^20 properties decode
// at 9.1x.
//
// Both formats are decoded item by item in place (decode_source.go),
// without a library decoder or an intermediate tree: each item's head is
// checked (lengths against the bounds above, kinds against what the
// layout holds) before the item is used, and every error is positioned at
// the item at fault. Decoding never panics.
//
// AppendEncode refuses, with a *wire.EncodeError naming the path, exactly
// what Decode under the same Limits would refuse (wire.Limits.Check, and an
// encoding longer than MaxInputBytes), so whatever it writes reads back.
//
// New(format, Options) builds a codec with other Limits; the value is
// immutable and safe for concurrent use. Default(format) is the codec with
// the default Limits that the default registry holds.
//
// # Documents: deltas and references
//
// A delta, or a response whose nodes the reader's session already holds,
// is a document (delta.DocumentCodec, which each Codec implements): a
// header of named fields, then a response, the content, in the layout
// above. Package delta gives the fields their meaning and does all the
// work (delta.AppendDelta and DecodeDelta, delta.Session); this package
// writes only the syntax. A document is a map: its keys are the header's
// field names, in the header's order, each with its value (an IntList an array of integers, a Text a string), and last
// "content", whose value is the content written exactly as AppendEncode
// writes it, string table and all; the unchanged delta has no content
// and no "content" key. A response with no header is written as it is,
// AppendEncode's bytes unchanged. So a document opens with a map head
// and a response with an array head, and DecodeDocument tells them apart
// by the first byte: a response goes to Decode whole, at no cost.
//
// The search of two users where the second one's username changes from
// "bob" to "bobby" gives this one-node delta, as a generic decoder of
// either format shows it (RFC 8949 diagnostic notation; 110 bytes in
// both formats; the content's format_version and query_type are empty, as
// the result keeps the base's, and Decode reads "" there only in a
// document's content):
//
//	{"graphwire_delta": "122341154542354260606422251279106206365", "nodes_changed": [1],
//	 "content": [2, "", "", [["User", 2, "username", "bobby"]], []]}
//
// and a traversal from User 1, which the reader holds, to the merge
// request it authored is written with User 1 as a reference:
//
//	{"sent_earlier": "User 1", "sent_earlier_at": [0],
//	 "content": [2, "1.2.0", "traversal", [["MergeRequest", 7, "title", "Fix"]],
//	             [["User", 1, 1, 7, "AUTHORED"]]]}
//
// (in the edge, the 1 after "User" is its id and the next 1 the table
// index of "MergeRequest"). The unchanged delta between a response and
// itself is {"graphwire_delta": "003619328864958628044397808975727622729"},
// 58 bytes.
//
// DecodeDocument refuses, with a *wire.DecodeError at the offending
// item's offset in the whole input: a map of no entries or of more than
// 18 (the 17 header fields and the content), or of indefinite length; a
// key that is not a string; a field delta.FieldKind does not know, or
// one given twice; a value not of its field's kind; a list longer than
// MaxElements or a text longer than MaxStringBytes (errors.Is(err,
// wire.ErrLimit)); "content" anywhere but last, or with no field before
// it; bytes after the last field of a document without content; and
// whatever Decode refuses in the content, which it reads under the
// codec's Limits from the byte after the "content" key to the end of the
// input (its offsets are moved to the whole input's). The header is read
// in place, and a declared length is checked against the Limits and the
// bytes left before anything is allocated for it: a list then takes
// 8 bytes an integer, which takes a byte of input at least, and a text
// is copied once. A header of 2^20 integers (1 MiB of msgpack) decodes
// with 8 MiB allocated in all, a 16 MiB text with 16 MiB. AppendDocument refuses,
// with a *wire.EncodeError, a header DecodeDocument would refuse and a
// document longer than MaxInputBytes.
//
// The codec's own delta record (graphwire_delta version 1, with SHA-256
// fingerprints and elements named by identity) and layout 3's reference
// records of earlier graphwire releases are no longer written or read.
// A document's map keeps the header's order, the content last, rather
// than sorting its keys as RFC 8949's core deterministic encoding would:
// the bytes are still one per document.
//
// # Media types
//
// Each codec's media type is its format's registered type with two
// parameters naming the layout and its version:
//
//	msgpack  application/vnd.msgpack; layout=graphwire; version=2
//	cbor     application/cbor; layout=graphwire; version=2
//
// application/vnd.msgpack is MessagePack's registered type (the older
// application/msgpack and application/x-msgpack are not registered and not
// served); application/cbor is RFC 8949's. A generic decoder of either
// reads arrays of arrays: layout=graphwire says the items are this
// package's positional records, and version is the layout version that
// leads the encoding, so a client can refuse a version it does not know
// before it decodes. wire.Registry.LookupMediaType finds each codec by its full
// media type, by the base type alone, or with either parameter; another
// layout or version finds nothing.
//
// The layout version changes whenever the layout does; the media types
// follow it.
//
// # Detection
//
// Each Codec implements wirecodec.Sniffer, so wire.Registry.Sniff (and wirebench's -f
// auto) tells the two formats from each other and from text by the
// layout's opening, as the encoder writes it: the response's array head
// (5 to 9 items, one byte in both formats, and different bytes in each),
// a layout version a decoder reads, format_version as a string of at most
// 64 printable ASCII bytes, and the query type written in full, one of
// wirecodec.QueryTypes. That scores 0.95; an opening cut off after the layout
// version, or with a longer format_version or an unknown query type,
// scores 0.3, and anything else 0 (a document's map among them). The
// versions accepted are Decode's own (layouts 1 and 2), taken from the
// same constants, so stored layout 1 bytes are recognised and a new
// layout version needs no change anywhere else; a test holds Sniff to
// what Decode reads for every version from 0 to 299 and for larger ones
// of every integer size. The layout
// version is read only in its shortest form, the one every deterministic
// encoder of either format writes.
package binary
