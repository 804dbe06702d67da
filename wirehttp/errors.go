package wirehttp

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a request the Server refuses, with the HTTP status it answers
// and a message saying what is wrong and what is offered. Negotiate and
// DecodeRequest return it, WriteError writes it, and Options.OnError
// receives one for every error answer. A Client returns one for an
// answer of status 300 or more, with the upstream's status and the first
// line of its body.
type Error struct {
	Status int    // http.StatusBadRequest, StatusNotAcceptable, ...
	Msg    string // one line
	Err    error  // the underlying error, such as a *wire.DecodeError
}

func (e *Error) Error() string { return "wirehttp: " + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// ErrCodecNotServed is matched (errors.Is) by the *Error of a request
// that names, by ?format= or by Accept, a codec that the registry holds
// but the Server does not serve: one registered after New. The Server
// serves the codecs registered when it was built, never more; such a
// request is answered as for any codec not offered (400 or 406), and the
// first one for each codec is also written to Options.ErrorLog, since it
// is the server's configuration that is wrong.
var ErrCodecNotServed = errors.New("codec registered after the Server was built: not served")

// internalMsg is the whole body of a 500: nothing of its cause.
const internalMsg = "internal server error"

// WriteError answers r with err: the status of an *Error and its message
// as one line of text. Any other error, and an *Error of status 500, is
// the server's own fault: it goes to Options.ErrorLog with r's method and
// path, and the client gets 500 with a generic line ("wirehttp: internal
// server error"), never the error's text. Either way Options.OnError, if
// set, is called with r and the *Error answered (for a fault that was no
// *Error, one of status 500 whose Err is the fault), after the answer is
// written. A 503 carries Retry-After: 1; 408, 413 and 503 close the
// connection, whose request body may be unread.
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var he *Error
	if !errors.As(err, &he) || he.Status < 400 || he.Status > 599 {
		he = &Error{Status: http.StatusInternalServerError, Msg: internalMsg, Err: err}
	}
	status, msg := he.Status, he.Error()
	if status == http.StatusInternalServerError {
		msg = "wirehttp: " + internalMsg
		s.opts.ErrorLog.Printf("wirehttp: %s: %v", requestLine(r), err)
	}
	h := w.Header()
	h.Del("ETag")
	h.Del("Content-Length")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	switch status {
	case http.StatusServiceUnavailable:
		h.Set("Retry-After", "1")
		h.Set("Connection", "close")
	case http.StatusRequestTimeout, http.StatusRequestEntityTooLarge:
		h.Set("Connection", "close")
	}
	w.WriteHeader(status)
	fmt.Fprintln(w, msg)
	if s.opts.OnError != nil {
		s.opts.OnError(r, he)
	}
}

// requestLine is r's method and quoted path for a log line, clipped.
func requestLine(r *http.Request) string {
	if r == nil {
		return "(no request)"
	}
	path := ""
	if r.URL != nil {
		path = r.URL.Path
	}
	return fmt.Sprintf("%s %q", clip(r.Method), clip(path))
}
