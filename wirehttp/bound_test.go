package wirehttp_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
)

// bigResponse is a search response of n nodes, each with a text property
// of about 200 bytes.
func bigResponse(n int) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: make([]wire.Node, n), Edges: []wire.Edge{}}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: "Issue", ID: int64(i + 1), Properties: []wire.Property{
			wire.Prop("title", wire.String("issue number "+strconv.Itoa(i))),
			wire.Prop("description", wire.String(strings.Repeat("lorem ipsum dolor sit amet ", 7))),
			wire.Prop("weight", wire.Int(int64(i%13))),
		}}
	}
	return r
}

// jsonBody is the canonical JSON of a bigResponse of about size bytes.
func jsonBody(t testing.TB, size int) []byte {
	t.Helper()
	one, err := wire.EncodeWith("json", bigResponse(100))
	if err != nil {
		t.Fatal(err)
	}
	b, err := wire.EncodeWith("json", bigResponse(max(1, size*100/len(one))))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// startServer runs h under wirehttp.NewHTTPServer with o on a loopback port
// until the test ends, and returns its base URL.
func startServer(t *testing.T, h http.Handler, o wirehttp.HTTPServerOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.ErrorLog == nil {
		o.ErrorLog = log.New(io.Discard, "", 0)
	}
	srv := wirehttp.NewHTTPServer(ln.Addr().String(), h, o)
	go srv.Serve(ln) //nolint:errcheck // ErrServerClosed at Close
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// registryOf is a registry with limits lim holding the json codec with
// those limits, then more.
func registryOf(t *testing.T, lim wire.Limits, more ...wire.Codec) *wire.Registry {
	t.Helper()
	reg, err := wire.NewRegistry(lim)
	if err != nil {
		t.Fatal(err)
	}
	jc, err := cjson.New(cjson.Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(jc)
	for _, c := range more {
		reg.Register(c)
	}
	return reg
}

// limitedGoon is the goon codec with limits lim.
func limitedGoon(t *testing.T, lim wire.Limits) wire.Codec {
	t.Helper()
	gc, err := goon.New(goon.Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	return gc
}

// waitFor polls cond every 10 ms up to d and reports whether it held.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func TestNewServerDefaults(t *testing.T) {
	h := http.NotFoundHandler()
	type limits struct {
		Addr                                                      string
		ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
		MaxHeaderBytes                                            int
	}
	of := func(s *http.Server) limits {
		return limits{s.Addr, s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout, s.MaxHeaderBytes}
	}
	got := wirehttp.NewHTTPServer("127.0.0.1:1", h, wirehttp.HTTPServerOptions{})
	want := limits{"127.0.0.1:1", 10 * time.Second, time.Minute, 2 * time.Minute, 2 * time.Minute, 64 << 10}
	if d := cmp.Diff(want, of(got)); d != "" {
		t.Errorf("NewHTTPServer defaults (-want +got):\n%s", d)
	}
	if got.Handler == nil {
		t.Error("NewHTTPServer dropped the handler")
	}
	got = wirehttp.NewHTTPServer("", h, wirehttp.HTTPServerOptions{ReadTimeout: -1, WriteTimeout: time.Second, MaxHeaderBytes: -1})
	if got.ReadTimeout != 0 || got.WriteTimeout != time.Second || got.MaxHeaderBytes != 0 {
		t.Errorf("negative means off, positive is kept: ReadTimeout %v, WriteTimeout %v, MaxHeaderBytes %d",
			got.ReadTimeout, got.WriteTimeout, got.MaxHeaderBytes)
	}
}

// Slow clients against the documented server are dropped within its
// timeouts: headers at a byte per 100 ms, a body that stalls, a client
// that never reads its answer.
func TestSlowClientsDropped(t *testing.T) {
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/convert", s.Convert())
	so := wirehttp.HTTPServerOptions{ReadHeaderTimeout: 300 * time.Millisecond, ReadTimeout: 2 * time.Second,
		WriteTimeout: 4 * time.Second, IdleTimeout: time.Second}
	base := startServer(t, mux, so)
	addr := strings.TrimPrefix(base, "http://")
	const slack = 2 * time.Second

	t.Run("headers", func(t *testing.T) {
		const clients = 20
		var wg sync.WaitGroup
		held := make([]time.Duration, clients)
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn, err := net.Dial("tcp", addr)
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				start := time.Now()
				go func() {
					for _, c := range []byte("GET /convert HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n") {
						if _, err := conn.Write([]byte{c}); err != nil {
							return
						}
						time.Sleep(100 * time.Millisecond)
					}
				}()
				io.Copy(io.Discard, conn) //nolint:errcheck // until the server closes
				held[i] = time.Since(start)
			}()
		}
		wg.Wait()
		for i, d := range held {
			if d > so.ReadHeaderTimeout+slack {
				t.Errorf("client %d sending headers slowly was held %v (ReadHeaderTimeout %v)", i, d, so.ReadHeaderTimeout)
			}
		}
		t.Logf("%d clients sending headers at 10 bytes/s dropped after at most %v", clients, maxDuration(held))
	})

	t.Run("stalled body", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() {
			pw.Write(bytes.Repeat([]byte(" "), 1<<20)) //nolint:errcheck
			// then nothing: the body stalls until the test ends
		}()
		defer pw.Close()
		req, _ := http.NewRequest("POST", base+"/convert", pr)
		req.ContentLength = 10 << 20
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		elapsed := time.Since(start)
		if resp.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("stalled body: status %d, body %q; want 408", resp.StatusCode, body)
		}
		if elapsed > so.ReadTimeout+slack {
			t.Errorf("stalled body answered after %v (ReadTimeout %v)", elapsed, so.ReadTimeout)
		}
		checkNoInternals(t, body)
		if !waitFor(slack, func() bool { return s.InFlightBytes() == 0 }) {
			t.Errorf("%d bytes still charged after the stalled body was answered", s.InFlightBytes())
		}
		t.Logf("stalled body: 408 after %v: %s", elapsed.Round(time.Millisecond), bytes.TrimSpace(body))
	})

	t.Run("reader that never reads", func(t *testing.T) {
		// A server of its own, answering with the server's own response
		// (no decode), with a WriteTimeout that leaves the encoding time
		// even under the race detector.
		big := bigResponse(200_000) // about 58 MB of json: more than the socket buffers hold
		wo := so
		wo.WriteTimeout = 10 * time.Second
		s, err := wirehttp.New(nil, wirehttp.Options{StreamElements: -1}) // buffered: the answer is held, and charged
		if err != nil {
			t.Fatal(err)
		}
		base := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, big) }), wo)
		start := time.Now()
		client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
		resp, err := client.Get(base + "/?format=json")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close() // never read
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if held := s.InFlightBytes(); held < resp.ContentLength {
			t.Errorf("%d bytes charged while a %d-byte answer is held", held, resp.ContentLength)
		}
		if !waitFor(wo.WriteTimeout+slack, func() bool { return s.InFlightBytes() == 0 }) {
			t.Fatalf("%d bytes still charged %v after a client stopped reading (WriteTimeout %v)",
				s.InFlightBytes(), time.Since(start), wo.WriteTimeout)
		}
		if held := time.Since(start); held < wo.WriteTimeout/2 {
			t.Fatalf("the answer was written whole in %v: the socket buffers held it, nothing was tested", held)
		}
		t.Logf("a client that never reads its %d-byte answer was dropped, its charge returned, after %v (WriteTimeout %v)",
			resp.ContentLength, time.Since(start).Round(time.Millisecond), wo.WriteTimeout)
	})
}

func maxDuration(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// checkNoInternals fails when an error body carries a socket address,
// a file path or a Go error's internal text.
func checkNoInternals(t *testing.T, body []byte) {
	t.Helper()
	for _, bad := range []string{"127.0.0.1", "tcp", "/tmp", "/home", "/srv", ".go:", "i/o timeout", "goroutine"} {
		if bytes.Contains(body, []byte(bad)) {
			t.Errorf("error body %q carries %q", body, bad)
		}
	}
}

// Past the in-flight bound: 503 with Retry-After, whether the body has a
// Content-Length or not; the same request succeeds once the bytes in
// flight are returned.
func TestInFlightBound(t *testing.T) {
	const holdSize = 1 << 20
	s, err := wirehttp.New(nil, wirehttp.Options{MaxInFlightBytes: 17*holdSize + 16<<20 + 1<<20})
	if err != nil {
		t.Fatal(err)
	}
	base := startServer(t, s.Convert(), wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	small := jsonBody(t, 4<<10)
	holder := append(jsonBody(t, holdSize/2), bytes.Repeat([]byte(" "), holdSize)...)[:holdSize]

	pr, pw := io.Pipe()
	held := make(chan *http.Response, 1)
	go func() {
		req, _ := http.NewRequest("POST", base, pr)
		req.ContentLength = holdSize
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
		}
		held <- resp
	}()
	if _, err := pw.Write(holder[:1000]); err != nil {
		t.Fatal(err)
	}
	if !waitFor(10*time.Second, func() bool { return s.InFlightBytes() > 0 }) {
		t.Fatal("the held request was never charged")
	}
	post := func(chunked bool) (*http.Response, []byte) {
		var rd io.Reader = bytes.NewReader(small)
		if chunked {
			rd = io.MultiReader(rd) // hides the length: sent chunked
		}
		req, _ := http.NewRequest("POST", base, rd)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, b
	}
	for _, chunked := range []bool{false, true} {
		resp, body := post(chunked)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
			t.Errorf("chunked %v, while the bound is taken: %d, Retry-After %q, %q; want 503 with Retry-After: 1",
				chunked, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		checkNoInternals(t, body)
	}
	// A large body sent whole, without Expect: 100-continue, gets its 503
	// (the server reads and discards what it refuses; without that, a
	// loaded machine can reset the connection before the client reads).
	for range 5 {
		req, _ := http.NewRequest("POST", base, bytes.NewReader(bytes.Repeat([]byte(" "), 8<<20)))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("an 8 MiB body refused while the bound is taken: %v, want a 503", err)
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("an 8 MiB body while the bound is taken: %d, want 503", resp.StatusCode)
		}
	}
	if _, err := pw.Write(holder[1000:]); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if resp := <-held; resp == nil || resp.StatusCode != 200 {
		t.Fatalf("the held request: %v", resp)
	} else {
		resp.Body.Close()
	}
	if !waitFor(5*time.Second, func() bool { return s.InFlightBytes() == 0 }) {
		t.Fatalf("%d bytes still charged after the held request was answered", s.InFlightBytes())
	}
	for _, chunked := range []bool{false, true} {
		if resp, body := post(chunked); resp.StatusCode != 200 {
			t.Errorf("chunked %v, after the bound is free: %d %q", chunked, resp.StatusCode, body)
		}
	}
	if !waitFor(5*time.Second, func() bool { return s.InFlightBytes() == 0 }) {
		t.Errorf("%d bytes still charged at rest", s.InFlightBytes())
	}
}

// failCodec cannot encode: its error names a file of the server's.
type failCodec struct{}

func (failCodec) Info() wire.Info {
	return wire.Info{Name: "fail", MediaType: "text/x-fail", Description: "test codec", Fidelity: wire.Exact}
}
func (failCodec) AppendEncode(dst []byte, _ *wire.GraphResponse) ([]byte, error) {
	return dst, errors.New("open /srv/graphwire/secret.cfg: permission denied")
}
func (failCodec) Decode(data []byte) (*wire.GraphResponse, error) { return cjson.Decode(data) }

// Each status blames the side at fault: 422 for an answer the client's
// body produced but the codec cannot write, 413 by Content-Length before
// the body is read, 500 (generic) for the server's own faults.
func TestStatusBlame(t *testing.T) {
	resp := bigResponse(2000)
	goonBody, err := wire.EncodeWith("goon", resp)
	if err != nil {
		t.Fatal(err)
	}
	jsonLen := len(mustEncode("json", resp))
	limits := wire.Limits{MaxInputBytes: int64(len(goonBody)+jsonLen) / 2}
	if int64(len(goonBody)) >= limits.MaxInputBytes || int64(jsonLen) <= limits.MaxInputBytes {
		t.Fatalf("goon %d, json %d: no limit between them", len(goonBody), jsonLen)
	}
	reg := registryOf(t, limits, limitedGoon(t, limits), failCodec{})
	var logged bytes.Buffer
	s, err := wirehttp.New(reg, wirehttp.Options{ErrorLog: log.New(&logged, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/convert", s.Convert())
	mux.Handle("/own", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, tinyResp()) }))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second}

	do := func(method, path, ctype string, body []byte) (int, []byte) {
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		r, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, b
	}
	code, body := do("POST", "/convert?format=json", "text/x-goon", goonBody)
	if code != http.StatusUnprocessableEntity || !bytes.Contains(body, []byte("limit")) {
		t.Errorf("goon body whose json passes MaxInputBytes: %d %q; want 422", code, body)
	}
	if code, body := do("POST", "/convert?format=goon", "text/x-goon", goonBody); code != 200 {
		t.Errorf("the same body back in goon: %d %q", code, clipBody(body))
	}
	code, body = do("POST", "/convert?format=fail", "text/x-goon", goonBody)
	if code != http.StatusUnprocessableEntity {
		t.Errorf("a converted answer the codec refuses: %d %q; want 422", code, body)
	}
	checkNoInternals(t, body)
	if bytes.Contains(body, []byte("secret")) {
		t.Errorf("422 body %q quotes the codec's internal error", body)
	}
	code, body = do("GET", "/own?format=fail", "", nil)
	if code != http.StatusInternalServerError || string(body) != "wirehttp: internal server error\n" {
		t.Errorf("the server's own response unencodable: %d %q; want 500 with a generic line", code, body)
	}
	if !strings.Contains(logged.String(), "secret.cfg") {
		t.Errorf("the 500's cause is not in ErrorLog: %q", logged.String())
	}

	// 413 by Content-Length, before the body is sent.
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", limits.MaxInputBytes+1)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck
	r, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to an oversized Content-Length before its body: %v", err)
	}
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized Content-Length: %d %q; want 413", r.StatusCode, b)
	}
	checkNoInternals(t, b)
}

func tinyResp() *wire.GraphResponse { return bigResponse(1) }

// An Accept field of 120,000 ranges (960 KB) costs about what a small one
// does: only its first 64 ranges are considered. The CPU per request over
// loopback is reported, not asserted; what is asserted is the bound's
// effect (a type past the 64th range is not seen) and a generous ratio
// of in-process negotiation times.
func TestAcceptCostBounded(t *testing.T) {
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Static(tinyResp())
	srv := httptest.NewServer(h) // net/http's 1 MiB header limit, so that the big field arrives
	defer srv.Close()
	client := &http.Client{Timeout: 30 * time.Second}
	get := func(accept string) int {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		req.Header.Set("Accept", accept)
		r, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body) //nolint:errcheck
		r.Body.Close()
		return r.StatusCode
	}
	past := strings.Repeat("application/xml, ", wirehttp.MaxAcceptRanges) + "text/x-goon"
	if code := get(past); code != http.StatusNotAcceptable {
		t.Errorf("a goon range after 64 others: %d, want 406 (ignored)", code)
	}
	within := strings.Repeat("application/xml, ", wirehttp.MaxAcceptRanges-1) + "text/x-goon"
	if code := get(within); code != 200 {
		t.Errorf("a goon range as the 64th: %d, want 200", code)
	}

	huge := strings.Repeat("*/*;a=b,", 120_000)
	cpu := func(accept string, n int) time.Duration {
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &before) //nolint:errcheck
		for range n {
			get(accept)
		}
		syscall.Getrusage(syscall.RUSAGE_SELF, &after) //nolint:errcheck
		used := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
		return used / time.Duration(n)
	}
	small, big := cpu("text/x-goon", 50), cpu(huge, 20)
	t.Logf("CPU per request over loopback (client and server): Accept of 11 bytes %v, of %d bytes %v",
		small, len(huge), big)

	negotiate := func(accept string) time.Duration {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept", accept)
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			for range 200 {
				s.Negotiate(req) //nolint:errcheck // timing only
			}
			best = min(best, time.Since(start)/200)
		}
		return best
	}
	ref, hugeCost := negotiate(strings.Repeat("*/*;a=b,", wirehttp.MaxAcceptRanges)), negotiate(huge)
	t.Logf("Negotiate: %d ranges %v, 120,000 ranges %v", wirehttp.MaxAcceptRanges, ref, hugeCost)
	if hugeCost > 20*ref+time.Millisecond {
		t.Errorf("negotiating a 120,000-range Accept took %v, against %v for 64 ranges", hugeCost, ref)
	}
}
