// Package wirehttp serves graph responses over net/http in the format each
// client asks for, and reads them from request bodies. It answers ADR
// 003's question, "who is consuming this response?", with standard HTTP:
// the format query parameter, then Accept, then a default.
//
//	s, err := wirehttp.New(nil, wirehttp.Options{}) // nil: wire.DefaultRegistry()
//	if err != nil {
//		log.Fatal(err)
//	}
//	mux := http.NewServeMux()
//	mux.Handle("/graph", s.Static(resp))  // GET/HEAD, encoded once per format
//	mux.Handle("/convert", s.Convert())   // POST a body in any format
//	// or, per request: s.Respond(w, r, resp)
//	srv := wirehttp.NewHTTPServer(":8080", mux, wirehttp.HTTPServerOptions{})
//	log.Fatal(srv.ListenAndServe())
//
// That is a complete server, safe to expose: NewHTTPServer sets every
// connection limit (below, "Bounds"), and the Server bounds the memory
// of the requests in flight. Serving mux with http.ListenAndServe or a
// bare http.Server instead leaves slow clients free to hold connections
// and memory forever.
//
// A Server works with any *wire.Registry, user codecs included. Its codec
// set is fixed when New is called; see "The codec set". Bytes already
// encoded, such as a fit page's, are served by RespondEncoded; a client
// that holds an earlier answer can be sent only what changed (see
// "Deltas"), in a session that sends nodes delivered before as references
// (see "Sessions"); a Client fetches graph responses from another server,
// holding answers and sessions itself when asked (see "Client").
//
// # Choosing the codec
//
//  1. ?format=NAME, any registered name or alias in any case ("llm",
//     "RAW", "Toon"), wins over everything, Accept included (even an Accept
//     that excludes it). An unknown or empty name is 400, listing the
//     names and aliases.
//  2. Otherwise Accept (every Accept field, read as one list), per RFC
//     9110 §12.5.1: each codec gets the weight of the most specific media
//     range that matches its media type (Info().MediaType): a range with
//     parameters over one without, text/x-goon over text/*, text/* over
//     */*; among ranges equally specific, the first listed. Parameters
//     match by wirecodec.MediaTypeMatches: each one the range gives must equal
//     the codec's (names case-insensitive, values exact, quoted strings
//     unquoted), except charset=utf-8 on a text codec; so "text/x-goon;
//     version=1.0.0" matches GOON 1.0.0 and "version=2.0.0" does not.
//     q=0 excludes. The highest weight wins; ties go to the server's order.
//     No codec with a weight above zero is 406, listing the media types
//     offered.
//  3. No format and no Accept: Options.Default, json (ADR 003's raw).
//
// The server's order is Options.Preference, then the other codecs by
// name; without a Preference, the Default first, then the rest by name
// (json, cbor, goon, msgpack, toon for the built-ins). So "*/*" (curl's
// Accept) gives json, "application/*" json, "text/*" goon, and
// "text/toon, text/x-goon" goon.
//
// Only the first MaxAcceptRanges (64) non-empty elements of Accept are
// considered, and the first MaxETags (64) tags of If-None-Match: the rest
// is ignored (a format named only past the 64th range is not seen, a tag
// past the 64th does not match), so that negotiation costs the same
// microseconds whatever the header's size. Clients send a handful.
//
// Where RFC 9110 leaves room: an Accept element that does not parse (a
// bad q such as 1.5 or four decimals, "*/json", a missing slash) is
// skipped, and a field with no element that parses counts as absent
// (the default); parameters after q (RFC 7231's accept-ext) are ignored;
// a wildcard range with parameters ("*/*; charset=utf-8") still requires
// them.
//
// # Writing
//
// Every answer to a negotiated request carries Vary: Accept (and Vary:
// Accept-Encoding when compression is on), Content-Type (the codec's
// media type, with "; charset=utf-8" for a text codec, Info().Binary
// false), Content-Length, and a strong ETag: the first 144 bits of
// SHA-256 over the Content-Type, a NUL byte and the body, base64url,
// quoted. Codecs are deterministic, so an unchanged response keeps its
// tag, and a client that sends it back in If-None-Match (GET or HEAD) gets
// 304 Not Modified with no body: an unchanged result costs an agent no
// tokens. If-None-Match uses the weak comparison RFC 9110 §13.1.2 asks
// for (W/ ignored), takes lists, several fields and "*", and skips what
// does not parse; the 304 carries the tag that matched, and no
// Content-Type. Other methods never get a 304.
//
// Errors are text/plain, one line, with a status that blames the side at
// fault: 400 (unknown format, malformed Content-Type, undecodable body),
// 405 (with Allow), 406, 408 (a request body that stopped arriving), 413
// (past MaxInputBytes, or a decoder's limit), 415, 422 (an answer
// converted from the client's body that the chosen codec cannot write,
// or that would be longer than MaxInputBytes), 503 with Retry-After: 1
// (past the in-flight bound), and 500 only for the server's own faults,
// such as a codec that cannot encode the server's own response: its
// body is a generic line ("wirehttp: internal server error"), its cause
// goes to Options.ErrorLog with the request's method and path. No error
// body carries a socket address, a file path or a Go error's text other
// than a decoder's or encoder's positioned message (a response the server
// cannot encode, say a NaN in json, is a 500 whose body does not quote
// the encoder: its path and value are the server's data). Every error is
// an *Error, which callers can inspect with errors.As.
//
// Options.OnError, when set, is called for every error answer, the
// client's and the server's, with the request and the *Error answered
// (a fault that was no *Error comes as one of status 500 with the fault
// in Err): count them by status, or log them the service's own way. It
// complements ErrorLog rather than replacing it: ErrorLog keeps logging
// the server's own faults, and log.New(io.Discard, "", 0) silences it.
// Handlers of your own answer through WriteError(w, r, err) to get the
// same status rules, log and hook.
//
// With Options.Validate the Server checks a response before encoding it,
// for the model and for every codec it serves (wire.Registry.Validate),
// so that one response gets one verdict whatever format a client asks
// for: a response goon cannot carry (Type "Merge Request") is a 500 in
// json, cbor and every other format too, not only for agent clients, and
// OnError's *Error holds the *wirecodec.ValidationError naming each refusing
// codec and its path (errors.As). It is the server's fault, hence 500
// with the generic body; a response converted from the client's body
// (Convert) that fails is 422 with the validation's message. Static
// validates once, Respond on every call (about one encoding per served
// codec); RespondEncoded serves bytes already encoded and does not.
//
// # The codec set
//
// A Server serves the codecs its registry held when New was called,
// never more: negotiation, Static's encodings, Catalog's index and the
// lists in error messages all agree on that set for the Server's life.
// Register user codecs before New, or build a new Server after
// registering one (New is cheap) and switch handlers. A codec registered
// later is deliberately not served, and not silently either: a request
// for it (?format= one of its names, or an Accept only it matches) is
// answered 400 or 406 as for any codec not offered, its *Error matches
// ErrCodecNotServed (and OnError sees it), and the first such request
// for each codec writes to ErrorLog that the codec was registered after
// New. Server.Codecs lists the set.
//
// # Bytes already encoded
//
// RespondEncoded answers with bytes a codec already wrote, a fit page's
// Encoding for instance, without encoding anything: Encoded names the
// codec (a name, alias or media type), the bytes, and optionally the
// ETag to send (else the Server's own over the bytes, the same tag
// Respond and Static give the same bytes). The request negotiates among
// the encodings given, by the rules above: a format or Accept that names
// a served codec not among them is 406, listing those that are. ETag,
// 304, HEAD, Vary and the envelope are those of any answer; compression
// that of Wrap. An encoding the Server cannot serve (a codec it does not
// serve, two in one codec, an ETag that is not a quoted strong tag) is
// the server's fault, 500.
//
// Hashing needs the bytes before the first header is sent. Static encodes
// each format once, on its first request, and keeps bytes and tag.
// Respond encodes into a pooled buffer, except a response of at least
// Options.StreamElements nodes + edges + rows (default 50,000) in a codec
// that implements wirecodec.StreamEncoder: that one is encoded twice, first
// into the hash and a byte count (ETag, Content-Length, the 304 decided
// there), then straight into the connection. Its encoding is never held
// in memory, for twice the encoding time; determinism makes the two
// passes agree. An enveloped response is always buffered.
//
// # GKG's envelope
//
// With Options.Envelope, the output of every text codec is wrapped as GKG
// wraps query results for its REST API: the JSON object GitLab Workhorse
// writes for a GKG query (its queryResponse) with the same fields in the
// same order, result, query_type, raw_query_strings (omitted: graphwire has
// no SQL to show) and row_count, written by encoding/json's Encoder as
// Workhorse writes it (compact, <, > and & escaped as \u003c, \u003e,
// \u0026, one trailing newline), so the bytes are GKG's for the same
// result text. As there, an output that is valid JSON (the json codec's
// object) is embedded as it is, any other text (goon, toon) as a JSON
// string: ADR 012's "{result: "<goon-text>", query_type, raw_query_strings,
// row_count}", which it calls a workaround (GKG has since moved format=llm
// to a bare text/plain body, which is what this package sends without the
// option). The Content-Type is application/json, as GKG sends it. Binary
// codecs are never enveloped. row_count is RowCount (or Options.RowCount):
// GKG counts the SQL rows of the page, which a GraphResponse does not
// keep, so it is derived from the query type.
//
// # Deltas
//
// The Server implements RFC 3229 delta encoding with the instance
// manipulation DeltaIM, "graphwire-delta": a GET or HEAD whose A-IM names
// it (any case, a q of 0 excludes it; the first MaxIMs, 64, elements
// read) and whose If-None-Match holds the ETag of an answer the client
// holds is answered
//
//	226 IM Used   when the Server keeps that base and the delta is worth it:
//	              IM: graphwire-delta, Delta-Base: the client's tag, ETag:
//	              the current answer's (the tag the client holds once it
//	              applied the delta), Cache-Control: no-store, im,
//	              Content-Type: the codec's, and as the body the delta
//	              (package delta) as a document of the codec;
//	304           when nothing changed (the current tag is among the
//	              client's, as for any request, or the base reads as the
//	              same response);
//	200           with the full answer otherwise.
//
// The client decodes the body with delta.DecodeWith (or
// delta.DecodeDelta) and applies it with delta.Patch to the response it holds,
// decoded from the bytes it was sent: it gets exactly the response it
// would decode from the full answer, or an error (a wrong base, a
// damaged delta), never a wrong response.
//
// Only a codec that writes documents (delta.DocumentCodec, every built-in
// codec) answers 226; any other codec
// answers 200 and keeps no base, whatever A-IM says. So do text codecs
// under Options.Envelope (the delta is not enveloped), responses Respond
// streams (Options.StreamElements or more), Convert's answers (POST), and
// requests without A-IM: a client that does not ask for deltas costs the
// cache nothing.
//
// A delta is worth it when it costs less than Options.Delta.Threshold
// (default 0.60, GCF's rule, delta.Worth) of the full answer: in tokens
// of o200k (package tokens) for a text codec, in bytes for a binary one.
// The Server decodes the base and the current answer with the codec, as
// the client reads them, and diffs those (delta.Choose), so that a codec
// that is not lossless (toon writes 1.0 as 1) still patches into exactly
// what the full answer decodes to.
//
// Computed deltas. That work (two decodes, a diff, the delta written,
// and for a text codec the tokens of both counted) costs far more than
// serving the full answer: about a second of CPU for a 5 MB json answer,
// against a millisecond or two for a plain GET. So it is done once per
// base, current answer and codec, and its outcome kept: the delta, or
// the decision to send the full answer (200) or a 304; every later
// request for it is answered from the cache. The cache is keyed by the
// two tags (without a coding suffix) and the codec, which name the
// bytes, and bounded by count and bytes, Options.Delta.MaxDeltas
// (DefaultMaxDeltas, 1,024) and MaxDeltaBytes (DefaultMaxDeltaBytes,
// 16 MiB, each counting its delta, its two tags and 192 bytes of
// bookkeeping), least recently used evicted first; a delta larger than
// MaxDeltaBytes is sent but not kept. The token count of a current
// answer, most of the work, is kept beside them (at most MaxDeltas
// counts, a couple of hundred bytes each), so that the deltas from many
// bases to one answer count it once.
//
// The whole Server computes at most Options.Delta.MaxComputations
// (DefaultMaxComputations, 2) deltas at once. Requests for a delta
// being computed wait for that computation and share its outcome (or
// leave when their request ends); a request for one neither kept nor
// being computed, when that many are running, gets the full answer (200)
// at once rather than queue. Each computation is charged to
// MaxInFlightBytes as two decodes, 2 x DecodeOverhead + DecodeFactor x
// both bodies, plus the delta written, for as long as it runs. A charge
// that does not fit, or a codec that cannot read its own output (logged
// to ErrorLog), falls back to 200, never to an error answer, and is not
// kept: the next request tries again. So a burst of clients each
// holding a different older answer costs at most MaxComputations
// computations' memory and CPU at a time; those answered 200 hold the
// current answer, and those asking again later get their delta from the
// cache.
//
// Bases. Each body the Server answers a request with A-IM (for a codec
// with a delta syntax) is kept, a copy, keyed by its ETag, in a cache
// bounded by count and bytes, Options.Delta.MaxBases (default
// DefaultDeltaBases, 1,024) and MaxBytes (DefaultDeltaBytes, 64 MiB,
// each base counting its body, its tag and 160 bytes of bookkeeping),
// least recently used evicted first; a body larger than MaxBytes alone
// is never kept. Measured: 8 clients offering 10,000 distinct 7 KiB
// bases keep the cache at 1,123 bases and 8.0 MiB under an 8 MiB bound,
// and the live heap grows 9.1 MiB. A base is found by its tag whatever
// URL served it (the tag names bytes, not a URL), among the client's
// tags in order, the first kept in the codec negotiated now; a base in
// another codec is not a base. With compression, a client's tag of a
// compressed variant ("...-gzip") names the same base, and the 226 is
// compressed and its tag suffixed as any answer. An evicted base is a
// 200 with the full answer, the state the client starts from, unless
// its delta to the current answer is still kept ("Computed deltas").
// Options.Delta.Off turns all this off. Static, Catalog, Respond and
// RespondEncoded all answer this way. Replicas of a service share their
// bases through a wirestore.Store such as Redis with Options.Delta.Shared
// (SharedBases), so that a client's next request finds its base on
// whichever replica it lands; a store down or slow makes the answer
// whole, never an error.
//
// # Sessions
//
// With Options.Sessions (a *wirestore.Sessions: in memory, or in a store
// such as Redis that every replica shares) the Server keeps
// conversations. A GET that sends the header SessionHeader,
// "Graphwire-Session", with the value SessionNew ("new") opens one; the
// answer carries SessionHeader with the session's id, 128 bits from
// crypto/rand in 22 characters of base64url issued by the server, which
// the client sends back on every later request. Within a session the
// nodes the session sent before, unchanged since, are written as
// references (package delta, "Sessions": sent_earlier and
// sent_earlier_at in the document's header), in the full answer and in
// a 226 alike: a delta's content is written in the session too
// (delta.Session.EncodeDelta), so one answer is a delta whose content
// names nodes sent earlier, and its reader (delta.Session.Patch) puts
// them back before applying it. A reader without the session cannot
// read such a delta (delta.DecodeDelta refuses it): deltas and
// references go together only within a session. A service does not
// write references into the responses or bytes it gives the Server
// (Respond, Static, RespondEncoded take whole answers, which every
// client can read and every delta is computed from); Options.Sessions
// writes them, per client.
//
// The ETag of an answer in a session is the tag of the whole answer, as
// without a session (the body differs: it is the text with references),
// so that If-None-Match, 304 and RFC 3229 bases work as they do for
// every client; a reader checks what it resolved by encoding it and
// comparing tags (the Client does). Answers in a session carry
// Cache-Control: no-store and Vary: Graphwire-Session. A 304 changes
// nothing in the session; only answers written in it (200 and 226 to a
// GET, in a codec with documents and not enveloped) are remembered, and
// only those carry SessionHeader, so a reader resolves exactly the
// answers that carry it. HEAD, POST, streamed answers and enveloped text
// are answered outside the session.
//
// Ids are the server's: an id the store does not hold (never issued,
// forged, expired, evicted, of another form) opens a new session under a
// new id, with no references, never an error; a store that fails does
// the same, and is logged to ErrorLog. A client that gets another id
// than it sent starts its reader's session anew, so the two stay in
// step. A SessionHeader value longer than MaxSessionHeaderBytes (64), or
// the field given twice, is 400; past HTTPServerOptions.MaxHeaderBytes
// (64 KiB) net/http answers 431. The requests of one session are
// answered one at a time (the session's state is loaded, written and
// saved under one of 256 locks the ids hash to); a client sends them in
// sequence.
//
// Bounds are those of the store (wirestore.SessionOptions): each session
// remembers at most delta.SessionLimits (10,000 nodes, 16 MiB counted),
// a session not used for Idle (30 minutes) is gone, and the in-memory
// store keeps at most MaxSessions (10,000) sessions and 64 MiB of their
// states, least recently used forgotten first. Measured: 3,000 sessions
// opened and abandoned, each answered 200 nodes, against a store of 500
// keep 500 sessions (4.3 MB of state) and grow the live heap 5 MB.
// Writing an answer in a session costs an encoding of the response in
// the session beside the whole answer (whose tag is sent), and for a
// codec that is not exact (GOON, TOON, GCF) a decode of it, since the
// session remembers what the reader will hold.
//
// # Compression
//
// Options.Compress wraps the handlers in github.com/klauspost/compress's
// gzhttp with its defaults: bodies of 1 KiB or more, gzip or zstd (zstd
// when the client accepts both), Vary: Accept-Encoding. A compressed
// answer's ETag gets "-gzip" or "-zstd" inside the quotes
// (gzhttp.SuffixETag), since its bytes differ; If-None-Match matches
// those tags of the same body too. gzhttp never compresses an answer to
// HEAD, so a HEAD carries the identity Content-Length and tag.
//
// # Reading
//
// DecodeRequest (and Convert) read a body by its Content-Type through
// wire.Registry.LookupMediaType, at most Limits.MaxInputBytes of the
// registry (http.MaxBytesReader): 413 past it, whether Content-Length
// says so or the body runs on; 413 too when a decoder refuses the body by
// one of its Limits (wire.ErrLimit); 415 for a type no codec reads or a
// content coding other than identity; 400 for a malformed Content-Type
// and for a body the codec refuses, with its positioned error (json:
// offset N, goon: line N). A body without Content-Type is read in the
// codec it looks like (wire.Registry.Sniff, at a confidence of at least
// SniffConfidence), else as json. Convert makes the cheap checks first
// (method, format name and Accept, content coding, Content-Type,
// Content-Length, the in-flight bound) and only then reads and decodes
// the body.
//
// # Bounds
//
// A Server bounds the memory its requests in flight hold at once,
// Options.MaxInFlightBytes, by default DefaultMaxInFlightBytes of the
// registry's MaxInputBytes: 2 x (17 x MaxInputBytes + 16 MiB), 2,208 MiB
// with the default 64 MiB, room for the two largest bodies the limits
// allow to be decoded at once. A body is charged what its decode may hold
// by the decoders' documented bound: its bytes, DecodeFactor (16) times
// its bytes, and DecodeOverhead (16 MiB); all at once by Content-Length
// (a Content-Length past MaxInputBytes is 413 before anything is read),
// or 1 MiB at a time as a body without one arrives. An answer encoded
// into memory (Respond, Convert) is charged as it grows. A charge that
// does not fit is refused at once with 503 and Retry-After: 1, before
// the memory is taken; one request is never charged more than the whole
// bound, so that the largest body allowed can always run alone. The
// charge is returned when the handler returns. The body of a request
// refused before it was read (503, 415, 406 ...) is read and discarded,
// into no buffer, for at most LingerTime (10 s) and MaxInputBytes, so
// that a client that sends its whole body before reading gets its answer
// rather than a reset connection; a body awaiting 100 Continue, or
// declared longer than MaxInputBytes (413), is not read at all. Static's encodings, made
// once and kept, are not charged, nor are the bases and computed deltas
// kept for RFC 3229, bounded by their own options; a delta computation is
// charged while it runs, and at most Options.Delta.MaxComputations run
// at once (see "Deltas").
//
// Freed memory goes back to the operating system only slowly on its own
// (the Go scavenger); so when the server goes idle after requests were
// charged 64 MiB or more, it calls debug.FreeOSMemory after
// Options.FreeMemoryAfter (1 s), at most once every 5 s. Measured: the
// RSS of a server after a burst of 60 MB bodies returns within twice its
// idle level within seconds.
//
// NewHTTPServer returns an *http.Server with every connection limit set
// (HTTPServerOptions; zero fields take the defaults):
//
//	ReadHeaderTimeout  10 s      request line and headers (slow headers are dropped)
//	ReadTimeout        1 min     the whole request: a stalled body is answered 408
//	WriteTimeout       2 min     headers read to answer written: a client that does not read is dropped
//	IdleTimeout        2 min     between requests on a kept-alive connection
//	MaxHeaderBytes     64 KiB    past it net/http answers 431
//
// With both, a peak of resident memory stays under MaxInFlightBytes plus
// the process's idle level and a few hundred MiB of runtime headroom and
// connection buffers, however many clients come and however slowly.
//
// # Client
//
// A Client fetches graph responses over HTTP from any server that
// negotiates by Accept (this package's, or GKG's):
//
//	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "llm"})
//	...
//	for page, err := range c.Pages(ctx, "https://host/api/graph?q=...") {
//		if err != nil {
//			return err // an *Error for a status of 300 or more
//		}
//		use(page)
//	}
//
// It asks for ClientOptions.Format by its media type in Accept (every
// codec of the registry when empty), reads the answer within the
// registry's Limits.MaxInputBytes (wire.ErrLimit past it, checked by
// Content-Length before reading), and decodes it by its Content-Type
// through wire.Registry.LookupMediaType, whatever format the server
// chose; an answer without Content-Type is read as it looks. Pages
// follows schema v5's next_cursor, putting it in the CursorParam query
// parameter ("cursor") of the same URL, until a page has none; a cursor
// given twice is an error, not a loop. The Client reads an answer in
// chunks as it arrives (wire.Registry.DecodeFrom, one response per body)
// and decodes it once read, as the codecs decode from bytes: memory is
// bounded by the limit. It does not unwrap GKG's envelope.
//
// A re-query loop is a few lines with ClientOptions.Deltas and Session:
//
//	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "goon", Deltas: true, Session: true})
//	...
//	for {
//		resp, err := c.Get(ctx, url) // the whole response, as GOON carries it
//		...
//	}
//
// With Deltas the Client sends A-IM: graphwire-delta on every GET, keeps
// each answer (the response, its codec and its ETag) by URL, at most
// MaxHeld (256) answers and MaxHeldBytes (64 MiB, each counted as
// wirecodec.InMemorySize), and asks for a URL it holds with its tag in
// If-None-Match: a 304 returns the response held (the same value each
// time: treat it as read-only), a 226 is applied to it (delta.Patch,
// whose check verifies base and result). With Session it sends
// SessionHeader (SessionNew first, then the id it was given), resolves
// the references of the answers that carry the header through its own
// delta.Session (SessionLimits, which must be the server's), and checks
// what they resolve to against the answer's ETag. An answer that does not
// apply (a delta for another base or that fails its check, a reference
// the session cannot resolve, a tag that does not match) makes it forget
// what it holds for the URL, start a new session and ask once more
// without A-IM and If-None-Match; a second failure is an error. The
// requests of a Client with Deltas or Session are sent one at a time.
package wirehttp
