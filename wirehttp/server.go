package wirehttp

import (
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
	// wire.StreamEncoder instead of holding its encoding in memory.
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

	// ErrorLog receives the server's own faults (an answer it cannot
	// encode), which clients see only as a generic 500. Nil means the
	// log package's standard logger.
	ErrorLog *log.Logger
}

// Server answers HTTP requests with graph responses in the format each
// client negotiates. It is immutable once built and safe for concurrent
// use. It serves the codecs registered in its registry when New was
// called: register user codecs first.
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
}

// New builds a Server over reg (nil: wire.DefaultRegistry()). It fails
// when the registry is empty, when Default or a Preference name is not
// registered, or when a codec's media type does not parse.
func New(reg *wire.Registry, o Options) (*Server, error) {
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	if o.Default == "" {
		o.Default = "json"
	}
	if o.StreamElements == 0 {
		o.StreamElements = DefaultStreamElements
	}
	o.Preference = slices.Clone(o.Preference)
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
	if o.FreeMemoryAfter == 0 {
		o.FreeMemoryAfter = DefaultFreeMemoryAfter
	}
	s.budget = newBudget(maxInFlight, o.FreeMemoryAfter)
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
	if o.Compress {
		wrap, err := gzhttp.NewWrapper(gzhttp.SuffixETag("-gzip"))
		if err != nil {
			return nil, fmt.Errorf("wirehttp: %w", err)
		}
		s.compress = wrap
	}
	return s, nil
}

// Error is a request the Server refuses, with the HTTP status it answers
// and a message saying what is wrong and what is offered. Negotiate and
// DecodeRequest return it; WriteError writes it.
type Error struct {
	Status int    // http.StatusBadRequest, StatusNotAcceptable, ...
	Msg    string // one line
	Err    error  // the underlying error, such as a *wire.DecodeError
}

func (e *Error) Error() string { return "wirehttp: " + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// Negotiate returns the codec that answers r: the one its format query
// parameter names (any name or alias, any case), else the one its Accept
// field prefers (ties broken by the server's order), else the Default.
// An unknown format is an *Error with status 400 listing the names; an
// Accept field that no codec satisfies is an *Error with status 406
// listing the media types offered.
func (s *Server) Negotiate(r *http.Request) (wire.Codec, error) {
	i, err := s.negotiate(r)
	if err != nil {
		return nil, err
	}
	return s.offers[i].codec, nil
}

func (s *Server) negotiate(r *http.Request) (int, error) {
	if r.URL != nil && strings.Contains(r.URL.RawQuery, "format") {
		if vs, ok := r.URL.Query()["format"]; ok {
			name := ""
			if len(vs) > 0 {
				name = vs[0]
			}
			if i, ok := s.byName[lower(name)]; ok {
				return i, nil
			}
			return 0, &Error{Status: http.StatusBadRequest,
				Msg: fmt.Sprintf("unknown format %q (have: %s)", clip(name), s.names)}
		}
	}
	accept := r.Header.Values("Accept")
	if len(accept) == 0 {
		return s.def, nil
	}
	var buf [16]rangeMatch
	var best []rangeMatch
	if len(s.offers) <= len(buf) {
		best = buf[:len(s.offers)]
	} else {
		best = make([]rangeMatch, len(s.offers))
	}
	i, parsed, _ := choose(accept, s.offers, best)
	if !parsed {
		return s.def, nil
	}
	if i < 0 {
		return 0, &Error{Status: http.StatusNotAcceptable,
			Msg: fmt.Sprintf("no format matches Accept %q (offered: %s)", clip(accept[0]), s.types)}
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

// WriteError answers r with err: the status of an *Error and its
// message as one line of text. Any other error, and an *Error of status
// 500, is the server's own fault: it goes to Options.ErrorLog, and the
// client gets 500 with a generic line. A 503 carries Retry-After: 1;
// 408, 413 and 503 close the connection, whose request body may be
// unread.
func (s *Server) WriteError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	msg := "wirehttp: internal server error"
	var he *Error
	if errors.As(err, &he) && he.Status != http.StatusInternalServerError {
		status, msg = he.Status, he.Error()
	} else {
		s.opts.ErrorLog.Printf("wirehttp: %v", err)
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
	s    *Server
	resp *wire.GraphResponse
	reps []rep // per offer
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
		s.WriteError(w, &Error{Status: http.StatusMethodNotAllowed, Msg: "method " + clip(r.Method) + " not allowed (allowed: GET, HEAD)"})
		return
	}
	w.Header().Add("Vary", "Accept")
	i, err := s.negotiate(r)
	if err != nil {
		s.WriteError(w, err)
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
		s.WriteError(w, rp.err)
		return
	}
	if s.writeHead(w, r, rp.ctype, rp.etag, int64(len(rp.body))) {
		w.Write(rp.body) //nolint:errcheck // the client went away
	}
}

// Codecs lists the codecs the Server offers, in its order of preference.
func (s *Server) Codecs() []wire.Info {
	out := make([]wire.Info, len(s.offers))
	for i, o := range s.offers {
		out[i] = o.info
		out[i].Aliases = slices.Clone(o.info.Aliases)
	}
	return out
}
