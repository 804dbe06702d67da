// Package delta sends a client only what changed, and what it has not
// seen: a format-independent fingerprint of a response, Diff and Patch
// between two responses, the choice between unchanged, delta and full, a
// Session that sends a node delivered before as a reference, and the one
// contract by which every codec writes both: a document (SPEC §12).
//
//	d, _ := delta.Diff(base, next)             // what turns base into next
//	b, _ := delta.AppendDelta(codec, nil, d)   // a document of any codec
//	...
//	d, err := delta.DecodeDelta(codec, b)
//	next, err := delta.Patch(base, d)          // next exactly, or an error
//
// # Documents
//
// A delta, or a response with references, is a document: a small header
// of named fields (a list of integers or a text), then a response, the
// content, written by the codec's ordinary encoder and read by its
// ordinary reader; a response alone is a document without a header. A
// codec takes part by implementing DocumentCodec, which writes and reads
// a header in the codec's own syntax; diff, patch, positions, references,
// checks and the read-back check of a lossy codec are this package's. The
// header fields, in the order a document writes them (a list only when it
// is not empty):
//
//	graphwire_delta   Text: the Check; the field that opens a delta
//	cleared           Text: Delta.Cleared, comma-separated
//	nodes_changed     base positions of the nodes whose content changed,
//	                  each replaced by the content node of its type and id
//	nodes_removed     base positions of the nodes the result drops
//	nodes_moved       base positions of nodes placed elsewhere,
//	nodes_moved_to    and their positions in the result
//	nodes_added       result positions of the content's other nodes
//	edges_removed, edges_moved, edges_moved_to, edges_added
//	rows_removed, rows_moved, rows_moved_to, rows_added
//	                  the same for edges and aggregation rows
//	sent_earlier      Text: the nodes a response references (Sessions)
//	sent_earlier_at   their positions in the response's nodes
//
// In json, a one-node change and a response with references read
//
//	{"graphwire_delta":"034729650244591786432106655137043211902","nodes_changed":[0],"content":{"nodes":[…]}}
//	{"sent_earlier":"User 1 2; MergeRequest 7","sent_earlier_at":[0,3,1],"content":{…}}
//
// A delta's content is a fragment of a response: the result's columns,
// group_columns and pagination; its format_version and query_type only
// where they differ from the base's (Patch takes the base's, and a
// result that empties one names it in cleared); the changed and added
// nodes in result order, the added edges and rows. Text codecs leave out
// of a document with a header what is empty, and read it back empty. The
// unchanged delta has no content: its header is graphwire_delta alone.
//
// This is version 4 of the delta document; older versions are refused
// (see Version) and the client asks for the whole response.
//
// # Positions and the check
//
// Every operation names elements by position: a base position for what
// the base had, a result position for where an element goes. Diff pairs
// a node by (type, id, k), its k-th listing with that type and id; an
// edge by its whole tuple and k (an edge is only removed and added); a
// row by its content. The elements that kept their relative order (a
// longest increasing run) stay, and only the others move, so an append,
// an insert or a removal moves nothing.
//
// A delta carries one Check: the first 128 bits of SHA-256 over
// "graphwire-delta-check-v4\n" and the base's and the result's
// Fingerprint, written as 39 decimal digits. Patch builds the result and
// compares the check: a delta applied to another base, or altered, is
// refused (ErrWrongBase), never a wrong response. Patch(base, d) gives
// the result exactly (wire.Exact, order included) or fails atomically,
// with a *PatchError; it never modifies base.
//
// # Fingerprint
//
// Fingerprint(r) is independent of any codec: two responses have the same
// fingerprint exactly when they are equal under wire.Exact (up to SHA-256
// collisions). It is written "sha256:" and 64 lowercase hex digits, and
// is SHA-256 over "graphwire-fingerprint-v1\n" and the response in this
// layout (u64 is 8 bytes big-endian; an int64 its two's complement; a
// string the u64 of its length and its bytes; a bool one byte; a list the
// u64 of its length and its elements; an optional field a byte 0, or 1
// and the field):
//
//	response  format_version, query_type, list of nodes, list of edges,
//	          optional list of columns, optional list of group columns,
//	          optional list of rows, optional pagination
//	node      type, id, list of (key, value) properties in stored order
//	edge      from, from_id, to, to_id, type, optional depth,
//	          optional path_id, optional step
//	column    name, function, optional target, optional property
//	group     name, kind, node, optional property, optional entity
//	row       list of cells: name, then 0 and a value, or 1 and a node
//	pagination has_more, optional total_rows, optional truncated,
//	          optional next_cursor
//	value     one tag byte, then: 0 null; 1 bool; 2 int64; 3 float64 as
//	          the u64 of its IEEE 754 bits; 4 string; 5 list of values
//
// testdata/patch.py implements it, and applies the json codec's deltas,
// in a page of Python; the tests run it.
//
// # Worth it, and lossy codecs
//
// Choose sends unchanged, a delta when Worth it (below DefaultThreshold,
// 0.60, of the full response's cost), or the full response. A delta is
// computed between two responses as the client holds them (Held); a lossy
// codec's AppendDelta refuses one it would not carry exactly.
//
// # Sessions
//
// A Session remembers the nodes delivered in one conversation, so that a
// response leaves out of its content a node delivered before and
// unchanged since and names it in sent_earlier: the references grouped
// by type, in order of first appearance, each group the type then its
// ids, groups separated by "; " (a type that is not a run of ASCII
// letters, digits and underscores is a JSON string); sent_earlier_at
// gives their positions, and the reader puts the content's nodes in the
// positions left. Writer and reader each keep a Session with the same
// SessionLimits: MaxNodes (default 10,000) and MaxBytes (default 16 MiB,
// each node counted as an estimate of the heap it holds, which the tests
// hold within 25% of the live heap).
//
// # Limits and security
//
// A document is read under its codec's wire.Limits: the content by the
// codec's ordinary reader; the header's lists at most MaxElements
// (1,048,576) integers and its texts at most MaxStringBytes (16 MiB),
// grown by what was read, never by a number the input states. A header
// list costs 8 bytes an integer of at least two bytes of input, so a
// document peaks within 16 times its input plus 16 MiB like a response.
// Errors are *wire.DecodeError with a position; a limit's matches
// errors.Is(err, wire.ErrLimit). A decoded delta is not trusted: a
// position is only compared, Patch sizes its lists by the base and the
// delta's own lists, and verifies the result against the Check.
//
// A session text is untrusted too: a few bytes can name a remembered node
// of a megabyte thousands of times. A resolved response obeys the limits
// a decoder applies to any response, counted with every reference put
// back: MaxMaterializedBytes (256 MiB of canonical JSON), and
// MaxExpansion (8) times an input that is the text's length plus the
// bytes of the distinct remembered nodes it references, plus
// wirecodec.ExpansionAllowance (8 MiB), in canonical JSON and in memory;
// and MaxElements, MaxDepth and MaxStringBytes within each node
// referenced. So a text may bring back every node it names once, however
// large, but repeating a node costs what writing it again would.
// Session.Decode applies its registry's Limits; Resolve, which has no
// text, the default Limits. The check runs on the positions and the
// remembered sizes before any node is copied or hashed; past a limit the
// error is a *wire.DecodeError matching wire.ErrLimit naming the limit
// and the reference (nodes[i]), and the session is unchanged.
// Session.Encode never writes a text its reader would refuse: it
// references each node at its first listing only when more would pass a
// limit, and otherwise fails with a *wire.EncodeError matching
// wire.ErrLimit.
package delta
