package cli

// wirebench serve: the corpus over HTTP in every format, by negotiation
// (package wirehttp does the work). It listens on loopback addresses only:
// it is a tool for trying formats and clients on one machine, with no
// authentication. It runs wirehttp.NewHTTPServer, with every connection
// timeout and the in-flight bound of wirehttp set (-read-timeout,
// -write-timeout, -max-inflight). One line per request goes to stderr;
// SIGINT or SIGTERM stops it cleanly (http.Server.Shutdown, 10 s for
// requests in flight), after a line counting the error answers by status
// (wirehttp's Options.OnError).
//
// Deltas (RFC 3229) are on as in wirehttp, with -delta-bases and
// -delta-bytes sizing the cache of bases (-delta-bases 0 turns them off),
// -delta-cache the bytes of the deltas kept once computed, and
// -delta-computations how many deltas are computed at once.
// With -watch it re-reads DIR or FILE when a file changes (checked on
// every request: modification times and sizes), so that a client holding
// an answer can re-query after an edit and get a delta.
//
// Sessions (header Graphwire-Session) are on. -store names where sessions
// and delta bases are kept: "memory" (the default, in the process) or
// redis://HOST:PORT/DB, which several serve processes behind one load
// balancer share, so that a conversation goes on and a delta is found on
// whichever one a request lands; with Redis the bases are kept in the
// process too, as without it.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

func runServe(env *Env, fs *flag.FlagSet) error {
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`, a loopback one (port 0 picks a free port)")
	envelope := fs.Bool("envelope", false, "wrap text formats in GKG's JSON envelope")
	compress := fs.Bool("compress", true, "gzip or zstd responses for clients that accept it")
	maxInFlight := fs.Int64("max-inflight", 0, "bound, in `bytes`, on the request bodies, decodes and answers in memory at once (0: wirehttp's default, 2 x (17 x MaxInputBytes + 16 MiB))")
	readTimeout := fs.Duration("read-timeout", wirehttp.DefaultReadTimeout, "the longest a request, body included, may take to arrive")
	writeTimeout := fs.Duration("write-timeout", wirehttp.DefaultWriteTimeout, "the longest from a request's headers to the end of its answer")
	deltaBases := fs.Int("delta-bases", wirehttp.DefaultDeltaBases, "the most `bases` kept for deltas (A-IM: graphwire-delta); 0 turns deltas off")
	deltaBytes := fs.Int64("delta-bytes", wirehttp.DefaultDeltaBytes, "the most `bytes` of bases kept for deltas")
	deltaCache := fs.Int64("delta-cache", wirehttp.DefaultMaxDeltaBytes, "the most `bytes` of deltas kept once computed")
	deltaComputations := fs.Int("delta-computations", wirehttp.DefaultMaxComputations, "the most deltas computed at `once`; past it, a request gets the full answer")
	watch := fs.Bool("watch", false, "re-read DIR or FILE when it changes (checked on every request)")
	storeURL := fs.String("store", "memory", "where sessions and delta bases are kept: memory, or redis://`HOST:PORT/DB`, which replicas share")
	idle := fs.Duration("idle", wirestore.DefaultIdle, "forget a session, and a shared delta base, not used this long")
	if err := parseFlags(fs, env, arguments{0, 1, "at most one DIR or FILE"}); err != nil {
		return err
	}
	if err := checkLoopback(*addr); err != nil {
		return usagef("-addr: %v", err)
	}
	resources, from, err := serveCases(fs.Arg(0))
	if err != nil {
		return err
	}
	if *maxInFlight < 0 || *readTimeout <= 0 || *writeTimeout <= 0 || *idle <= 0 {
		return usagef("-max-inflight must be at least 0, -read-timeout, -write-timeout and -idle above 0")
	}
	if *deltaBases < 0 || *deltaBytes <= 0 || *deltaCache <= 0 || *deltaComputations <= 0 {
		return usagef("-delta-bases must be at least 0, -delta-bytes, -delta-cache and -delta-computations above 0")
	}
	if *watch && fs.NArg() == 0 {
		return usagef("-watch needs the DIR or FILE to watch")
	}
	st, shared, err := openStore(*storeURL)
	if err != nil {
		return err
	}
	defer st.Close()
	sessions, err := wirestore.NewSessions(st, wirestore.SessionOptions{Idle: *idle})
	if err != nil {
		return err
	}
	errLog := log.New(env.Stderr, "wirebench serve: ", 0)
	var errs errorCounts
	s, err := wirehttp.New(nil, wirehttp.Options{Envelope: *envelope, Compress: *compress,
		MaxInFlightBytes: *maxInFlight, ErrorLog: errLog, OnError: errs.add, Sessions: sessions,
		Delta: wirehttp.DeltaOptions{Off: *deltaBases == 0, MaxBases: *deltaBases, MaxBytes: *deltaBytes,
			MaxDeltaBytes: *deltaCache, MaxComputations: *deltaComputations,
			Shared: wirehttp.SharedBases{Store: shared, TTL: *idle}}})
	if err != nil {
		return err
	}
	h, err := s.Catalog(resources)
	if err != nil {
		return err
	}
	if *watch {
		if h, err = newWatcher(fs.Arg(0), s, h, errLog); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	logger := log.New(env.Stderr, "", 0)
	srv := wirehttp.NewHTTPServer(*addr, logRequests(h, logger), wirehttp.HTTPServerOptions{
		ReadTimeout: *readTimeout, WriteTimeout: *writeTimeout, ErrorLog: errLog})
	logger.Printf("wirebench serve: %d responses from %s on http://%s/", len(resources), from, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop) // a second signal stops at once
	if err := serveUntil(ctx, srv, ln, false); err != nil {
		return err
	}
	logger.Printf("wirebench serve: %s", errs.summary())
	logger.Printf("wirebench serve: stopped")
	return nil
}

// serveUntil serves hs on ln until ctx ends, then shuts it down, giving
// the requests under way 10 s; with streams, requests still open then
// (event streams) are cut without an error.
func serveUntil(ctx context.Context, hs *http.Server, ln net.Listener, streams bool) error {
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil && !(streams && errors.Is(err, context.DeadlineExceeded)) {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// errorCounts counts error answers by status.
type errorCounts struct {
	mu       sync.Mutex
	byStatus map[int]int
}

func (c *errorCounts) add(_ *http.Request, err *wirehttp.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byStatus == nil {
		c.byStatus = map[int]int{}
	}
	c.byStatus[err.Status]++
}

// summary is "3 error answers: 400 x2, 406 x1" ("no error answers").
func (c *errorCounts) summary() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.byStatus) == 0 {
		return "no error answers"
	}
	total := 0
	var parts []string
	for _, st := range slices.Sorted(maps.Keys(c.byStatus)) {
		total += c.byStatus[st]
		parts = append(parts, fmt.Sprintf("%d x%d", st, c.byStatus[st]))
	}
	return fmt.Sprintf("%d error answers: %s", total, strings.Join(parts, ", "))
}

// storeCloser is a wirestore.Store that holds connections.
type storeCloser interface {
	wirestore.Store
	io.Closer
}

// openStore opens the store of -store (wirestore.Open), a usage error when
// it does not parse. It returns the store of sessions and the store that
// shares delta bases: nil for "memory", where the process's own cache of
// bases is the store.
func openStore(rawURL string) (st storeCloser, shared wirestore.Store, err error) {
	opened, err := wirestore.Open(rawURL)
	if err != nil {
		return nil, nil, usagef("-store: %v", err)
	}
	st = opened.(storeCloser) // every Store Open returns is an io.Closer
	if _, ok := opened.(*wirestore.Memory); ok {
		return st, nil, nil
	}
	return st, st, nil
}

// checkLoopback accepts host:port where host is localhost or a loopback
// IP address.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q is not a loopback address (use 127.0.0.1, ::1 or localhost)", host)
}

// serveCases loads what to serve: the canonical-JSON files of a directory,
// one file, or by default the repository's corpus directory, falling back
// to the corpus generated in memory outside the repository.
func serveCases(arg string) ([]wirehttp.Resource, string, error) {
	var cases []corpus.Case
	from := arg
	switch {
	case arg == "":
		dir := ""
		if root, err := moduleRoot(); err == nil {
			dir = filepath.Join(root, corpus.Dir)
		}
		if st, err := os.Stat(dir); dir != "" && err == nil && st.IsDir() {
			loaded, err := corpus.Load(dir)
			if err != nil {
				return nil, "", err
			}
			cases, from = loaded, dir
		} else {
			cases, from = corpus.Generate(), "the generated corpus"
		}
	default:
		st, err := os.Stat(arg)
		if err != nil {
			return nil, "", err
		}
		if st.IsDir() {
			if cases, err = corpus.Load(arg); err != nil {
				return nil, "", err
			}
			break
		}
		data, err := os.ReadFile(arg)
		if err != nil {
			return nil, "", err
		}
		r, err := cjson.Decode(data)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", arg, err)
		}
		cases = []corpus.Case{{Name: strings.TrimSuffix(filepath.Base(arg), ".json"), Response: r}}
	}
	out := make([]wirehttp.Resource, len(cases))
	for i, c := range cases {
		out[i] = wirehttp.Resource{Name: c.ID(), Response: c.Response} // profile/name
	}
	return out, from, nil
}

// logRequests logs one line per request: remote address, method, URI,
// status, bytes written and duration.
func logRequests(h http.Handler, l *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		l.Printf("%s %s %s %d %dB %s", r.RemoteAddr, r.Method, r.URL.RequestURI(), rec.status, rec.n,
			time.Since(start).Round(time.Microsecond))
	})
}

type recorder struct {
	http.ResponseWriter
	status int
	n      int64
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(p)
	r.n += int64(n)
	return n, err
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// watcher is wirebench serve -watch: before each request it compares the
// modification times and sizes of the files served with those it last
// loaded, and on a change loads them again and serves a new Catalog on
// the same wirehttp.Server (whose base cache, and so its deltas, carry
// over). A load that fails (a file half written) is logged, and the
// previous responses stay served until the files change again.
type watcher struct {
	path string
	s    *wirehttp.Server
	log  *log.Logger

	mu    sync.Mutex
	stamp string
	h     http.Handler
}

func newWatcher(path string, s *wirehttp.Server, h http.Handler, l *log.Logger) (*watcher, error) {
	st, err := stampOf(path)
	if err != nil {
		return nil, err
	}
	return &watcher{path: path, s: s, log: l, stamp: st, h: h}, nil
}

func (wt *watcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	wt.current().ServeHTTP(w, r)
}

// current returns the handler of the files as they are now.
func (wt *watcher) current() http.Handler {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	st, err := stampOf(wt.path)
	if err != nil {
		wt.log.Printf("-watch: %v (serving the responses loaded before)", err)
		return wt.h
	}
	if st == wt.stamp {
		return wt.h
	}
	wt.stamp = st
	resources, _, err := serveCases(wt.path)
	if err != nil {
		wt.log.Printf("-watch: %v (serving the responses loaded before)", err)
		return wt.h
	}
	h, err := wt.s.Catalog(resources)
	if err != nil {
		wt.log.Printf("-watch: %v (serving the responses loaded before)", err)
		return wt.h
	}
	wt.h = h
	wt.log.Printf("-watch: %d responses loaded again from %s", len(resources), wt.path)
	return h
}

// stampOf names the state of path: the modification time and size of the
// file, or of every *.json file under the directory.
func stampOf(path string) (string, error) {
	var b strings.Builder
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || (p != path && !strings.HasSuffix(p, ".json")) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", p, info.ModTime().UnixNano(), info.Size())
		return nil
	})
	if err != nil {
		return "", err
	}
	if b.Len() == 0 {
		if _, err := os.Stat(path); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}
