package wiremcp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/wirestore"
)

// SessionHeader is the header field of an MCP session over streamable
// HTTP.
const SessionHeader = "Mcp-Session-Id"

// Handler returns the service's streamable HTTP handler (serve it at
// /mcp): the SDK's mcp.NewStreamableHTTPHandler over the service's
// server with opts (nil: the SDK's defaults). With Options.Shared its
// sessions go on on any replica (see the package doc, "Replicas"), and
// opts.SessionTimeout defaults to the store's Idle. With opts.Stateless,
// or without Options.Shared, it is the SDK's handler as it is.
func (s *Service) Handler(opts *mcp.StreamableHTTPOptions) http.Handler {
	var o mcp.StreamableHTTPOptions
	if opts != nil {
		o = *opts
	}
	if s.shared != nil && o.SessionTimeout == 0 {
		o.SessionTimeout = s.shared.sessions.Options().Idle
	}
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, &o)
	if s.shared == nil || o.Stateless {
		return inner
	}
	return &replicaHandler{svc: s, sh: s.shared, inner: inner}
}

// replicaHandler serves the SDK's streamable HTTP handler under ids of
// the service's own: a session the SDK opens here under its id is given
// to the client under a wirestore id (the key of its conversation), and
// a request under a service id whose session this process does not hold
// (another replica opened it, or the SDK closed it idle) re-creates it
// from the store before it is served.
type replicaHandler struct {
	svc   *Service
	sh    *shared
	inner http.Handler
}

func (h *replicaHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	vs := r.Header.Values(SessionHeader)
	if len(vs) == 0 {
		// A new session (initialize): the SDK's id is replaced by a new
		// service id in the answer.
		iw := &idWriter{ResponseWriter: w, h: h, ctx: r.Context(), user: tokenUser(r)}
		h.inner.ServeHTTP(iw, r)
		if iw.opened != nil {
			h.svc.settle(r.Context(), iw.opened)
		}
		return
	}
	ext := vs[0]
	if len(vs) > 1 || !wirestore.WellFormed(ext) {
		// Not an id this service issues: the SDK's own ids are never
		// the client's, so nothing of the SDK's table is reached.
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if e := h.sh.external(ext); e != nil {
		if h.serve(w, r, e, true) {
			return
		}
		h.sh.forget(e) // the SDK closed it: take it again from the store
	}
	if r.Method == http.MethodDelete {
		h.deleteStored(w, r, ext)
		return
	}
	e, status := h.adopt(r, ext)
	if e == nil {
		msg := "session not found"
		if status == http.StatusForbidden {
			msg = "session user mismatch"
		}
		http.Error(w, msg, status)
		return
	}
	h.serve(w, r, e, false)
}

// serve serves r in the SDK's session of e. With retry, a "not found"
// answered before the request's body was read is held back and false
// returned: the SDK no longer holds the session, and the caller takes it
// again from the store.
func (h *replicaHandler) serve(w http.ResponseWriter, r *http.Request, e *sessionEntry, retry bool) bool {
	r2 := r.Clone(r.Context())
	r2.Header.Set(SessionHeader, e.internal)
	var body *readCounter
	if r.Body != nil && r.Body != http.NoBody {
		body = &readCounter{rc: r.Body}
		r2.Body = body
	}
	iw := &idWriter{ResponseWriter: w, h: h, retry: retry, body: body}
	h.inner.ServeHTTP(iw, r2)
	if iw.held {
		return false
	}
	if r.Method == http.MethodDelete && iw.status/100 == 2 {
		h.sh.forget(e)
		_ = h.sh.sessions.DeleteValue(r.Context(), ConversationKind, e.external)
	}
	return true
}

// deleteStored ends a session this process does not hold: its record is
// deleted (the session's SDK state elsewhere ends at its idle timeout).
func (h *replicaHandler) deleteStored(w http.ResponseWriter, r *http.Request, ext string) {
	if _, status := h.stored(r, ext); status != 0 {
		http.Error(w, "session not found", status)
		return
	}
	_ = h.sh.sessions.DeleteValue(r.Context(), ConversationKind, ext)
	w.WriteHeader(http.StatusNoContent)
}

// stored returns the record of the session ext, or the status of a
// request under it: 404 when the store holds none (or cannot say), 403
// when it was opened with another user's token.
func (h *replicaHandler) stored(r *http.Request, ext string) (record, int) {
	v, err := h.sh.sessions.LoadValue(r.Context(), ConversationKind, ext)
	if err != nil {
		if !errors.Is(err, wirestore.ErrUnknownSession) {
			h.svc.opts.ErrorLog.Printf("wiremcp: loading a session opened elsewhere, answering not found: %v", err)
		}
		return record{}, http.StatusNotFound
	}
	rec, err := decodeRecord(v)
	if err != nil {
		return record{}, http.StatusNotFound
	}
	if rec.user != tokenUser(r) {
		return record{}, http.StatusForbidden
	}
	return rec, 0
}

// adopt re-creates in the SDK the session ext that the store records,
// under a new SDK id: an initialize request with the client's stored
// parameters and the initialized notification, through the SDK's own
// handler, in r's context (its token, its addresses). The calls of ext
// are serialized here, so a session is adopted once.
func (h *replicaHandler) adopt(r *http.Request, ext string) (*sessionEntry, int) {
	mu := h.sh.lock(ext)
	mu.Lock()
	defer mu.Unlock()
	if e := h.sh.external(ext); e != nil {
		return e, 0
	}
	rec, status := h.stored(r, ext)
	if status != 0 {
		return nil, status
	}
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":`)
	init = append(append(init, rec.init...), '}')
	rw := h.synthetic(r, "", init)
	internal := rw.header.Get(SessionHeader)
	if rw.status != http.StatusOK || internal == "" || !bytes.Contains(rw.body.Bytes(), []byte(`"result"`)) {
		h.svc.opts.ErrorLog.Printf("wiremcp: re-creating a session opened elsewhere: initialize answered %d", rw.status)
		return nil, http.StatusNotFound
	}
	e := &sessionEntry{internal: internal, external: ext, user: rec.user, adopted: true}
	h.svc.serveUnder(r.Context(), e)
	if !h.svc.settle(r.Context(), e) {
		return nil, http.StatusNotFound
	}
	rw = h.synthetic(r, internal, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`))
	if rw.status != http.StatusAccepted {
		h.svc.opts.ErrorLog.Printf("wiremcp: re-creating a session opened elsewhere: initialized answered %d", rw.status)
		h.sh.forget(e)
		return nil, http.StatusNotFound
	}
	return e, 0
}

// synthetic serves a POST of body, in session internal ("" for none),
// through the SDK's handler with r's context, host and addresses, and
// returns what it answered.
func (h *replicaHandler) synthetic(r *http.Request, internal string, body []byte) *recorder {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, r.URL.String(), bytes.NewReader(body))
	req.Host, req.RemoteAddr = r.Host, r.RemoteAddr
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if internal != "" {
		req.Header.Set(SessionHeader, internal)
	}
	rw := &recorder{header: http.Header{}}
	h.inner.ServeHTTP(rw, req)
	rw.status = cmp.Or(rw.status, http.StatusOK)
	return rw
}

// tokenUser is the user of r's token (package auth), "" without one.
func tokenUser(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return ""
}

// idWriter writes the SDK's answer with the service's id in place of the
// SDK's: for a new session (user set, no entry yet), a new id; with
// retry, a 404 before the body was read is held back.
type idWriter struct {
	http.ResponseWriter
	h      *replicaHandler
	ctx    context.Context
	user   string
	retry  bool
	body   *readCounter
	status int
	held   bool
	opened *sessionEntry // the new session this answer gave an id
}

func (w *idWriter) WriteHeader(code int) {
	if w.status != 0 {
		return
	}
	w.status = code
	if w.retry && code == http.StatusNotFound && (w.body == nil || !w.body.read) {
		w.held = true
		return
	}
	hd := w.ResponseWriter.Header()
	if id := hd.Get(SessionHeader); id != "" {
		e := w.h.sh.internal(id)
		if e == nil {
			e = &sessionEntry{internal: id, external: w.h.sh.sessions.NewID(), user: w.user}
			w.h.svc.serveUnder(w.ctx, e)
			w.opened = e
		}
		hd.Set(SessionHeader, e.external)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *idWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.held {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

func (w *idWriter) Flush() {
	if w.held {
		return
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *idWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// readCounter records whether a request's body was read.
type readCounter struct {
	rc   io.ReadCloser
	read bool
}

func (b *readCounter) Read(p []byte) (int, error) {
	b.read = true
	return b.rc.Read(p)
}

func (b *readCounter) Close() error { return b.rc.Close() }

// recorder keeps the answer to a synthetic request: status, header and
// the first 64 KiB of the body.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rw *recorder) Header() http.Header { return rw.header }

func (rw *recorder) WriteHeader(code int) {
	rw.status = cmp.Or(rw.status, code)
}

func (rw *recorder) Write(p []byte) (int, error) {
	rw.status = cmp.Or(rw.status, http.StatusOK)
	if room := 64<<10 - rw.body.Len(); room > 0 {
		rw.body.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (rw *recorder) Flush() {}
