package wirehttp

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Respond writes resp to w in the codec r negotiates, with Content-Type,
// Content-Length, Vary and a strong ETag, and answers a GET or HEAD whose
// If-None-Match holds that ETag with 304 and no body. Negotiation
// failures are written as WriteError writes them; a response the codec
// cannot encode is the server's fault, a 500 with a generic body (the
// error goes to Options.ErrorLog). The encoding held in memory is charged
// to Options.MaxInFlightBytes as it grows: past it, 503. Respond does not
// compress: wrap the handler with Wrap for that.
//
// A response of Options.StreamElements or more in a codec that
// implements wirecodec.StreamEncoder is encoded twice, first into the hash
// (for the ETag and Content-Length), then into the connection, so its
// encoding is never held in memory; every other response is encoded once
// into a buffer.
func (s *Server) Respond(w http.ResponseWriter, r *http.Request, resp *wire.GraphResponse) {
	c := s.budget.newCharge()
	defer c.release()
	s.respond(w, r, resp, c, false)
}

// errBusy and errTooLong stop an encoding that the budget cannot hold or
// that grows past the limit of a converted answer.
var (
	errBusy    = errors.New("wirehttp: in-flight bound reached")
	errTooLong = errors.New("wirehttp: answer longer than MaxInputBytes")
)

// respond is Respond charging c. An answer converted from the client's
// body (converted) may be at most MaxInputBytes long, what a reader of the
// same limits accepts, and an encoding failure is the body's (422), not
// the server's (500).
func (s *Server) respond(w http.ResponseWriter, r *http.Request, resp *wire.GraphResponse, c *charge, converted bool) {
	w.Header().Add("Vary", "Accept")
	i, err := s.negotiate(r, nil)
	if err != nil {
		s.WriteError(w, r, err)
		return
	}
	if err := s.validate(resp, converted); err != nil {
		s.WriteError(w, r, err)
		return
	}
	o := &s.offers[i]
	var limit int64 // 0: none
	if converted {
		limit = s.limits.MaxInputBytes
	}
	if se, ok := o.codec.(wirecodec.StreamEncoder); ok && s.streams(o, resp) {
		s.stream(w, r, o, se, resp, limit, converted)
		return
	}
	bp := bufPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooled {
			bufPool.Put(bp)
		}
	}()
	body, ctype, err := s.encodeCharged((*bp)[:0], o, resp, c, limit)
	*bp = body[:0]
	if err != nil {
		s.WriteError(w, r, s.encodeFailure(o, err, limit, converted))
		return
	}
	etag := etagOf(ctype, body)
	if !converted {
		s.answer(w, r, i, body, ctype, etag, resp)
		return
	}
	if s.writeHead(w, r, ctype, etag, int64(len(body))) {
		w.Write(body) //nolint:errcheck // the client went away; nothing to tell it
	}
}

// validate is nil, or the error answering resp when Options.Validate is
// set and resp is not valid for every codec served: the server's fault
// (500), or the client's body's when the answer is converted (422).
func (s *Server) validate(resp *wire.GraphResponse, converted bool) error {
	if s.served == nil {
		return nil
	}
	err := wirecodec.Validate(s.served, resp)
	if err == nil {
		return nil
	}
	if converted {
		return &Error{Status: http.StatusUnprocessableEntity, Err: err,
			Msg: fmt.Sprintf("the response is not valid for every format served (Options.Validate): %v", err)}
	}
	return fmt.Errorf("validating the response: %w", err) // WriteError: 500, logged
}

// encodeFailure is the *Error answering an encoding that failed.
func (s *Server) encodeFailure(o *offer, err error, limit int64, converted bool) error {
	switch {
	case errors.Is(err, errBusy):
		return &Error{Status: http.StatusServiceUnavailable, Err: err,
			Msg: "the server holds as many bytes in flight as it allows (MaxInFlightBytes); retry later"}
	case converted && errors.Is(err, errTooLong):
		return &Error{Status: http.StatusUnprocessableEntity, Err: err,
			Msg: fmt.Sprintf("the response in %s would be longer than the limit of %d bytes (MaxInputBytes)", o.info.Name, limit)}
	case converted:
		var ee *wire.EncodeError
		if errors.As(err, &ee) { // about the response's data: where and what
			return &Error{Status: http.StatusUnprocessableEntity, Err: err,
				Msg: fmt.Sprintf("the response cannot be written in %s: %v", o.info.Name, ee)}
		}
		s.opts.ErrorLog.Printf("wirehttp: encoding a converted response in %s: %v", o.info.Name, err)
		return &Error{Status: http.StatusUnprocessableEntity, Err: err,
			Msg: fmt.Sprintf("the response cannot be written in %s", o.info.Name)}
	}
	return fmt.Errorf("encoding %s: %w", o.info.Name, err)
}

const maxPooled = 4 << 20

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// streams reports whether Respond streams resp in o's codec.
func (s *Server) streams(o *offer, resp *wire.GraphResponse) bool {
	if s.opts.StreamElements < 0 || (s.opts.Envelope && !o.info.Binary) {
		return false
	}
	return len(resp.Nodes)+len(resp.Edges)+len(resp.Rows) >= s.opts.StreamElements
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, o *offer, se wirecodec.StreamEncoder, resp *wire.GraphResponse, limit int64, converted bool) {
	ctype := contentType(o.info)
	hc := newHashCounter(ctype)
	hc.max = limit
	if err := se.EncodeTo(hc, resp); err != nil {
		s.WriteError(w, r, s.encodeFailure(o, err, limit, converted))
		return
	}
	if !s.writeHead(w, r, ctype, hc.etag(), hc.n) {
		return
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	if err := se.EncodeTo(bw, resp); err == nil {
		bw.Flush() //nolint:errcheck // the client went away
	}
}

// chargeStep is the granularity of charges for bytes whose total is not
// known in advance: a body without Content-Length, an encoding.
const chargeStep = 1 << 20

// chargedBuffer is an io.Writer appending to buf, charging c ahead of
// its growth in chargeStep steps, and refusing to grow past max (0: no
// limit).
type chargedBuffer struct {
	buf     []byte
	c       *charge
	charged int64
	max     int64
}

func (b *chargedBuffer) Write(p []byte) (int, error) {
	n := int64(len(b.buf)) + int64(len(p))
	if b.max > 0 && n > b.max {
		return 0, errTooLong
	}
	if n > b.charged {
		step := max(chargeStep, n-b.charged)
		if !b.c.grow(step) {
			return 0, errBusy
		}
		b.charged += step
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// encodeCharged is encode charging c for the bytes held. An answer with
// a limit (converted from a client's body, whose size the client chose)
// in a codec that streams is written into a chargedBuffer, so that an
// encoding the budget cannot hold, or longer than limit, stops early;
// any other is encoded by AppendEncode and charged when it returns.
func (s *Server) encodeCharged(dst []byte, o *offer, resp *wire.GraphResponse, c *charge, limit int64) ([]byte, string, error) {
	if se, ok := o.codec.(wirecodec.StreamEncoder); ok && limit > 0 && !(s.opts.Envelope && !o.info.Binary) {
		cb := &chargedBuffer{buf: dst, c: c, max: limit}
		if err := se.EncodeTo(cb, resp); err != nil {
			return cb.buf, "", err
		}
		return cb.buf, contentType(o.info), nil
	}
	out, ctype, err := s.encode(dst, o, resp)
	if err != nil {
		return out, "", err
	}
	if limit > 0 && int64(len(out)) > limit {
		return out, "", errTooLong
	}
	if !c.grow(int64(len(out))) {
		return out, "", errBusy
	}
	return out, ctype, nil
}

// encode appends the body of resp in o's codec to dst, enveloped when the
// options say so, and returns it with its Content-Type.
func (s *Server) encode(dst []byte, o *offer, resp *wire.GraphResponse) ([]byte, string, error) {
	if s.opts.Envelope && !o.info.Binary {
		inner, err := o.codec.AppendEncode(nil, resp)
		if err != nil {
			return dst, "", err
		}
		rc := RowCount
		if s.opts.RowCount != nil {
			rc = s.opts.RowCount
		}
		out, err := appendEnvelope(dst, inner, string(resp.QueryType), rc(resp))
		if err != nil {
			return dst, "", err
		}
		return out, EnvelopeMediaType, nil
	}
	out, err := o.codec.AppendEncode(dst, resp)
	if err != nil {
		return dst, "", err
	}
	return out, contentType(o.info), nil
}

// Convert returns a handler for POST requests: it decodes the body by its
// Content-Type (DecodeRequest) and answers with the response in the
// format the request negotiates (Respond). Other methods get 405. The
// cheap checks come first: method, format and Accept (400, 406), content
// coding, Content-Type and Content-Length (415, 400, 413), the in-flight
// bound (503); only then is the body read and decoded. An answer that
// the chosen codec cannot write, or longer than MaxInputBytes, is 422:
// the client's body produced it.
func (s *Server) Convert() http.Handler {
	return s.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			s.WriteError(w, r, &Error{Status: http.StatusMethodNotAllowed, Msg: "method " + clip(r.Method) + " not allowed (allowed: POST)"})
			return
		}
		// Refuse an unacceptable answer before reading the body.
		if _, err := s.negotiate(r, nil); err != nil {
			s.linger(r)
			w.Header().Add("Vary", "Accept")
			s.WriteError(w, r, err)
			return
		}
		resp, c, err := s.decodeRequest(w, r)
		defer c.release()
		if err != nil {
			s.WriteError(w, r, err)
			return
		}
		s.respond(w, r, resp, c, true)
	}))
}
