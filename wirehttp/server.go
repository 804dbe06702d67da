package wirehttp

import (
	"cmp"
	"errors"
	"fmt"
	"log"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// DefaultStreamElements is Options.StreamElements when it is zero.
const DefaultStreamElements = 50_000

// Options configure a Server. The zero value serves every codec of the
// registry, json by default, without envelope or compression.
type Options struct {
	// Default names the codec of a request that gives no format and no
	// Accept field (any name or alias). Default "json", ADR 003's raw.
	Default string

	// Preference is the server's order: it breaks ties between codecs an
	// Accept field weighs equally (Accept: */* or text/*). Names and
	// aliases; codecs it leaves out follow in name order. Default: the
	// Default codec first, then every other codec by name, so that
	// "*/*" gives json and "text/*" gives goon.
	Preference []string

	// Envelope wraps the output of every text codec (Info().Binary false)
	// in GKG's JSON envelope: {"result":...,"query_type":...,
	// "raw_query_strings":[...],"row_count":N}. See the package doc.
	Envelope bool

	// RowCount gives the envelope's row_count; nil means RowCount.
	RowCount func(*wire.GraphResponse) int

	// Compress gzip- or zstd-encodes responses for clients that accept it
	// (github.com/klauspost/compress/gzhttp), in the handlers the Server
	// returns and in Wrap.
	Compress bool

	// StreamElements is the size, in nodes + edges + rows, from which
	// Respond streams the response of a codec that implements
	// wirecodec.StreamEncoder instead of holding its encoding in memory.
	// Zero means DefaultStreamElements; a negative value never streams.
	StreamElements int

	// MaxInFlightBytes bounds the memory the requests in flight hold at
	// once: each request body is charged its bytes plus DecodeFactor
	// times its bytes plus DecodeOverhead for its decode (by
	// Content-Length before reading, or 1 MiB chunk by chunk as an
	// unsized body is read), and each answer Respond or Convert encodes
	// into memory its bytes as they grow. A request that does not fit
	// is answered 503 with Retry-After: 1 instead of taking the memory.
	// One request is never charged more than the whole bound, so the
	// largest body the limits allow can always run alone. Zero means
	// DefaultMaxInFlightBytes(Limits.MaxInputBytes) (2,208 MiB with the
	// default limits); a negative value means no bound.
	MaxInFlightBytes int64

	// FreeMemoryAfter is how long the server waits, once nothing is in
	// flight after requests were charged 64 MiB or more, before it
	// returns freed memory to the operating system
	// (debug.FreeOSMemory, at most once per 5 s): the Go runtime gives
	// freed heap back only slowly on its own. Zero means
	// DefaultFreeMemoryAfter (1 s); a negative value never does.
	FreeMemoryAfter time.Duration

	// ErrorLog receives the server's own faults, one line each with the
	// request's method and path: an answer it cannot encode (clients see
	// only a generic 500), a request for a codec registered after New
	// (once per codec; see ErrCodecNotServed). Nil means the log
	// package's standard logger; log.New(io.Discard, "", 0) silences it.
	ErrorLog *log.Logger

	// OnError, when set, is called for every error answer the Server
	// writes, the client's (4xx) and the server's (5xx) alike, with the
	// request and the *Error answered, after the answer is written: for
	// counting errors by status, or logging them in the service's own
	// way. It complements ErrorLog, which still logs the server's faults
	// (an Error of status 500 has their cause in Err; its Msg is the
	// generic line the client got). It runs on the request's goroutine
	// and must be safe for concurrent use. Errors after an answer's
	// status was sent (a client that went away) are not answers and are
	// not reported.
	OnError func(r *http.Request, err *Error)

	// Validate checks each response before encoding it, for the model and
	// for every codec the Server serves (wire.Registry.Validate over the
	// codecs of New), so that a response one format cannot carry (a node
	// type with a space, which goon refuses) is refused whatever format
	// the client asked for, instead of answered in some formats and
	// failing in others. A response that fails is the server's fault:
	// 500 with the generic body; the *wirecodec.ValidationError, naming each
	// refusing codec and its path, goes to ErrorLog and is the Err of
	// the *Error OnError receives. An answer converted from the client's
	// body (Convert) that fails is the client's: 422 with the
	// validation's message. Static validates its response once, on its
	// first request; Respond on every call, which costs about one
	// encoding per served codec (a codec that implements wirecodec.Checker
	// less). RespondEncoded serves bytes already encoded and does not
	// validate. Off by default.
	Validate bool

	// Delta configures RFC 3229 delta encoding: a client that sends
	// A-IM: graphwire-delta (DeltaIM) and the ETag of an answer it holds
	// in If-None-Match gets 226 IM Used and a delta when the Server still
	// keeps that base and the delta is worth it. On by default for the
	// codecs that write documents (delta.DocumentCodec), with a cache of DefaultDeltaBases
	// bases and DefaultDeltaBytes bytes. See the package doc, "Deltas".
	Delta DeltaOptions

	// Sessions, when set, keeps conversations: a GET that sends
	// SessionHeader is answered in its session, the nodes the session
	// sent before and unchanged since written as references, in the full
	// answer and in a delta alike. Its options bound the sessions (count,
	// nodes and bytes each, idle time); a Redis store shares them between
	// replicas. Nil: no sessions, SessionHeader is ignored. See the
	// package doc, "Sessions".
	Sessions *wirestore.Sessions
}

// Server answers HTTP requests with graph responses in the format each
// client negotiates. It is immutable once built and safe for concurrent
// use. It serves the codecs registered in its registry when New was
// called, never more: register user codecs first, or build a new Server
// after registering one (New is cheap). A request for a codec registered
// later is refused as any codec not offered, matching ErrCodecNotServed,
// and logged (see ErrCodecNotServed).
type Server struct {
	reg      *wire.Registry
	limits   wire.Limits
	offers   []offer        // in the server's order of preference
	byName   map[string]int // lower-case name or alias -> offers index
	def      int            // offers index of Options.Default
	names    string         // "cbor, goon (llm), ..." for 400 answers
	types    string         // offered media types for 406 answers
	opts     Options
	compress func(http.Handler) http.HandlerFunc // nil without Compress
	budget   *budget
	late     sync.Map       // canonical name of a codec registered after New -> logged
	bases    *baseCache     // nil with Delta.Off
	deltas   *deltaWork     // nil with Delta.Off
	served   *wire.Registry // the codecs of offers, for Validate; nil without it
	sessions *sessions      // nil without Options.Sessions
}

// New builds a Server over reg (nil: wire.DefaultRegistry()). It fails
// when the registry is empty, when Default or a Preference name is not
// registered, or when a codec's media type does not parse.
func New(reg *wire.Registry, o Options) (*Server, error) {
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	o.Default = cmp.Or(o.Default, "json")
	o.StreamElements = cmp.Or(o.StreamElements, DefaultStreamElements)
	o.Preference = slices.Clone(o.Preference)
	do, err := o.Delta.withDefaults()
	if err != nil {
		return nil, err
	}
	o.Delta = do
	infos := reg.List()
	if len(infos) == 0 {
		return nil, errors.New("wirehttp: the registry has no codec")
	}
	s := &Server{reg: reg, limits: reg.Limits(), byName: map[string]int{}, opts: o}
	maxInFlight := o.MaxInFlightBytes
	switch {
	case maxInFlight == 0:
		maxInFlight = DefaultMaxInFlightBytes(s.limits.MaxInputBytes)
	case maxInFlight < 0:
		maxInFlight = math.MaxInt64
	}
	o.FreeMemoryAfter = cmp.Or(o.FreeMemoryAfter, DefaultFreeMemoryAfter)
	s.budget = newBudget(maxInFlight, o.FreeMemoryAfter)
	s.sessions = newSessions(o.Sessions)
	if !o.Delta.Off {
		s.bases = newBaseCache(o.Delta.MaxBases, o.Delta.MaxBytes)
		s.deltas = newDeltaWork(o.Delta)
	}
	if s.opts.ErrorLog == nil {
		s.opts.ErrorLog = log.Default()
	}
	codecs := make(map[string]wire.Codec, len(infos))
	for _, info := range infos {
		c, err := reg.Lookup(info.Name)
		if err != nil {
			return nil, fmt.Errorf("wirehttp: %w", err)
		}
		codecs[info.Name] = c
	}
	canonical := func(name string) (string, error) {
		c, err := reg.Lookup(name)
		if err != nil {
			return "", err
		}
		return strings.ToLower(c.Info().Name), nil
	}
	order := make([]string, 0, len(infos))
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			order = append(order, name)
		}
	}
	def, err := canonical(o.Default)
	if err != nil {
		return nil, fmt.Errorf("wirehttp: Options.Default: %w", err)
	}
	if len(o.Preference) == 0 {
		add(def)
	}
	for _, p := range o.Preference {
		n, err := canonical(p)
		if err != nil {
			return nil, fmt.Errorf("wirehttp: Options.Preference: %w", err)
		}
		add(n)
	}
	for _, info := range infos {
		add(info.Name)
	}
	byInfo := make(map[string]wire.Info, len(infos))
	for _, info := range infos {
		byInfo[info.Name] = info
	}
	var names, types []string
	for i, n := range order {
		info := byInfo[n]
		of, err := newOffer(codecs[n], info)
		if err != nil {
			return nil, fmt.Errorf("wirehttp: codec %s: media type %q: %w", n, info.MediaType, err)
		}
		s.offers = append(s.offers, of)
		s.byName[n] = i
		for _, a := range info.Aliases {
			s.byName[a] = i
		}
		if n == def {
			s.def = i
		}
		types = append(types, info.MediaType)
	}
	for _, info := range infos { // name order, as wire lists them
		n := info.Name
		if len(info.Aliases) > 0 {
			n += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		names = append(names, n)
	}
	s.names = strings.Join(names, ", ")
	s.types = strings.Join(types, ", ")
	if o.Validate {
		if s.served, err = wire.NewRegistry(s.limits); err != nil {
			return nil, fmt.Errorf("wirehttp: %w", err)
		}
		for _, of := range s.offers {
			s.served.Register(of.codec)
		}
	}
	if o.Compress {
		wrap, err := gzhttp.NewWrapper(gzhttp.SuffixETag("-gzip"))
		if err != nil {
			return nil, fmt.Errorf("wirehttp: %w", err)
		}
		s.compress = wrap
	}
	return s, nil
}

// Negotiate returns the codec that answers r: the one its format query
// parameter names (any name or alias, any case), else the one its Accept
// field prefers (ties broken by the server's order), else the Default.
// An unknown format is an *Error with status 400 listing the names; an
// Accept field that no codec satisfies is an *Error with status 406
// listing the media types offered. Both match ErrCodecNotServed when the
// codec asked for was registered after New.
func (s *Server) Negotiate(r *http.Request) (wire.Codec, error) {
	i, err := s.negotiate(r, nil)
	if err != nil {
		return nil, err
	}
	return s.offers[i].codec, nil
}

// negotiate returns the index in s.offers of the codec that answers r,
// chosen among the offers whose indices among lists in the server's order
// (nil: all of them), by the rules of Negotiate. A format that names a
// codec outside among is 406, listing those in among.
func (s *Server) negotiate(r *http.Request, among []int) (int, error) {
	if r.URL != nil && strings.Contains(r.URL.RawQuery, "format") {
		if vs, ok := r.URL.Query()["format"]; ok {
			name := ""
			if len(vs) > 0 {
				name = vs[0]
			}
			i, ok := s.byName[lower(name)]
			if !ok {
				return 0, s.unknownFormat(r, name)
			}
			if among != nil && !slices.Contains(among, i) {
				return 0, &Error{Status: http.StatusNotAcceptable,
					Msg: fmt.Sprintf("format %q is not available here (available: %s)", clip(name), s.listOf(among, false))}
			}
			return i, nil
		}
	}
	def := s.def
	if among != nil && !slices.Contains(among, def) {
		def = among[0]
	}
	accept := r.Header.Values("Accept")
	if len(accept) == 0 {
		return def, nil
	}
	offers := s.offers
	if among != nil {
		offers = make([]offer, len(among))
		for k, i := range among {
			offers[k] = s.offers[i]
		}
	}
	var buf [16]rangeMatch
	var best []rangeMatch
	if len(offers) <= len(buf) {
		best = buf[:len(offers)]
	} else {
		best = make([]rangeMatch, len(offers))
	}
	i, parsed, _ := choose(accept, offers, best)
	if !parsed {
		return def, nil
	}
	if i < 0 {
		types := s.types
		var late error
		if among == nil {
			late = s.lateAccept(r, accept)
		} else {
			types = s.listOf(among, true)
		}
		return 0, &Error{Status: http.StatusNotAcceptable, Err: late,
			Msg: fmt.Sprintf("no format matches Accept %q (offered: %s)", clip(accept[0]), types)}
	}
	if among != nil {
		i = among[i]
	}
	return i, nil
}

// clip shortens a client-supplied string quoted in an error message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// contentType is the codec's media type, with charset=utf-8 for text.
func contentType(info wire.Info) string {
	if info.Binary || strings.Contains(strings.ToLower(info.MediaType), "charset=") {
		return info.MediaType
	}
	return info.MediaType + "; charset=utf-8"
}

// writeHead writes the headers of a body of n bytes with the given type
// and entity tag, or a 304 when r is a GET or HEAD whose If-None-Match
// matches. It reports whether the caller should write the body.
func (s *Server) writeHead(w http.ResponseWriter, r *http.Request, ctype, etag string, n int64) bool {
	h := w.Header()
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
			if tag, ok := matchIfNoneMatch(inm, etag, s.compress != nil); ok {
				h.Set("ETag", tag)
				h.Del("Content-Type")
				h.Del("Content-Length")
				w.WriteHeader(http.StatusNotModified)
				return false
			}
		}
	}
	h.Set("Content-Type", ctype)
	h.Set("ETag", etag)
	h.Set("Content-Length", strconv.FormatInt(n, 10))
	w.WriteHeader(http.StatusOK)
	return r.Method != http.MethodHead
}

// Wrap returns h compressing its responses when Options.Compress is set
// (and h itself otherwise). The handlers Static and Convert return are
// already wrapped.
func (s *Server) Wrap(h http.Handler) http.Handler {
	if s.compress == nil {
		return h
	}
	return s.compress(h)
}

// Static returns a handler that serves resp, which must not change
// afterwards, to GET and HEAD requests in every format by negotiation.
// Each format is encoded once, on its first request, and its bytes and
// ETag are kept for the next ones; an unchanged response costs a client
// that sends its ETag back a 304 and no body. Other methods get 405.
func (s *Server) Static(resp *wire.GraphResponse) http.Handler {
	return s.Wrap(&static{s: s, resp: resp, reps: make([]rep, len(s.offers))})
}

type static struct {
	s     *Server
	resp  *wire.GraphResponse
	reps  []rep // per offer
	valid sync.Once
	verr  error // Options.Validate's verdict on resp
}

type rep struct {
	once  sync.Once
	body  []byte
	ctype string
	etag  string
	err   error
}

func (st *static) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := st.s
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.WriteError(w, r, &Error{Status: http.StatusMethodNotAllowed, Msg: "method " + clip(r.Method) + " not allowed (allowed: GET, HEAD)"})
		return
	}
	w.Header().Add("Vary", "Accept")
	i, err := s.negotiate(r, nil)
	if err != nil {
		s.WriteError(w, r, err)
		return
	}
	st.valid.Do(func() { st.verr = s.validate(st.resp, false) })
	if st.verr != nil {
		s.WriteError(w, r, st.verr)
		return
	}
	rp := &st.reps[i]
	rp.once.Do(func() {
		rp.body, rp.ctype, rp.err = s.encode(nil, &s.offers[i], st.resp)
		if rp.err != nil {
			rp.err = fmt.Errorf("encoding %s: %w", s.offers[i].info.Name, rp.err)
		} else {
			rp.etag = etagOf(rp.ctype, rp.body)
		}
	})
	if rp.err != nil {
		s.WriteError(w, r, rp.err)
		return
	}
	s.answer(w, r, i, rp.body, rp.ctype, rp.etag, st.resp)
}

// Codecs lists the codecs the Server offers, in its order of preference:
// those of its registry when New was called (see ErrCodecNotServed).
func (s *Server) Codecs() []wire.Info {
	out := make([]wire.Info, len(s.offers))
	for i, o := range s.offers {
		out[i] = o.info
		out[i].Aliases = slices.Clone(o.info.Aliases)
	}
	return out
}
