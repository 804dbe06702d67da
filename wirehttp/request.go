package wirehttp

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// DecodeRequest reads r's body as a graph response, choosing the codec by
// the Content-Type (wire.Registry.LookupMediaType: type, subtype and the
// parameters given must match a codec's), or, when the request has no
// Content-Type, by what the body looks like (wire.Registry.Sniff: the most
// likely codec at a confidence of at least SniffConfidence), else json
// when offered, else the Default codec. It reads at most the registry's
// Limits.MaxInputBytes (through http.MaxBytesReader, which also tells the
// server to close the connection past it), and charges the body and its
// decode to Options.MaxInFlightBytes until it returns (Convert keeps the
// charge until its answer is written). Its errors are *Error values:
//
//   - 413 when the body is longer than MaxInputBytes (by Content-Length,
//     before reading, or as read), or a decoder refuses it by a limit
//     (wire.ErrLimit);
//   - 415 when the Content-Type names no registered codec, or the body has
//     a content coding other than identity;
//   - 503 (with Retry-After) when the in-flight bound cannot hold the body
//     and its decode;
//   - 408 when the body stops arriving before the connection's read
//     deadline (see NewHTTPServer);
//   - 400 when the Content-Type does not parse, the body ends early, or
//     the decoder refuses it; the message is the decoder's positioned
//     error (json: offset N, goon: line N), and Err the *wire.DecodeError.
//
// No message carries the connection's addresses or the server's text.
func (s *Server) DecodeRequest(w http.ResponseWriter, r *http.Request) (*wire.GraphResponse, error) {
	resp, c, err := s.decodeRequest(w, r)
	c.release()
	return resp, err
}

// decodeRequest is DecodeRequest returning the charge of the body and its
// decode, which the caller releases.
func (s *Server) decodeRequest(w http.ResponseWriter, r *http.Request) (*wire.GraphResponse, *charge, error) {
	if r.Body == nil {
		r.Body = http.NoBody
	}
	codec, err := s.checkRequest(r)
	if err != nil {
		s.linger(r)
		return nil, nil, err
	}
	c := s.budget.newCharge()
	data, err := s.readBody(w, r, c)
	if err != nil {
		return nil, c, err
	}
	if codec == nil {
		codec = s.sniff(data)
	}
	resp, err := codec.Decode(data)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, wire.ErrLimit) {
			status = http.StatusRequestEntityTooLarge
		}
		return nil, c, &Error{Status: status, Msg: err.Error(), Err: err}
	}
	return resp, c, nil
}

// checkRequest makes the checks that need no byte of the body: its
// length, content coding and type. It returns the codec the Content-Type
// names, nil when there is none.
func (s *Server) checkRequest(r *http.Request) (wire.Codec, error) {
	max := s.limits.MaxInputBytes
	if r.ContentLength > max {
		return nil, &Error{Status: http.StatusRequestEntityTooLarge,
			Msg: fmt.Sprintf("request body of %d bytes is longer than the limit of %d bytes (MaxInputBytes)", r.ContentLength, max)}
	}
	if ce := strings.TrimSpace(r.Header.Get("Content-Encoding")); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, &Error{Status: http.StatusUnsupportedMediaType,
			Msg: fmt.Sprintf("request content coding %q is not supported (send the body uncompressed)", clip(ce))}
	}
	var codec wire.Codec
	if ct := r.Header.Get("Content-Type"); ct != "" {
		var err error
		codec, err = s.reg.LookupMediaType(ct)
		if err != nil {
			if errors.Is(err, wire.ErrUnknownCodec) {
				return nil, &Error{Status: http.StatusUnsupportedMediaType,
					Msg: fmt.Sprintf("no codec reads Content-Type %q (accepted: %s)", clip(ct), s.types), Err: err}
			}
			return nil, &Error{Status: http.StatusBadRequest,
				Msg: fmt.Sprintf("Content-Type %q does not parse", clip(ct)), Err: err}
		}
	}
	return codec, nil
}

// decodeCharge is what a body of n bytes is charged: itself and its
// decode's working memory.
func decodeCharge(n int64) int64 { return (1+DecodeFactor)*n + DecodeOverhead }

// readBody reads r's body, at most MaxInputBytes, charging c: all of it at
// once by Content-Length, else chargeStep by chargeStep as it arrives.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, c *charge) ([]byte, error) {
	max := s.limits.MaxInputBytes
	busy := &Error{Status: http.StatusServiceUnavailable, Err: errBusy,
		Msg: "the server holds as many bytes in flight as it allows (MaxInFlightBytes); retry later"}
	if n := r.ContentLength; n >= 0 && !c.grow(decodeCharge(n)) || n < 0 && !c.grow(DecodeOverhead) {
		s.linger(r)
		return nil, busy
	}
	body := http.MaxBytesReader(w, r.Body, max)
	if n := r.ContentLength; n >= 0 {
		data := make([]byte, n)
		if _, err := io.ReadFull(body, data); err != nil {
			return nil, readFailure(err, max)
		}
		return data, nil
	}
	var data []byte
	var charged int64
	for {
		if int64(len(data)) == charged {
			if !c.grow((1 + DecodeFactor) * chargeStep) {
				s.linger(r)
				return nil, busy
			}
			charged += chargeStep
		}
		if len(data) == cap(data) {
			data = slices.Grow(data, int(min(charged-int64(len(data)), 64<<10)))
		}
		room := min(int64(cap(data)), charged)
		n, err := body.Read(data[len(data):room])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, readFailure(err, max)
		}
	}
}

// LingerTime bounds how long a refused body is read and discarded.
const LingerTime = 10 * time.Second

// linger reads and discards the body of a request refused before its
// body was read, at most MaxInputBytes of it and for at most LingerTime
// (and the connection's read deadline), into no buffer of its own: a
// client that sends its whole body before reading the answer (one without
// Expect: 100-continue) then gets the answer, where closing the
// connection on unread bytes can reset it before the client reads. A body
// declared longer than MaxInputBytes, or awaiting 100 Continue, is not
// read.
func (s *Server) linger(r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > s.limits.MaxInputBytes ||
		strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	end := time.Now().Add(LingerTime)
	for left := s.limits.MaxInputBytes; left > 0 && time.Now().Before(end); {
		n, err := io.CopyN(io.Discard, r.Body, min(left, chargeStep))
		left -= n
		if err != nil {
			return // the end of the body, or of the connection
		}
	}
}

// readFailure is the *Error for a body that could not be read. It never
// quotes the underlying error, which names the connection's addresses.
func readFailure(err error, max int64) error {
	var tooLong *http.MaxBytesError
	switch {
	case errors.As(err, &tooLong):
		return &Error{Status: http.StatusRequestEntityTooLarge,
			Msg: fmt.Sprintf("request body is longer than the limit of %d bytes (MaxInputBytes)", max), Err: err}
	case errors.Is(err, os.ErrDeadlineExceeded) || isTimeout(err):
		return &Error{Status: http.StatusRequestTimeout,
			Msg: "the request body did not arrive within the server's read timeout", Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &Error{Status: http.StatusBadRequest, Msg: "the request body ended before its Content-Length", Err: err}
	}
	return &Error{Status: http.StatusBadRequest, Msg: "the request body could not be read", Err: err}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// SniffConfidence is the least confidence (see wirecodec.Guess) at which
// DecodeRequest reads a body without Content-Type in the codec it looks
// like.
const SniffConfidence = 0.5

// sniff returns the codec to read a body without Content-Type in: the
// registry's most likely codec for data, if it is sure enough and serves
// it, else json when offered, else the Default codec.
func (s *Server) sniff(data []byte) wire.Codec {
	if g := wirecodec.Sniff(s.reg, data); len(g) > 0 && g[0].Confidence >= SniffConfidence {
		if i, ok := s.byName[g[0].Name]; ok {
			return s.offers[i].codec
		}
	}
	i, ok := s.byName["json"]
	if !ok {
		i = s.def
	}
	return s.offers[i].codec
}
