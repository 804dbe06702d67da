// Package fit cuts a graph query result into pages that each cost at most
// a given number of real tokens in a chosen wire format: the answer to an
// agent's question "what fits in the 8,000 tokens I have left?". A page
// costs what the page costs: Page finds it from its cursor forward and
// stops at the budget, whether it is the first page or one resumed from a
// cursor by a process that never saw the pages before it. A service that
// keeps a response may keep a Pager, which remembers what it counted.
//
//	res, err := fit.Page(resp, fit.Options{Codec: "goon", Budget: 8000})
//	// res.Encoding: at most 8,000 o200k tokens of GOON
//	// res.Stats.Truncated: more follows; pass res.Page.Pagination.NextCursor
//	// as Options.Cursor for it (see "Whose cursor" for the last page)
//
// # Pages
//
// A page is a prefix, in the response's own order, of the units the
// response is made of (from the cursor on), as many as fit. A unit is the
// smallest piece that keeps a page graph-whole:
//
//   - traversal, search, neighbors: unit i is node i (in server order)
//     with every edge whose later endpoint is node i: an edge joins the
//     page that delivers the second of its two endpoints, however far
//     apart they are in the node order, so no page holds an edge to a
//     node not yet delivered. Rows, should such a response carry any,
//     follow the nodes, one unit each.
//   - path_finding: a unit is a whole path, every edge of one path_id, in
//     ascending path_id order, with the nodes of its endpoints not yet
//     delivered; then each edge without a path_id (one unit each, with its
//     endpoints); then nodes no edge names, one unit each; then rows.
//   - aggregation: unit i is row i (in server order) with the node
//     entries whose (type, id) its node cells name, the nodes GOON lifts
//     into @nodes; then the other nodes, one unit each. Edges follow the
//     traversal rule.
//
// Every edge of a page has both endpoints in that page or an earlier one.
// An endpoint the whole response does not hold is no constraint (the
// response itself dangles there): an edge with neither endpoint in the
// response joins the first unit. A node listed twice is two entries: in
// node-led responses each is a unit of its own; in path_finding and
// aggregation the unit that first names the node (a path, an edge, a row)
// takes every entry of it, and entries no unit names are units of their
// own. Within a page, nodes, edges and rows keep the whole's relative
// order. Concatenating every page's nodes, edges and rows gives each item
// of the response exactly once; rows come back in server order (and, in
// node-led responses, nodes too).
//
// Columns, group columns and format_version are on every page. A page's
// pagination is v5: while units follow, has_more and truncated are true
// and next_cursor resumes after the page; the last page carries the
// response's own has_more and next_cursor (what lies beyond the response
// on the server), with truncated set when the response itself was, or had
// more (a schema v2 has_more). A schema v2 total_rows is not carried: a
// page's pagination is v5 only, since a mix of the two schemas is refused
// by every codec. A cursor is opaque and stateless:
// base64url of the next unit's index and the first 8 bytes of the
// response's delta.Fingerprint (SHA-256 over every field, the name
// package delta gives a response, whatever codec it travelled in); Page
// refuses a cursor of a different response with a *CursorError (Mismatch
// set), and anything else that is not a cursor it issued.
//
// # Whose cursor
//
// A response is often itself one page of an upstream server's result,
// whose pagination says has_more with the server's next_cursor. fit
// keeps the two kinds of cursor apart:
//
//   - While units of the response follow, a page's next_cursor is fit's:
//     22 characters of base64url (version 2, the unit index and the
//     fingerprint), which CheckCursor accepts; has_more and truncated are
//     true, and so is Stats.Truncated. Pass it to Page (or Pager.Page)
//     with the same response.
//   - The last page's next_cursor, if any, is the upstream server's, as the
//     server wrote it: pass it to that server, and page its answer from
//     the start. has_more with no next_cursor there means the server has
//     more but gave no cursor (schema v2). Stats.Truncated is false.
//   - A response that fits the budget whole is its own single page, with
//     the server's pagination unchanged (as v5): its next_cursor too is
//     the server's.
//
// So a client tells the two apart from the page alone: a next_cursor that
// CheckCursor accepts is fit's, any other the server's. fit given the
// server's cursor with the response it came with (the response's own
// next_cursor) refuses it with a *CursorError whose Upstream is set,
// saying that it is the upstream server's cursor; any other text that is
// not fit's is "not a cursor issued by fit", with the same hint. The one
// case the text alone cannot settle is an upstream server that pages with
// fit itself, whose cursors have fit's form: with the response, Page still
// names the server's cursor (Upstream), and Stats.Truncated, which a Go
// caller has, is always exact. The README's paging loop follows these
// rules and is tested end to end over a server whose result comes in
// pages. A cursor of version 1 (whose fingerprint was fit's own, not
// delta's) is refused with Outdated set: page the response again from
// its start.
//
// Cheap checks come first. Page refuses a bad budget, then a cursor whose
// text is not a cursor (the response's own next_cursor, length, encoding,
// version), then an unknown or binary codec or an estimating counter, then
// a cursor of another response (its fingerprint, one walk of the response
// allocating a few kilobytes) or past the response's end, before it
// encodes or counts anything; so a bad cursor costs nothing near the
// price of a page.
// CheckCursor makes the first cursor checks without a response, for a
// caller that has yet to read or decode one. NewPager checks the codec and
// counter names before it prices anything, and Pager.Page the budget and
// the cursor before it encodes or counts.
//
// # Cost
//
// Page reads the whole response once, cheaply, to plan its units (a map
// from each node's type and id to its unit), and once more for its
// fingerprint when it reads or writes a cursor: a response that fits on
// one page is read for none. Beyond that it encodes and counts only
// candidate pages from the cursor on (see Pricing), each at most about
// twice the page, so its time and memory follow the page, not the
// response. A page that holds the rest of the response (a response that
// fits whole, the last page of a walk) mostly costs one encoding and one
// count of it (see Pricing). On a traversal of 100,000
// nodes and 66,666 edges (22 MB of canonical JSON) a page of 4,000
// tokens costs a fraction of one encoding of the whole (go test ./fit
// -bench LargePage prints both, in goon, toon, json and gcf), and
// allocates about 9 MB, the plan's.
//
// Statistics of the whole are made only when asked for:
// Options.WholeStats fills Stats.WholeTokens and Stats.Pages (one count of
// the whole, then every page of the budget from the start, each found as
// a page is), and Options.JSONBaseline Stats.WholeJSONTokens and
// Stats.Ratio (a count of the whole as compact JSON, the larger text);
// each costs about as much as encoding and counting the whole.
//
// # Pager
//
// A Pager serves the pages of one response as Page does, and remembers
// across pages the count of every stretch of text it has tokenized: a
// page's search reads a little past the page, and the next page finds
// those units counted. So walking every page with a new Pager costs
// about one count of the whole and a few encodings: go test ./fit -run
// Pager -v prints, for a response of 3,500 nodes and 9,000 edges (227K
// o200k tokens of GOON) and for the corpus case traversal_xl, the time
// and allocations of NewPager, of the first page, of a later page and of
// the whole walk beside one encoding and count of the whole, and that
// ratio for every text-heavy corpus case in goon, toon and json, which
// the test holds to at most 2.5 (least of a few runs, in CPU time). With
// PagerOptions.WholeStats, the first page of a budget also walks that
// budget's pages from the start, for Stats.Pages; the walk is remembered
// (for up to 16 budgets), so a later page of that budget is one encoding
// and one count of the page. Every page's Result carries Encoding, the
// exact bytes counted, which a server sends as they are.
// context.Context is checked between probes and pages. A Pager is safe
// for concurrent use (its calls run one at a time) and holds the
// response, the unit plan and the counts it has learnt, at most about
// the size of the response's encoding.
//
// # Sessions
//
// An agent's conversation pays once for what it has read (package delta,
// "Sessions"). With Options.Session (or PagerOptions.Session) set to the
// writer's delta.Session of the conversation, a page is priced and
// written in that session: a node the session would write as a
// reference (delivered before with the same type, id and content, and
// still remembered: delta.Session.Mark's rule) costs its reference in the
// codec, not its properties, so a page holds more nodes than it would
// outside the session; the page is written with the codec's
// delta.AppendReferenced (delta.DocumentCodec; a codec without it is an error
// matching delta.ErrNoSyntax), and Result.Encoding is exactly what
// Session.Encode writes for Result.Page, within the budget. Result.Page
// holds the full nodes; the reader's Session.Decode of Encoding gives it
// back exactly.
//
// Delivering a page remembers it: Page and Pager.Page, having found the
// page, encode it in the session, which remembers its nodes as
// delivered, as Session.Encode does. Call them for pages that will be
// delivered; if one is not, Reset the writer's and the reader's sessions.
// A page that cannot be cut (a *BudgetError, a bad cursor) leaves the
// session as it was. The session must not be used by another caller while
// Page runs: should the page as delivered differ from the page priced,
// the error matches ErrSessionChanged.
//
// fit asks the session which nodes it would reference without changing
// it (Session.References: one hash of every node). A Pager asks again on
// every page, since its own pages, other responses of the conversation
// and evictions change the answer; when the answer changes for a node of
// a unit not yet served, the walks it remembered are dropped and found
// again. Stats.WholeTokens is
// then the whole in the session as it stood when the Pager first counted
// it, and Stats.Pages counts the pages of the budget with the references the
// session has at the call (not those its own earlier pages would add).
//
// # Budgets
//
// A page's encoding never costs more than the budget by the chosen
// tokenizer (o200k by default, or cl100k) counting the final bytes, and
// is tight: when units remain, the page with the next unit added costs
// more than the budget, by an exact count. The whole response is the page
// when it fits. When not even the next unit fits, Page fails with a
// *BudgetError whose Min is the smallest budget that gives a page there
// (for a response with no units, the empty page's cost). Binary codecs
// have no token count and are refused (ErrBinaryCodec); so are the
// estimating counters.
//
// The page served is the largest that fits wherever a page's cost grows
// with its units, which is what the encodings of the registered codecs
// do: a unit adds lines or fields, and the tokenizer's count of a text
// does not fall when text is added at its end but for the few tokens at
// the seam. Where adding a unit made the page cheaper by more than the
// unit costs (a seam merging into fewer tokens, and the budget landing
// exactly there), the search, which keeps a page that fits and a larger
// one that does not, could stop at a smaller page that is still tight by
// the rule above. The tests count, for every page over the corpus and
// generated responses, the pages with one, two and three more units, and
// find each over the budget.
//
// # Pricing
//
// Counting every candidate page from scratch would cost a full count per
// candidate. Instead, Segments cuts a text where both pre-tokenizers
// always start a new piece (line ends, and inside long lines such as
// compact JSON, before a digit that follows punctuation). A candidate
// page is encoded in full (a page's GOON is not a prefix of the whole's:
// nodes are sorted, edges de-duplicated, the header counts) and counted
// exactly, by tokenizing only the stretches of its segments that no text
// counted before held in that order: a segment followed by the same
// segment as in a text tokenized before has the same pieces, so its count
// is known (verify.go gives the argument). The first candidate is
// tokenized whole; the next ones share its lines, and tokenize only their
// headers, their cursor, the seams around them and the units not seen
// yet. A text with a blank or white-space-only line is always counted
// whole, since one piece of white space can span its line ends.
//
// The candidates are chosen by a model of the page's cost: the count of
// the empty page plus, for each unit, its weight (the lengths of its
// names, keys and values: no encoding) times the tokens per byte of
// weight the last candidate showed. The model proposes the next
// candidate from the last one; past a few proposals, halving between the
// largest candidate that fits and the smallest that does not ends the
// search (doubling while none has failed). So a search reads the weights
// and encodings of at most about twice the page's units, whatever lies
// beyond. When the weight of every unit left, at the rate last seen, is
// within the budget before any header is counted, the first candidate is
// all of them: if it fits, as it does for a response that fits whole and
// for most last pages, the page costs that one encoding and count, and
// the empty page is not counted; if not, it anchors the model.
//
// The segment property is tested on every corpus case in goon, toon,
// compact and indented JSON with both tokenizers, and on generated
// responses.
package fit
