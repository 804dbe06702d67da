package wirehttp

import (
	"context"
	"errors"
	"hash/maphash"
	"net/http"
	"strconv"
	"sync"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// SessionHeader is the header field of a conversation (see the package
// doc, "Sessions"): a client sends SessionNew to open one, then the id
// the Server answered with; the Server sends the id with every answer
// written in the session.
const SessionHeader = "Graphwire-Session"

// SessionNew is the SessionHeader value by which a client asks for a new
// session.
const SessionNew = "new"

// MaxSessionHeaderBytes is the longest SessionHeader value the Server
// reads; a longer one, or the field given twice, is answered 400.
const MaxSessionHeaderBytes = 64

// sessionLocks serialize the requests of one session (a conversation is
// a sequence): a session id hashes to one of them.
const sessionLocks = 256

// conversation is the session a request is answered in: its id (new when
// the client's was unknown), the writer's state, and whether an answer
// was written in it, to be saved.
type conversation struct {
	id    string
	sess  *delta.Session
	lock  *sync.Mutex
	wrote bool
}

// sessions holds what a Server needs for Options.Sessions.
type sessions struct {
	store *wirestore.Sessions
	seed  maphash.Seed
	locks [sessionLocks]sync.Mutex
}

func newSessions(st *wirestore.Sessions) *sessions {
	if st == nil {
		return nil
	}
	return &sessions{store: st, seed: maphash.MakeSeed()}
}

// sessionHeader returns r's SessionHeader value, empty when absent, or
// the *Error (400) of a field given twice or too long.
func sessionHeader(r *http.Request) (string, error) {
	vs := r.Header.Values(SessionHeader)
	switch {
	case len(vs) == 0:
		return "", nil
	case len(vs) > 1:
		return "", &Error{Status: http.StatusBadRequest, Msg: SessionHeader + " given " + strconv.Itoa(len(vs)) + " times: send it once"}
	case len(vs[0]) > MaxSessionHeaderBytes:
		return "", &Error{Status: http.StatusBadRequest, Msg: SessionHeader + " of " + strconv.Itoa(len(vs[0])) +
			" bytes: a session id is at most " + strconv.Itoa(MaxSessionHeaderBytes) + " bytes (send " + SessionNew + " to open a session)"}
	}
	return vs[0], nil
}

// sessionCodec reports whether offer o answers in a session: a codec that
// writes documents, its text not enveloped (as for deltas).
func (s *Server) sessionCodec(o *offer) bool {
	_, ok := o.codec.(delta.DocumentCodec)
	return ok && !(s.opts.Envelope && !o.info.Binary)
}

// openConversation returns the conversation r is answered in, nil when
// none: sessions off, no SessionHeader, a method other than GET, or a
// codec without documents. The caller holds its lock until it calls
// close. An id the store does not hold (forged, expired, evicted), and
// any failure of the store (logged), gives a new empty session under a
// new id: the client, seeing another id than it sent, starts its own
// session anew, so the two stay in step.
func (s *Server) openConversation(r *http.Request, o *offer) (*conversation, error) {
	if s.sessions == nil || r.Method != http.MethodGet || !s.sessionCodec(o) {
		return nil, nil
	}
	v, err := sessionHeader(r)
	if err != nil || v == "" {
		return nil, err
	}
	st := s.sessions.store
	if v != SessionNew && wirestore.WellFormed(v) {
		cv := &conversation{id: v, lock: s.sessions.lock(v)}
		cv.lock.Lock()
		sess, err := st.Load(r.Context(), v)
		if err == nil {
			cv.sess = sess
			return cv, nil
		}
		cv.lock.Unlock()
		if !errors.Is(err, wirestore.ErrUnknownSession) {
			s.opts.ErrorLog.Printf("wirehttp: %s: loading a session, a new one is opened: %v", requestLine(r), err)
		}
	}
	id := st.NewID()
	cv := &conversation{id: id, lock: s.sessions.lock(id)}
	cv.lock.Lock()
	cv.sess, _ = delta.NewSession(st.Options().Limits) // checked by NewSessions
	return cv, nil
}

func (ss *sessions) lock(id string) *sync.Mutex {
	return &ss.locks[maphash.String(ss.seed, id)%sessionLocks]
}

// close saves the session when an answer was written in it (a failure is
// logged: the next request opens a new session) and releases its lock.
func (s *Server) closeConversation(ctx context.Context, r *http.Request, cv *conversation) {
	defer cv.lock.Unlock()
	if !cv.wrote {
		return
	}
	if err := s.sessions.store.Save(context.WithoutCancel(ctx), cv.id, cv.sess); err != nil {
		s.opts.ErrorLog.Printf("wirehttp: %s: saving session: %v", requestLine(r), err)
	}
}

// answer answers r with body, the answer in offer i of type ctype and
// tag etag (resp, when not nil, is the response it encodes): in the
// request's session when it has one, with a delta when RFC 3229 allows
// (answerDelta), else with the full answer or a 304.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, i int, body []byte, ctype, etag string, resp *wire.GraphResponse) {
	o := &s.offers[i]
	cv, err := s.openConversation(r, o)
	if err != nil {
		s.WriteError(w, r, err)
		return
	}
	if cv != nil {
		defer s.closeConversation(r.Context(), r, cv)
		h := w.Header()
		h.Set(SessionHeader, cv.id)
		h.Add("Vary", SessionHeader)
		h.Set("Cache-Control", "no-store")
	}
	if s.answerDelta(w, r, i, body, etag, cv) {
		return
	}
	if cv != nil && !matches(r, etag, s.compress != nil) {
		if text, ok := s.sessionText(r, o, body, resp, cv); ok {
			body = text
		}
	}
	if s.writeHead(w, r, ctype, etag, int64(len(body))) {
		w.Write(body) //nolint:errcheck // the client went away; nothing to tell it
	}
}

// matches reports whether r's If-None-Match holds etag: its answer is 304.
func matches(r *http.Request, etag string, compressed bool) bool {
	inm := r.Header.Values("If-None-Match")
	if len(inm) == 0 {
		return false
	}
	_, ok := matchIfNoneMatch(inm, etag, compressed)
	return ok
}

// sessionText is the full answer written in cv's session: the nodes the
// session sent before and unchanged since written as references, the
// rest as in body. resp is decoded from body when nil. Any failure (an
// answer the session cannot write within the reader's limits, logged)
// leaves the session unchanged and sends body as it is.
func (s *Server) sessionText(r *http.Request, o *offer, body []byte, resp *wire.GraphResponse, cv *conversation) ([]byte, bool) {
	var err error
	if resp == nil {
		if resp, err = o.codec.Decode(body); err != nil {
			s.opts.ErrorLog.Printf("wirehttp: %s: reading the answer in %s for its session, sending it whole: %v", requestLine(r), o.info.Name, err)
			return nil, false
		}
	}
	text, _, err := cv.sess.Encode(s.reg, o.info.Name, resp)
	if err != nil {
		s.opts.ErrorLog.Printf("wirehttp: %s: writing the answer in %s in its session, sending it whole: %v", requestLine(r), o.info.Name, err)
		return nil, false
	}
	cv.wrote = true
	return text, true
}

// sessionDelta is the delta patch (a delta document of o's codec) written
// in cv's session, the nodes of its content sent before as references;
// false when the session cannot write it (the caller sends the full
// answer).
func (s *Server) sessionDelta(r *http.Request, o *offer, patch []byte, cv *conversation) ([]byte, bool) {
	d, err := delta.DecodeDelta(o.codec, patch)
	if err == nil {
		var text []byte
		if text, err = cv.sess.EncodeDelta(s.reg, o.info.Name, d); err == nil {
			cv.wrote = true
			return text, true
		}
	}
	s.opts.ErrorLog.Printf("wirehttp: %s: writing a delta in %s in its session, sending the full answer: %v", requestLine(r), o.info.Name, err)
	return nil, false
}
