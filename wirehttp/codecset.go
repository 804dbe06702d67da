package wirehttp

import (
	"fmt"
	"net/http"
	"strings"
)

// The codec set of a Server is the registry's when New was called (the
// offers). A registry only grows, so a codec the registry holds and the
// offers lack was registered after New: it is refused as any codec not
// offered, and reported, so that the staleness is never silent.

// unknownFormat is the *Error answering ?format=name for a name no offer
// has: 400, matching ErrCodecNotServed when the registry knows the name.
func (s *Server) unknownFormat(r *http.Request, name string) error {
	e := &Error{Status: http.StatusBadRequest,
		Msg: fmt.Sprintf("unknown format %q (have: %s)", clip(name), s.names)}
	if name == "" {
		return e
	}
	if c, err := s.reg.Lookup(name); err == nil {
		e.Msg = fmt.Sprintf("format %q is registered but not served by this server (have: %s)", clip(name), s.names)
		e.Err = ErrCodecNotServed
		s.reportLate(r, c.Info().Name)
	}
	return e
}

// lateAccept returns ErrCodecNotServed when an Accept field that no offer
// satisfies would be satisfied by a codec registered after New (and
// reports it), nil otherwise. It runs only on the way to a 406.
func (s *Server) lateAccept(r *http.Request, accept []string) error {
	infos := s.reg.List()
	if len(infos) == len(s.offers) {
		return nil // nothing registered since
	}
	var late []offer
	for _, info := range infos {
		if _, served := s.byName[info.Name]; served {
			continue
		}
		c, err := s.reg.Lookup(info.Name)
		if err != nil {
			continue
		}
		o, err := newOffer(c, info)
		if err != nil {
			continue // a media type that does not parse matches nothing
		}
		late = append(late, o)
	}
	if len(late) == 0 {
		return nil
	}
	i, _, _ := choose(accept, late, make([]rangeMatch, len(late)))
	if i < 0 {
		return nil
	}
	s.reportLate(r, late[i].info.Name)
	return ErrCodecNotServed
}

// reportLate writes to ErrorLog, once per codec, that a request asked
// for a codec registered after New.
func (s *Server) reportLate(r *http.Request, name string) {
	name = strings.ToLower(name)
	if _, done := s.late.LoadOrStore(name, true); done {
		return
	}
	s.opts.ErrorLog.Printf("wirehttp: %s: codec %q was registered after wirehttp.New and is not served; "+
		"build the Server after registering every codec (reported once)", requestLine(r), name)
}

// listOf lists the names (or, with types, the media types) of the offers
// among, for the messages of a negotiation among some offers only.
func (s *Server) listOf(among []int, types bool) string {
	out := make([]string, len(among))
	for k, i := range among {
		if types {
			out[k] = s.offers[i].info.MediaType
		} else {
			out[k] = s.offers[i].info.Name
		}
	}
	return strings.Join(out, ", ")
}

// lookupOffer returns the index of the offer of a codec given by name or
// alias, or by media type (a string holding '/'), or -1.
func (s *Server) lookupOffer(codec string) int {
	if i, ok := s.byName[lower(codec)]; ok {
		return i
	}
	if !strings.Contains(codec, "/") {
		return -1
	}
	c, err := s.reg.LookupMediaType(codec)
	if err != nil {
		return -1
	}
	// A registry only grows: the name of a served codec is still its own.
	if i, ok := s.byName[strings.ToLower(c.Info().Name)]; ok {
		return i
	}
	return -1
}
