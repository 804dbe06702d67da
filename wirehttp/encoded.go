package wirehttp

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// Encoded is a response already encoded by one of the Server's codecs,
// such as a fit page (fit.Result's Encoding, in Stats.Codec), or bytes an
// application keeps from an earlier encode. RespondEncoded serves it as
// it is, without encoding anything.
type Encoded struct {
	// Codec is the codec that wrote Body: a name or alias the Server
	// serves ("goon", "llm"), or a media type one of its codecs reads
	// ("text/x-goon; version=1.0.0").
	Codec string

	// Body is the encoding, sent as it is. The Server does not decode
	// it: it must be what the codec writes.
	Body []byte

	// ETag is the strong entity tag to send, quoted as HTTP writes it
	// (`"page-3-goon"`), for a caller that already has one; it must
	// change when Body does and differ between codecs. Empty means the
	// Server's own, the tag it gives any answer (SHA-256 over the
	// Content-Type and the body), which hashes Body on every request.
	ETag string

	// Response is what Body encodes. It is read only with
	// Options.Envelope, for a text codec: the envelope's query_type and
	// row_count come from it. Nil there is the server's fault (500).
	Response *wire.GraphResponse
}

// RespondEncoded answers r with one of encs, bytes already encoded, as
// Respond answers with a response it encodes: the codec is negotiated
// among those of encs by the same rules (?format=, Accept, the Default
// when it is among them, else the first of encs in the server's order),
// with the same Content-Type, Content-Length, Vary, ETag, 304 for a
// matching If-None-Match, HEAD without a body, and GKG's envelope around
// a text codec under Options.Envelope. A format or an Accept that names
// no codec of encs is 406, listing those of encs; an unknown format 400.
// Like Respond it does not compress: wrap the handler with Wrap, which
// suffixes the tag of a compressed answer as the package doc's
// Compression says.
//
// encs must be non-empty, each Codec served by the Server and given once,
// each ETag empty or a quoted strong tag: otherwise the request is
// answered 500, a fault of the server's, logged and reported.
func (s *Server) RespondEncoded(w http.ResponseWriter, r *http.Request, encs ...Encoded) {
	among, err := s.encodedOffers(encs)
	if err != nil {
		s.WriteError(w, r, err)
		return
	}
	w.Header().Add("Vary", "Accept")
	i, err := s.negotiate(r, slices.Sorted(slices.Values(among)))
	if err != nil {
		s.WriteError(w, r, err)
		return
	}
	o := &s.offers[i]
	e := &encs[slices.Index(among, i)]
	body, ctype, etag := e.Body, contentType(o.info), e.ETag
	if s.opts.Envelope && !o.info.Binary {
		if e.Response == nil {
			s.WriteError(w, r, fmt.Errorf("RespondEncoded: Options.Envelope needs Encoded.Response for %s", o.info.Name))
			return
		}
		rc := RowCount
		if s.opts.RowCount != nil {
			rc = s.opts.RowCount
		}
		if body, err = appendEnvelope(nil, body, string(e.Response.QueryType), rc(e.Response)); err != nil {
			s.WriteError(w, r, err)
			return
		}
		c := s.budget.newCharge() // the envelope is a copy held in memory
		defer c.release()
		if !c.grow(int64(len(body))) {
			s.WriteError(w, r, s.encodeFailure(o, errBusy, 0, false))
			return
		}
		ctype = EnvelopeMediaType
	}
	if etag == "" {
		etag = etagOf(ctype, body)
	}
	s.answer(w, r, i, body, ctype, etag, e.Response)
}

// encodedOffers returns the offer index of each of encs, in the order of
// encs (index k is encs[k]'s), or the server's fault that makes them
// unservable.
func (s *Server) encodedOffers(encs []Encoded) ([]int, error) {
	if len(encs) == 0 {
		return nil, fmt.Errorf("RespondEncoded: no encoding given")
	}
	among := make([]int, len(encs))
	for k, e := range encs {
		i := s.lookupOffer(e.Codec)
		if i < 0 {
			return nil, fmt.Errorf("RespondEncoded: Encoded.Codec %q is not a codec this Server serves (%s)", clip(e.Codec), s.names)
		}
		if slices.Contains(among[:k], i) {
			return nil, fmt.Errorf("RespondEncoded: two encodings in %s", s.offers[i].info.Name)
		}
		if e.ETag != "" && !validETag(e.ETag) {
			return nil, fmt.Errorf("RespondEncoded: Encoded.ETag %q is not a quoted strong entity tag", clip(e.ETag))
		}
		among[k] = i
	}
	return among, nil
}

// validETag reports whether t is a strong entity tag as RFC 9110 §8.8.3
// writes it: a quoted string of visible characters without '"'.
func validETag(t string) bool {
	if len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
		return false
	}
	return !strings.ContainsFunc(t[1:len(t)-1], func(c rune) bool {
		return c == '"' || c <= ' ' || c == 0x7f
	})
}
