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
// parameters given must match a codec's), and json when the request has
// no Content-Type. It reads at most the registry's Limits.MaxInputBytes
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
	if ct := r.Header.Get("Content-Type"); ct == "" {
		// No sniffer yet: a body without a type is read as json when
		// json is offered, else in the Default codec.
		i, ok := s.byName["json"]
		if !ok {
			i = s.def
		}
		c = s.offers[i].codec
	} else {
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
