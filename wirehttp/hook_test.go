package wirehttp_test

import (
	"bytes"
	"errors"
	"log"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
)

// hookLog records what Options.OnError and Options.ErrorLog receive.
type hookLog struct {
	mu     sync.Mutex
	calls  []hookCall
	logged bytes.Buffer
}

type hookCall struct {
	Method, Path string
	Status       int
	Err          error
}

func (h *hookLog) options(o wirehttp.Options) wirehttp.Options {
	o.ErrorLog = log.New(lockedWriter{h}, "", 0)
	o.OnError = func(r *http.Request, err *wirehttp.Error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.calls = append(h.calls, hookCall{Method: r.Method, Path: r.URL.Path, Status: err.Status, Err: err})
	}
	return o
}

// take returns the calls so far and forgets them.
func (h *hookLog) take() []hookCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.calls
	h.calls = nil
	return out
}

func (h *hookLog) log() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.logged.String()
}

type lockedWriter struct{ h *hookLog }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.h.mu.Lock()
	defer w.h.mu.Unlock()
	return w.h.logged.Write(p)
}

// get sends a GET (or HEAD) with the given headers and returns the
// status, headers and body.
func get(t *testing.T, client *http.Client, method, url string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	a := fetchIM(t, client, method, url, header...)
	return a.status, a.header, a.body
}

// A codec registered after New is not served, deliberately: the request
// for it is refused as for any codec not offered, with an error matching
// ErrCodecNotServed, the hook is called, and ErrorLog says once what is
// wrong; a Server built after the registration serves it. (Before, the
// refusal was a plain "unknown format" and nothing was logged.)
func TestCodecRegisteredAfterNew(t *testing.T) {
	reg := registryOf(t, wire.Limits{})
	var h hookLog
	s, err := wirehttp.New(reg, h.options(wirehttp.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(fakeCodec{})
	if _, err := reg.Lookup("fake"); err != nil {
		t.Fatal(err)
	}
	resp := tinyResp()
	mux := http.NewServeMux()
	mux.Handle("/graph", s.Static(resp))
	mux.Handle("/own", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, resp) }))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second}

	for _, path := range []string{"/graph?format=fake", "/own?format=FK", "/graph?format=fake"} {
		code, _, body := get(t, client, "GET", base+path)
		if code != http.StatusBadRequest || !strings.Contains(string(body), "registered but not served") {
			t.Errorf("%s: %d %q; want 400 saying the codec is registered but not served", path, code, body)
		}
	}
	code, _, body := get(t, client, "GET", base+"/graph", "Accept", "application/x-fake; v=2")
	if code != http.StatusNotAcceptable {
		t.Errorf("Accept of the late codec: %d %q; want 406", code, body)
	}
	calls := h.take()
	if len(calls) != 4 {
		t.Fatalf("OnError called %d times, want 4: %+v", len(calls), calls)
	}
	for _, c := range calls {
		if !errors.Is(c.Err, wirehttp.ErrCodecNotServed) {
			t.Errorf("%s %s: OnError got %v (status %d), not matching ErrCodecNotServed", c.Method, c.Path, c.Err, c.Status)
		}
	}
	if n := strings.Count(h.log(), `codec "fake" was registered after wirehttp.New`); n != 1 {
		t.Errorf("ErrorLog reports the late codec %d times, want once: %q", n, h.log())
	}

	// An unknown name is still a plain 400, not reported as late.
	code, _, _ = get(t, client, "GET", base+"/graph?format=nope")
	if calls := h.take(); code != 400 || len(calls) != 1 || errors.Is(calls[0].Err, wirehttp.ErrCodecNotServed) {
		t.Errorf("unknown format: %d, hook %+v; want 400 not matching ErrCodecNotServed", code, calls)
	}

	// Built after the registration, a Server serves it.
	s2, err := wirehttp.New(reg, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base2 := startServer(t, s2.Static(resp), wirehttp.HTTPServerOptions{})
	code, hdr, body := get(t, client, "GET", base2+"/?format=fake")
	if code != 200 || hdr.Get("Content-Type") != "application/x-fake; v=2" {
		t.Fatalf("new Server: %d %q %q", code, hdr.Get("Content-Type"), body)
	}
	got, err := fakeCodec{}.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(mustEncode("json", resp), mustEncode("json", got)); d != "" {
		t.Errorf("late codec through a new Server (-want +got):\n%s", d)
	}
}

// A response the codec cannot encode (NaN in json) is the server's fault:
// a 500 whose body is one generic line, its cause in ErrorLog with the
// request's method and path, and OnError called with the status and the
// *wire.EncodeError. Client errors reach OnError too, with their status.
func TestUnencodableAnswer(t *testing.T) {
	resp := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "Metric", ID: int64(1), Properties: []wire.Property{wire.Prop("ratio", wire.Float(math.NaN()))}}}}
	var h hookLog
	s, err := wirehttp.New(nil, h.options(wirehttp.Options{Compress: true}))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/static", s.Static(resp))
	mux.Handle("/respond", s.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, resp) })))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second}
	for _, path := range []string{"/static", "/respond"} {
		code, _, body := get(t, client, "GET", base+path+"?format=json")
		if code != 500 || string(body) != "wirehttp: internal server error\n" {
			t.Errorf("%s: %d %q; want 500 with the generic line", path, code, body)
		}
		calls := h.take()
		if len(calls) != 1 || calls[0].Status != 500 || calls[0].Path != path {
			t.Fatalf("%s: OnError calls %+v; want one of status 500", path, calls)
		}
		var ee *wire.EncodeError
		if !errors.As(calls[0].Err, &ee) || !strings.Contains(ee.Error(), "NaN") {
			t.Errorf("%s: OnError's error %v holds no *wire.EncodeError about NaN", path, calls[0].Err)
		}
		if want := `wirehttp: GET "` + path + `": encoding json: `; !strings.Contains(h.log(), want) || !strings.Contains(h.log(), "NaN") {
			t.Errorf("ErrorLog %q lacks %q and the cause", h.log(), want)
		}
		// The formats that can write NaN still answer.
		if code, _, body := get(t, client, "GET", base+path+"?format=cbor"); code != 200 {
			t.Errorf("%s in cbor: %d %q", path, code, body)
		}
	}
	if calls := h.take(); len(calls) != 0 {
		t.Errorf("OnError called for successful answers: %+v", calls)
	}
	code, _, _ := get(t, client, "GET", base+"/static", "Accept", "application/xml")
	calls := h.take()
	if code != 406 || len(calls) != 1 || calls[0].Status != 406 {
		t.Errorf("406: %d, OnError %+v", code, calls)
	}
	before := h.log()
	if strings.Contains(before, "application/xml") {
		t.Errorf("a client's error was logged as the server's: %q", before)
	}
}
