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
// Conversations are not shared between processes: a conversation is an
// MCP session, and the SDK's stateful streamable-HTTP handler keeps its
// sessions in the process that opened them (a request whose
// Mcp-Session-Id another process issued is answered 404, session not
// found, and the client starts a new session). Its stateless mode drops
// Mcp-Session-Id altogether, so each call would be a conversation of its
// own; carrying one across calls would take an id of the service's own
// in the tool's arguments, which a model would have to copy from answer
// to answer, and which no MCP client sends by itself. So behind a load
// balancer, route by Mcp-Session-Id (sticky sessions) to keep
// conversations; "wirebench mcp -store" takes only memory. HTTP services
// (package wirehttp) share sessions and delta bases through package
// wirestore instead.
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
