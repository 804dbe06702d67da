package wirehttp

import (
	"log"
	"net/http"
	"time"
)

// The defaults of HTTPServerOptions.
const (
	DefaultReadHeaderTimeout = 10 * time.Second // request line and headers
	DefaultReadTimeout       = time.Minute      // the whole request, body included
	DefaultWriteTimeout      = 2 * time.Minute  // from the end of the headers to the end of the answer
	DefaultIdleTimeout       = 2 * time.Minute  // between requests on a kept-alive connection
	DefaultMaxHeaderBytes    = 64 << 10         // 64 KiB of request line and headers
)

// HTTPServerOptions are the connection limits of NewHTTPServer. A zero field
// selects its default; a negative one turns the limit off (which a
// server reachable by untrusted clients should not do).
type HTTPServerOptions struct {
	// ReadHeaderTimeout bounds reading the request line and headers: a
	// client sending them slowly is dropped. Default 10 s.
	ReadHeaderTimeout time.Duration

	// ReadTimeout bounds reading a whole request, body included: a body
	// that stalls or trickles is cut at this deadline, and Convert (and
	// DecodeRequest) answer 408. Default 1 min.
	ReadTimeout time.Duration

	// WriteTimeout bounds the time from the end of the request headers
	// to the end of the answer: a client that does not read its answer
	// is dropped, and the memory the answer holds returned. It should
	// exceed ReadTimeout. Default 2 min.
	WriteTimeout time.Duration

	// IdleTimeout bounds the wait for the next request on a kept-alive
	// connection. Default 2 min.
	IdleTimeout time.Duration

	// MaxHeaderBytes bounds the request line and headers, in bytes;
	// past it net/http answers 431. Default 64 KiB (net/http's own is
	// 1 MiB).
	MaxHeaderBytes int

	// ErrorLog receives net/http's connection errors; nil means the log
	// package's standard logger.
	ErrorLog *log.Logger
}

// NewHTTPServer returns an *http.Server for h on addr with every connection
// limit set (HTTPServerOptions, defaults where a field is zero). Serve it
// with ListenAndServe, or Serve on a listener of your own; stop it with
// Shutdown. Together with the in-flight bound of a Server
// (Options.MaxInFlightBytes), it bounds what slow or numerous clients
// can hold: headers, bodies and answers are all subject to a deadline,
// and the bytes in flight to a total.
func NewHTTPServer(addr string, h http.Handler, o HTTPServerOptions) *http.Server {
	dur := func(d, def time.Duration) time.Duration {
		switch {
		case d == 0:
			return def
		case d < 0:
			return 0
		}
		return d
	}
	maxHeader := o.MaxHeaderBytes
	switch {
	case maxHeader == 0:
		maxHeader = DefaultMaxHeaderBytes
	case maxHeader < 0:
		maxHeader = 0 // net/http's default
	}
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: dur(o.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       dur(o.ReadTimeout, DefaultReadTimeout),
		WriteTimeout:      dur(o.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       dur(o.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          o.ErrorLog,
	}
}
