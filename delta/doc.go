// Package delta sends a client only what changed, and what it has not
// seen: a format-independent fingerprint of a response, Diff and Patch
// between two responses, the choice between unchanged, delta and full, a
// Session that sends a node delivered before as a reference, and the one
// contract by which every codec writes both: a document (SPEC §12; GCF §9,
// §10 and §10a gave the ideas).
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
// of named fields, each an integer, a list of integers or a text, then a
// response, the content, written by the codec's ordinary encoder and read
// by its ordinary reader. A response alone is a document without a
// header. A codec takes part by implementing DocumentCodec, which writes
// and reads a header in the codec's own header syntax (each codec's
// documentation shows it) and nothing else: diff, patch, positions,
// references, checks and the read-back check of a lossy codec are this
// package's, once for every codec. So every codec carries every delta:
// nodes and edges added, removed, changed and moved, rows, header fields.
//
// The header fields, in the order a document writes them (FieldKind gives
// each one's kind; a list is written only when it is not empty):
//
//	graphwire_delta   Text: the Check (below); the field that opens a delta
//	cleared           Text: Delta.Cleared, the response header fields
//	                  (format_version, query_type) the result has empty
//	                  while the base does not, separated by commas
//	nodes_changed     base positions of the nodes whose content changed:
//	                  each is replaced by the content node of its type
//	                  and id (the first not yet taken, in this order)
//	nodes_removed     base positions of the nodes the result drops
//	nodes_moved       base positions of nodes placed elsewhere,
//	nodes_moved_to    and their positions in the result
//	nodes_added       result positions of the content's other nodes,
//	                  in order
//	edges_removed, edges_moved, edges_moved_to, edges_added
//	rows_removed, rows_moved, rows_moved_to, rows_added
//	                  the same for edges and aggregation rows, whose new
//	                  ones are the content's edges and rows
//	sent_earlier      Text: the nodes a response references (Sessions)
//	sent_earlier_at   their positions in the response's nodes
//
// In json, a one-node change and a response with references read
//
//	{"graphwire_delta":"034729650244591786432106655137043211902","nodes_changed":[0],"content":{"nodes":[…]}}
//	{"sent_earlier":"User 1 2; MergeRequest 7","sent_earlier_at":[0,3,1],"content":{…}}
//
// A delta's content is a response: the result's columns, group_columns
// and pagination, whether or not they changed, and its format_version and
// query_type only where they differ from the base's: where the result
// keeps the base's, the content's is empty, and Patch takes the base's.
// A result whose format_version or query_type is empty while the base's
// is not names it in cleared (a header field, in the rare case; the
// content's is empty and stays so). In a document with a header, every
// text codec writes its content as a fragment: format_version and
// query_type only when not empty, the nodes and edges only when there
// are some, an absent one read back as empty (each codec's documentation
// gives its fragment; a plain response is written as before, and its
// reader still requires what a response has). So the one-node change of
// a response costs its header fields, its check and the node. Its nodes are the changed and the added nodes in result order
// (so a codec that reorders nodes, as GOON groups them by type, reads a
// subsequence of its own order back as it wrote it), a node that shares
// the type and id of a changed one sent as a removal and an addition; its
// edges the added edges, its rows the added rows, present exactly when the result
// has rows (an empty list for a result with rows and none added). The
// unchanged delta has no content: its header is graphwire_delta alone,
// holding the check of the base with itself.
//
// This is version 4 of the delta document (Version). Version 3 wrote the
// content's format_version and query_type always, and hashed its Check
// under "graphwire-delta-check-v2": a version-3 delta reads as a version-4
// one, but its check never verifies, so Patch refuses it with
// ErrWrongBase rather than read its content by another version's rules,
// and the client asks for the whole response. Version 2 wrote
// "graphwire_delta: 2" and the Check in base64url in a field "check" of
// its own, and version 1 two SHA-256 fingerprints, naming nodes and edges
// by identity in each codec's own syntax: a reader of version 4 refuses
// both with a *wire.DecodeError (their graphwire_delta holds no check, or
// "check" is no header field).
//
// # Positions
//
// Every operation names elements by position: a base position (from 0, in
// the base's list) for what the base had, a result position for where an
// element goes. The Check fixes the base, so a position names exactly one
// element. Diff pairs elements by identity to find the operations: a node
// by (type, id, k), its k-th listing with that type and id in response
// order, so a response that lists a node twice is diffed exactly too; an
// edge by its whole tuple and k likewise, so an edge is never "changed",
// only removed and added; a row by its content, so an unchanged row costs
// nothing wherever it moves and a changed row is removed and added.
//
// Order is kept exactly, with few positions: the elements that kept their
// relative order (a longest increasing run) stay where they are and only
// the others move, so an unchanged order costs nothing and an append, an
// insert or a removal moves nothing. Patch builds each list so: the moved
// and added elements at their positions, the base elements neither
// removed nor moved, in base order, in the positions left; a changed
// node's content is replaced whole (no property-level patch).
//
// # Check
//
// A delta carries one Check: the first 128 bits of SHA-256 over
// "graphwire-delta-check-v4\n", the base's Fingerprint and the result's,
// written as the number it is in 39 decimal digits (13 o200k tokens,
// whatever the value: the tokenizer reads digits three at a time).
// Patch computes the base's fingerprint, builds the result, and compares
// the check of the two with the delta's: a delta applied to another base,
// or altered, is refused (ErrWrongBase), never a wrong response. One value
// verifies both ends because the reader always holds the base it patches;
// 128 bits leave a chance of 2^-128 that a mismatch goes unnoticed.
//
// # Fingerprint
//
// Fingerprint(r) names a response independently of any codec: the same
// response gives the same fingerprint whatever codec it travelled in, and
// two responses have the same fingerprint exactly when they are equal
// under wire.Exact (up to SHA-256 collisions): int 1 and float 1.0 differ,
// floats compare bit for bit, a nil and an empty Columns, GroupColumns or
// Rows differ, a nil and an empty Nodes, Edges, property list or row do
// not. A response through a codec that is not lossless (TOON writes 1.0 as
// 1) is another response and has another fingerprint. It is written
// "sha256:" and 64 lowercase hex digits.
//
// It is SHA-256 over the bytes "graphwire-fingerprint-v1\n" followed by the
// response in this layout, where u64 is 8 bytes big-endian, an int64 is its
// two's-complement u64, a string is the u64 of its UTF-8 length and its
// bytes, a bool one byte 0 or 1, a list the u64 of its length and its
// elements, and an optional field one byte 0 (absent) or 1 followed by the
// field:
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
// The layout is injective: two responses that differ under wire.Exact
// never share their hashed bytes.
// testdata/patch.py implements it in a page of Python.
//
// # Diff and Patch
//
// Diff(base, next) gives the Delta that turns base into next; Patch(base,
// d) gives next back exactly (wire.Exact, order included) or fails
// atomically: every operation is checked before anything is built (a
// position outside the base or the result: ErrWrongBase; an element named
// twice, two at one position, content that does not match the operations:
// ErrCorrupt), and the result against the Check. Errors are *PatchError.
// Patch never modifies base.
//
// # Worth it
//
// A delta is sent only when it costs less than a threshold of the full
// response: Worth(deltaCost, fullCost, threshold) is deltaCost <
// threshold × fullCost, with DefaultThreshold 0.60 (GCF's rule). Choose
// applies the three outcomes: unchanged when the fingerprints agree, else
// the delta when it is worth it, else the full response. The caller gives
// the cost functions (tokens for a text format, bytes for a binary one).
//
// # Lossy codecs
//
// A client holds a response as its codec carries it: for GOON, which
// truncates long strings and drops nulls, Decode(Encode(r)). A delta is
// computed between the two responses as the client holds them, and
// AppendDelta reads a lossy codec's document back and refuses (a
// *wire.EncodeError) a delta it would not carry exactly; Session.Encode
// remembers what its reader will hold. testdata/patch.py applies the json
// codec's delta documents in a page of Python, and the tests run it.
//
// # Sessions
//
// A Session remembers the nodes delivered in one conversation, each with a
// SHA-256 hash of its content, so that a response written in the session
// leaves out of its content a node delivered before and unchanged since
// and names it in the header instead; a node whose content changed goes in
// full. sent_earlier groups the references by type, in order of first
// appearance, each group the type then its ids, groups separated by "; "
// (a type that is not a run of ASCII letters, digits and underscores is
// written as a JSON string); sent_earlier_at gives each reference's
// position in the response's nodes, in the same order; the reader puts the
// content's nodes, in order, in the positions left.
//
// Session.Mark(r) gives the positions of the nodes to write as references,
// and the reader's Session.Resolve(r, refs, fingerprint) puts the
// remembered nodes back and gives the original response exactly;
// Session.Encode(registry, name, r) and Session.Decode do both with a
// codec's documents (AppendReferenced and DecodeReferenced are the halves
// without a session). The writer and the reader each keep a Session with
// the same SessionLimits; both remember the nodes of every response the
// same way, in the order of their identities (so a codec that reorders
// nodes changes nothing), least recently delivered forgotten first, so
// they stay in step, and eviction only makes the writer send a node in
// full again: a Session never emits a reference it cannot resolve. Given
// the writer's fingerprint of the response, Resolve also refuses
// (ErrUnresolved) to resolve from a session that fell out of step.
//
// A delta is written in a session too: Session.EncodeDelta writes the
// nodes of its content that the session sent before as references, the
// delta's fields then sent_earlier and sent_earlier_at (positions in the
// content) in one header, and the reader's Session.Patch resolves them
// and applies the delta; DecodeDelta, without a session, refuses such a
// document. Session.Encode returns, beside the text, the response its
// reader will hold, whose Fingerprint is the want of Resolve.
//
// SessionLimits bound a Session: MaxNodes (default 10,000) and MaxBytes
// (default 16 MiB, each node counted as an estimate of the heap it holds,
// which the tests hold to within 25% of the live heap); a node larger than
// MaxBytes alone is never remembered.
//
// # Limits and security
//
// A document is read under its codec's wire.Limits: the content by the
// codec's ordinary reader, under all of them; the header's lists of
// integers at most MaxElements (1,048,576) each and its texts at most
// MaxStringBytes (16 MiB), grown by what was read, never by a number the
// input states. A header list costs 8 bytes an integer of at least two
// bytes of input (a digit and a separator), so a document peaks within
// 16 times its input plus 16 MiB like a response. Errors are
// *wire.DecodeError with a position; a limit's matches errors.Is(err,
// wire.ErrLimit). A decoded delta is not trusted: a position is only
// compared, Patch sizes its lists by the base and the delta's own lists,
// and verifies the result against the Check.
//
// A session text is untrusted too: a few bytes can name a remembered node
// of a megabyte thousands of times. A resolved response obeys the limits
// a decoder applies to any response, counted on the response with every
// reference put back and each use of a node in full: MaxMaterializedBytes
// (256 MiB of canonical JSON), and MaxExpansion (8) times an input that
// is the text's length plus the bytes of the distinct remembered nodes it
// references, plus wirecodec.ExpansionAllowance (8 MiB), both in canonical
// JSON and in memory (wire.Limits.MaterializedLimit, wirecodec.InMemorySize); and
// MaxElements, MaxDepth and MaxStringBytes within each node referenced.
// The bytes of a remembered node are the larger of its canonical JSON and
// its in-memory size, measured once, when it is remembered. So a text
// may bring back every node it names once, however large, but repeating
// a node costs what writing it again would. Session.Decode applies the
// Limits of the registry it reads from (codecs.NewRegistry gives the
// same to its codecs); Resolve, which has no text, the default Limits,
// with the canonical JSON size of the response as given for the text's
// length. The check runs on the positions and the remembered sizes before
// any node is copied or hashed, in time proportional to the text; past a
// limit the error is a *wire.DecodeError matching wire.ErrLimit that
// names the limit and the reference (nodes[i]) where the total passed it,
// at the offset of the end of the text, and the session is unchanged (a
// response without references is its decoder's, under the codec's own
// Limits, and is not measured again). A resolved response shares each remembered node's properties among its
// uses and with the session, which copies and hashes a node it already
// remembers with the same content no more.
//
// Session.Encode never writes a text that its reader, under the same
// registry's Limits, would refuse: when the references of a node listed
// many times would resolve past a limit, each node is referenced at its
// first listing only and written in full at the others; a response that
// no text would carry within the limits is an *wire.EncodeError matching
// wire.ErrLimit, and nothing is remembered. Mark and References, which
// write nothing, give every listing of a remembered node (a price must
// not depend on the rest of the page): a caller that writes their
// references with AppendReferenced itself writes such texts too, and its
// reader refuses them.
package delta
