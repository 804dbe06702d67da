// Package wiremcp serves graph query tools to agents over MCP, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): a tool's
// handler returns a *wire.GraphResponse, and the service writes it in the
// format the call asks for, within its token budget, and in the
// conversation the MCP session is.
//
//	srv := mcp.NewServer(&mcp.Implementation{Name: "graph"}, nil)
//	svc, err := wiremcp.New(srv, wiremcp.Options{})
//	err = svc.AddTool(wiremcp.Tool{Name: "query_graph", Description: "...",
//		Input: schema, Handler: func(ctx context.Context, args json.RawMessage) (*wire.GraphResponse, error) { ... }})
//	err = srv.Run(ctx, &mcp.StdioTransport{})
//
// # Arguments
//
// Every tool takes, besides its own arguments (Tool.Input, a JSON Schema
// validated before the handler runs):
//
//   - format: any text codec of the registry, by name or alias, in any
//     case (json or raw, goon or llm, toon, gcf with the built-ins);
//     default DefaultFormat (Options.Format). A binary codec is refused.
//   - budget: the most o200k tokens the answer may cost. A result that
//     does not fit comes in pages (package fit), each with a next_cursor
//     in its pagination and in the result's _meta. Left out: the whole
//     result, however large.
//   - cursor: the next_cursor of the page before, with a budget.
//   - fresh: true starts the conversation over (see below) and sends the
//     whole result.
//
// # Conversations
//
// An MCP session is one conversation: over stdio the connection, over
// streamable HTTP the Mcp-Session-Id of the SDK's stateful handler (whose
// clients of the sessionless 2026-07-28 protocol fall back to 2025-11-25;
// with StreamableHTTPOptions.Stateless every call is a conversation of
// its own, answered whole). Within it:
//
//   - a node sent before and unchanged since goes as a reference: the
//     answer's header lists it in sent_earlier (delta.Session);
//   - a repeated call (the same tool, format and own arguments, with no
//     cursor) whose client holds the whole earlier answer gets the
//     format's unchanged marker when the result is the same (its
//     delta.Fingerprint, one hash of the result, is the one answered
//     before; the marker sends no node, so it refreshes none), and a delta
//     document (delta.AppendDelta) when it changed and the delta costs
//     less than Threshold (60%) of the full answer with its references
//     (delta.Choose); otherwise the full answer;
//   - a page leaves the call with no answer held: its repeat is answered
//     whole (or paged) again.
//
// Each tool's description ends with Guide, the few sentences that tell
// the model how to read references, deltas, the unchanged marker and
// pages; the header fields are named the same in every format. A result's
// _meta (MetaKey) names the format and the kind of answer: full, page,
// delta or unchanged.
//
// # Replicas
//
// With Options.Shared (a *wirestore.Sessions, in Redis or any store every
// replica shares) and the service's own HTTP handler (Service.Handler),
// a conversation goes on whichever replica a call lands on, and so does
// its MCP session. Behind a round-robin balancer, three replicas give an
// agent the same answers, references and deltas as one (go test -run
// TestReplicasShareConversations -v ./wiremcp).
//
// The SDK's stateful streamable-HTTP handler keeps its sessions in the
// process that opened them (another process answers 404, session not
// found), takes their ids from ServerOptions.GetSessionID, which is told
// nothing of the request, and its stateless mode drops Mcp-Session-Id
// (and so the conversation) altogether. So Handler keeps the SDK's
// stateful handler and gives each session an id of the service's own:
//
//   - at initialize, the SDK opens its session under its own id, which
//     the client never sees: the answer carries a new wirestore id
//     (Sessions.NewID, 128 random bits) instead, and the store records,
//     under the hash of that id (wirestore.Key, ConversationKind), the
//     client's initialize parameters (at most MaxInitializeBytes) and the
//     user of its token (package auth);
//   - a request under a service id is served in the SDK session it maps
//     to in this process; when there is none (another replica opened the
//     session, or the SDK closed it idle), Handler takes the record from
//     the store and opens the session again in the SDK, under a new
//     internal id, by sending the SDK's own handler the stored initialize
//     request and the initialized notification, in the request's context
//     (its token, its addresses); then it serves the request. A session
//     is taken over once per process at a time (its calls are serialized
//     on one of 256 locks its id hashes to). No id is handed to
//     GetSessionID, so nothing depends on which request the SDK asks it
//     for, and a service keeps its own ServerOptions;
//   - every tool call loads the conversation's record (the nodes sent,
//     as delta.Session's state, and the call keys and fingerprints of the
//     answers kept for deltas), answers, and saves it; a kept answer is
//     read from the store only when its call is repeated, under the hash
//     of its fingerprint (AnswerKind, shared by the conversations that
//     were sent the same answer), and checked against it.
//
// Any other id is the SDK's 404, session not found, and the client opens
// a new session: an id not of the service's form (forged, guessed in the
// SDK's form, 1 MB long, given twice) without a store call, one of the
// form that the store holds no record under after one read of its
// hashed key. A record opened with another user's token is refused, 403,
// as the SDK refuses it in the process that opened it. A client's id
// never becomes a key unhashed, and no record is read but the one of the
// id given.
//
// The store is an optimisation here too. When it is down or slow (each
// call at most the Sessions' Timeout), a call is answered whole, as in a
// new conversation, and the failure goes to ErrorLog; a replica still
// serves the sessions it holds, and a session it does not hold is a 404
// (the client opens a new one, which a round-robin balancer can only
// keep once the store is back). When the store answers again,
// conversations are stored again. A conversation idle past the Sessions'
// Idle leaves its record to expire (its time to live), and its kept
// answers after twice that; the SDK's sessions close after
// StreamableHTTPOptions.SessionTimeout, which Handler sets to Idle
// unless given. Two calls of one session at once on two replicas each
// save what they sent, the last one wins: a conversation then remembers
// less than its client holds (more whole answers), never more.
//
// Over stdio, and for sessions served by a handler other than Handler, a
// conversation stays in the process, as without Options.Shared.
//
// Bounds with Options.Shared: a record is the initialize parameters (at
// most MaxInitializeBytes), the node state (at most
// delta.MaxStateBytes of the Sessions' Limits, about 45 bytes a node) and
// about 100 bytes per kept answer (at most MaxBases); each kept answer is
// one value of wire's JSON (the store's value bound applies: an answer
// past it is not kept, its repeat is whole), shared by the conversations
// sent it. A replica holds, per session it serves, the SDK's session and
// an entry of two ids (SessionStats.SharedSessions), and per call the
// conversation it answers in; nothing between calls.
//
// # Format
//
// DefaultFormat is goon (alias llm): in scorecard.md it saves the most
// o200k tokens against JSON in every generated profile (37.1%, 31.8% and
// 47.4% medians for lean, dated and text-heavy) and on the Go standard
// library (24.9%), and its conversations with references and deltas cost
// the least. GOON is lossy (it truncates long strings, drops nulls); a
// service that needs every byte to reach the model sets Options.Format to
// toon, the best exact format there but for text-heavy data, where gcf
// is.
//
// # Errors
//
// A bad call is a tool error (the result's IsError) whose text says what
// to change: an unknown format lists the formats; a budget that is not a
// whole number from 1 to 2^31, or too small for the next page (its
// minimum); a cursor that is not a page's (fit.CheckCursor, before the
// tool runs, quoting at most 32 bytes of it), or of a result that changed
// since; arguments that do not match the tool's schema. A handler's error
// is the tool error, its message as it is.
//
// # Security
//
// What the service remembers is bounded by SessionLimits, whatever the
// clients do: at most MaxSessions conversations (default 128), each
// forgotten after IdleTimeout without a call (default 30 minutes) or
// when the least recently used past MaxSessions; in each, the nodes sent
// (delta.Session: 10,000 nodes and 4 MiB by default) and the answers
// kept for deltas (MaxBases 32 and MaxBaseBytes 4 MiB by default). So at
// most MaxSessions × (Nodes.MaxBytes + MaxBaseBytes), 1 GiB with the
// defaults, is remembered (Service.Stats). A forgotten conversation only
// makes its next answers whole: the service never sends a reference or a
// delta its client was not sent the base of. The SDK bounds a request
// (StreamableHTTPOptions.MaxRequestBodyBytes, 4 MiB; a stdio line,
// 16 MiB); a cursor is checked on its text before anything runs. Over
// HTTP, set StreamableHTTPOptions.SessionTimeout too, so that the SDK
// forgets its own sessions that were abandoned.
//
// 10,000 MCP sessions over streamable HTTP on loopback, each opened,
// calling a tool once and abandoned, with MaxSessions 64 and the SDK's
// SessionTimeout 3 s: the service remembered 64 conversations, 0.9 MB of
// nodes and 0.7 MB of answers counted; the heap peaked 31 to 46 MiB
// above the start (two runs) and settled 3 MiB above it once the SDK's
// sessions timed out (go test -run TestAbandonedSessions -v ./wiremcp).
// A call with a 1 MB cursor is a tool error at a peak heap of 20 to
// 24 MiB, client included, within 16 times its input plus 16 MiB
// (TestHugeCursorMemory).
package wiremcp
