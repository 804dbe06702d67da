// Package delta sends a client only what changed: a format-independent
// fingerprint of a response, Diff and Patch between two responses, the
// choice between unchanged, delta and full, and the JSON form of a delta
// that another language can apply (SPEC §12; GCF §9, §10 and §10a gave the
// ideas).
//
//	d, _ := delta.Diff(base, next)     // what turns base into next
//	b, _ := delta.AppendJSON(nil, d)   // its JSON form
//	...
//	d, err := delta.DecodeJSON(b, wire.Limits{})
//	next, err := delta.Patch(base, d)  // next exactly, or an error
//
// # Identity
//
// A node is identified by (type, id); an edge by its whole tuple (from,
// from_id, to, to_id, type, depth, path_id, step), so an edge is never
// "changed", only removed and added; an aggregation row is identified by its
// position in the base, and a row whose content changed is removed and
// added (Diff pairs rows of equal content, so an unchanged row costs
// nothing wherever it moves).
//
// A response may list one node (or one edge, or one row) more than once;
// GKG's do not, but nothing in the model forbids it, and Patch must give
// such a response back exactly too. The identity of the k-th listing (from
// 0, in response order) of a node with a given type and id is (type, id, k):
// NodeKey.N and EdgeKey.N hold k, and the JSON form writes "n" only when it
// is not 0. So duplicates are diffed, removed, changed and moved one by
// one, like any other node, and, unlike GCF, an added node may share its
// type and id with one the result keeps (the result lists it twice): the
// result's fingerprint, not a uniqueness rule, tells a right patch from a
// wrong one.
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
// Diff(base, next) gives the Delta that turns base into next: nodes
// removed, added, changed (whole-node replacement, no property-level
// patch) and moved; edges and rows removed, added and moved; the result's
// format_version and query_type; and columns, group columns and pagination
// when they changed (Set). Order is kept exactly, with few bytes: the
// elements that kept their relative order (a longest increasing run) stay
// where they are, and only the others carry a position, so an unchanged
// order costs nothing and an append, an insert or a removal moves nothing.
// The result's list is its moved and added elements at their positions and
// the remaining base elements, in base order, in the positions left.
//
// Patch(base, d) gives next back exactly (wire.Exact, order included) or
// fails atomically: it checks base's fingerprint against the delta's base
// (ErrWrongBase), validates every operation before it builds anything,
// and checks the fingerprint of what it built against the delta's result
// (ErrCorrupt); errors are *PatchError. A delta applied to the wrong base,
// truncated or altered is an error, never a wrong response. Patch never
// modifies base.
//
// When base and next have the same fingerprint the Delta is the unchanged
// one (Delta.Unchanged): nothing but the two equal fingerprints.
//
// # Worth it
//
// A delta is sent only when it costs less than a threshold of the full
// response: Worth(deltaCost, fullCost, threshold) is deltaCost <
// threshold × fullCost, with DefaultThreshold 0.60 (GCF's rule). Choose
// applies the three outcomes: unchanged when the fingerprints agree, else
// the delta when it is worth it, else the full response. The caller gives
// the cost functions (tokens for a text format, bytes for a binary one), so
// the package depends on no codec.
//
// # JSON form
//
// AppendJSON and DecodeJSON (and Delta's MarshalJSON and UnmarshalJSON)
// write and read this object; keys are written in this order, and a
// reader accepts any order:
//
//	{
//	  "graphwire_delta": 1,                 the version of this form
//	  "base":   "sha256:…",                 Fingerprint of the base
//	  "result": "sha256:…",                 Fingerprint of the result
//
//	  "unchanged": true                     the unchanged delta: base equals
//	                                        result, and no other key follows
//
//	  "set": ["columns", "group_columns", "pagination"],
//	                                        header fields the result takes
//	                                        from "content" (absent there:
//	                                        absent in the result); the
//	                                        others stay the base's
//	  "nodes": {
//	    "removed":  [KEY, …],               base nodes not in the result
//	    "moved":    [KEY + "at", …],        base nodes placed at "at"
//	    "changed":  [n, …],                 one per changed node: the first
//	                                        len(changed) nodes of content
//	                                        replace the base nodes with
//	                                        their type and id and this n
//	    "added_at": [position, …]           the remaining content nodes, in
//	                                        order, go at these positions
//	  },
//	  "edges": {"removed": [EDGE, …], "moved": [EDGE + "at", …],
//	            "added_at": [position, …]}, the content edges, in order
//	  "rows":  {"removed": [base position, …],
//	            "moved": [{"from": base position, "at": position}, …],
//	            "added_at": [position, …]}, the content rows, in order
//	  "content": RESPONSE
//	}
//
// KEY is {"type": string, "id": "decimal int64", "n": k}, "n" written only
// when not 0. EDGE is an edge object of canonical JSON (ids as decimal
// strings, depth, path_id and step when present) with "n" likewise.
// Positions are indexes into the result's list, from 0. Every list, and
// every group, is left out when empty.
//
// RESPONSE is a response in canonical JSON (SPEC §4, what the json codec
// writes, read by wire.DecodeJSON): the result's format_version and
// query_type; nodes, the changed then the added nodes; edges, the added
// edges; rows, the added rows, present exactly when the result has rows
// (an empty list for a result with rows and none added); and columns,
// group_columns and pagination as "set" says. So every node, edge, row and
// value of a delta is written exactly as the json codec writes it.
//
// The first key, "graphwire_delta", tells a delta from a response, whose
// canonical JSON opens with "format_version": SniffJSON says which it is.
// The json codec's Sniff rates a delta 0, so -f auto never takes one for a
// response.
//
// To apply it elsewhere: check the base's fingerprint; number the base's
// nodes and edges by identity and occurrence; resolve every removed and
// moved element; replace the changed nodes; build each list (moved and
// added at their positions, the other base elements in order in the gaps);
// take the header from content and "set"; check the result's fingerprint.
// testdata/patch.py does exactly that, and the test suite runs it.
//
// # Codecs
//
// A codec writes and reads deltas in its own syntax by implementing Codec
// (AppendDelta, DecodeDelta) beside wire.Codec; EncodeWith and DecodeWith
// find it by type assertion on the registered codec, so wire.Codec does
// not change, and a codec without a delta syntax is ErrNoSyntax (send the
// full response). The json codec offers the JSON form (AppendJSON and
// DecodeJSON), goon and toon documents of their own in their node syntax,
// msgpack and cbor a delta record beside the response's layout, and gcf
// GCF's generic delta where GCF can carry it (see each codec's
// documentation). Package
// deltatest holds the generators and RunCodec, the checks every codec's
// delta syntax passes.
//
// # Sessions
//
// A Session remembers the nodes delivered in one conversation, each with a
// SHA-256 hash of its content, so that a response written in the session
// sends a node delivered before and unchanged since as a reference (its
// type and id, marked as sent earlier) and a node whose content changed in
// full. The API knows no format: Session.Mark(r) gives the positions of the
// nodes to write as references (a codec writes those), and the reader's
// Session.Resolve(r, refs, fingerprint) puts the remembered nodes back and
// gives the original response exactly. The writer and the reader each keep
// a Session with the same SessionLimits; both remember the nodes of every
// response the same way, in the order of their identities (so a codec that
// reorders nodes changes nothing), least recently delivered forgotten
// first, so they
// stay in step, and eviction only makes the writer send a node in full
// again: a Session never emits a reference it cannot resolve. Given the
// writer's fingerprint of the response, Resolve also refuses (ErrUnresolved)
// to resolve from a session that fell out of step.
//
// A codec writes references in its own syntax through the optional
// interface SessionCodec (AppendReferenced, DecodeReferenced); with it,
// Session.Encode(registry, name, r) writes r in the session and the
// reader's Session.Decode(registry, name, data) gives it back, as that
// codec carries it. Each codec's documentation shows its references.
//
// SessionLimits bound a Session: MaxNodes (default 10,000) and MaxBytes
// (default 16 MiB, each node counted as an estimate of the heap it holds,
// which the tests hold to within 25% of the live heap); a node larger than
// MaxBytes alone is never remembered.
//
// # Limits and security
//
// DecodeJSON reads untrusted input under wire.Limits (zero fields select
// their defaults): MaxInputBytes (64 MiB) bounds the input, MaxElements
// (1,048,576) every list of operations, MaxStringBytes (16 MiB) every
// string, and the content is read by wire.DecodeJSON under all of them,
// MaxDepth and MaxMaterializedBytes included. It allocates by what it has
// read, never by a number the input states: a position is only compared,
// and Patch sizes its lists by the base and the delta's own lists. Errors
// are *wire.DecodeError with a byte offset; a limit's matches
// errors.Is(err, wire.ErrLimit). A decoded delta is not trusted: Patch
// verifies it against the base and the result fingerprint.
//
// Every delta decoder, DecodeJSON and each codec's DecodeDelta, holds what
// it builds to the bound of a response decoder with a Meter: the keys,
// positions and slots of its lists of operations (charged as a list grows:
// the array it grows into, whole, and the one it outgrew, which stays on
// the heap until collected), the nodes, edges, rows and header fields it
// holds (as wire.Meter charges a response's), and its scratch (its copy of the input; the
// generic parse a text codec reads first, charged line by line before it
// parses, at the cost its codec gives, ParseCost) together stay within
// MaxExpansion (default 8) times the input plus wire.ExpansionAllowance
// (8 MiB) bytes in memory, so that a decode peaks within 16 times its
// input plus 16 MiB. A decoder refuses past it, before it allocates, with
// a positioned *wire.DecodeError whose Limit is "MaxExpansion"
// (errors.Is(err, wire.ErrLimit)); the content and the nodes stay under
// MaxMaterializedBytes (256 MiB of canonical JSON) too. The lists of a
// delta cost 32 (a node key) to 128 (a moved edge) bytes an element, and
// 1.5 to 3 times that as they grow, so a delta of many short keys
// (GOON's "0" lines, two bytes a key) is refused after some hundred
// thousand keys, well before MaxElements.
//
// A session text is untrusted too: a few bytes can name a remembered node
// of a megabyte thousands of times. A resolved response obeys the limits
// a decoder applies to any response, counted on the response with every
// reference put back and each use of a node in full: MaxMaterializedBytes
// (256 MiB of canonical JSON), and MaxExpansion (8) times an input that
// is the text's length plus the bytes of the distinct remembered nodes it
// references, plus wire.ExpansionAllowance (8 MiB), both in canonical
// JSON and in memory (wire.Limits.MaterializedLimit, wire.InMemorySize); and
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
