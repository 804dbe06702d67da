package wirehttp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// DecodeRequest reads r's body as a graph response, choosing the codec by
// the Content-Type (wire.Registry.LookupMediaType: type, subtype and the
// parameters given must match a codec's), or, when the request has no
// Content-Type, by what the body looks like (wire.Registry.Sniff: the most
// likely codec at a confidence of at least SniffConfidence), else json
// when offered, else the Default codec. It reads at most the registry's Limits.MaxInputBytes
// (through http.MaxBytesReader, which also tells the server to close the
// connection past it). Its errors are *Error values:
//
//   - 413 when the body is longer than MaxInputBytes (by Content-Length or
//     as read), or a decoder refuses it by a limit (wire.ErrLimit);
//   - 415 when the Content-Type names no registered codec, or the body has
//     a content coding other than identity;
//   - 400 when the Content-Type does not parse, the body cannot be read,
//     or the decoder refuses it; the message is the decoder's positioned
//     error (json: offset N, goon: line N), and Err the *wire.DecodeError.
func (s *Server) DecodeRequest(w http.ResponseWriter, r *http.Request) (*wire.GraphResponse, error) {
	max := s.limits.MaxInputBytes
	if r.ContentLength > max {
		return nil, &Error{Status: http.StatusRequestEntityTooLarge,
			Msg: fmt.Sprintf("request body of %d bytes is longer than the limit of %d bytes (MaxInputBytes)", r.ContentLength, max)}
	}
	if ce := strings.TrimSpace(r.Header.Get("Content-Encoding")); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, &Error{Status: http.StatusUnsupportedMediaType,
			Msg: fmt.Sprintf("request content coding %q is not supported (send the body uncompressed)", clip(ce))}
	}
	var c wire.Codec
	if ct := r.Header.Get("Content-Type"); ct != "" {
		var err error
		c, err = s.reg.LookupMediaType(ct)
		if err != nil {
			if errors.Is(err, wire.ErrUnknownCodec) {
				return nil, &Error{Status: http.StatusUnsupportedMediaType,
					Msg: fmt.Sprintf("no codec reads Content-Type %q (accepted: %s)", clip(ct), s.types), Err: err}
			}
			return nil, &Error{Status: http.StatusBadRequest,
				Msg: fmt.Sprintf("Content-Type %q does not parse", clip(ct)), Err: err}
		}
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var tooLong *http.MaxBytesError
		if errors.As(err, &tooLong) {
			return nil, &Error{Status: http.StatusRequestEntityTooLarge,
				Msg: fmt.Sprintf("request body is longer than the limit of %d bytes (MaxInputBytes)", max), Err: err}
		}
		return nil, &Error{Status: http.StatusBadRequest, Msg: "reading the request body: " + err.Error(), Err: err}
	}
	if c == nil {
		c = s.sniff(data)
	}
	resp, err := c.Decode(data)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, wire.ErrLimit) {
			status = http.StatusRequestEntityTooLarge
		}
		return nil, &Error{Status: status, Msg: err.Error(), Err: err}
	}
	return resp, nil
}

// SniffConfidence is the least confidence (see wire.Guess) at which
// DecodeRequest reads a body without Content-Type in the codec it looks
// like.
const SniffConfidence = 0.5

// sniff returns the codec to read a body without Content-Type in: the
// registry's most likely codec for data, if it is sure enough and serves
// it, else json when offered, else the Default codec.
func (s *Server) sniff(data []byte) wire.Codec {
	if g := s.reg.Sniff(data); len(g) > 0 && g[0].Confidence >= SniffConfidence {
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
