package wirehttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// falseServer answers as a wirehttp server would, except for the answers
// bad gives: a 226 whose delta does not apply, a reference to a node the
// client was never sent. It records the conditional headers of each
// request.
type falseServer struct {
	mu   sync.Mutex
	reqs []http.Header
	bad  func(n int, w http.ResponseWriter, r *http.Request) bool
	s    *wirehttp.Server
	data *wire.GraphResponse
}

func (f *falseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r.Header.Clone())
	n := len(f.reqs)
	f.mu.Unlock()
	if f.bad(n, w, r) {
		return
	}
	f.s.Respond(w, r, f.data)
}

// TestClientAsksAgainFresh: an answer that does not apply makes the
// Client ask once more without A-IM, If-None-Match and its session, and
// it returns the server's data; a second such answer is an error, never
// a wrong response.
func TestClientAsksAgainFresh(t *testing.T) {
	data := sessionResponse(5)
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	referencing := func(w http.ResponseWriter) {
		text, err := delta.AppendReferenced(jsonDocs(t), nil, data, []int{0})
		if err != nil {
			t.Fatal(err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(wirehttp.SessionHeader, "AAAAAAAAAAAAAAAAAAAAAA")
		w.Write(text) //nolint:errcheck
	}
	for _, tc := range []struct {
		name   string
		opts   wirehttp.ClientOptions
		bad    func(n int, w http.ResponseWriter, r *http.Request) bool
		failed bool
	}{
		{"a 226 that does not apply", wirehttp.ClientOptions{Format: "json", Deltas: true},
			func(n int, w http.ResponseWriter, r *http.Request) bool {
				if n != 2 {
					return false
				}
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Delta-Base", r.Header.Get("If-None-Match"))
				w.Header().Set("ETag", `"other"`)
				w.WriteHeader(http.StatusIMUsed)
				w.Write([]byte(`{"graphwire_delta":"000000000000000000000000000000000000000"}`)) //nolint:errcheck
				return true
			}, false},
		{"a reference the session cannot resolve", wirehttp.ClientOptions{Format: "json", Session: true},
			func(n int, w http.ResponseWriter, r *http.Request) bool {
				if n != 2 {
					return false
				}
				referencing(w)
				return true
			}, false},
		{"twice", wirehttp.ClientOptions{Format: "json", Session: true},
			func(n int, w http.ResponseWriter, r *http.Request) bool {
				if n < 2 {
					return false
				}
				referencing(w)
				return true
			}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &falseServer{bad: tc.bad, s: s, data: data}
			base := startServer(t, f, wirehttp.HTTPServerOptions{})
			c, err := wirehttp.NewClient(nil, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				got, err := c.Get(context.Background(), base+"/q")
				if tc.failed && i == 1 {
					if err == nil || !strings.Contains(err.Error(), "asked again") {
						t.Fatalf("the second bad answer: %v, want an error that says the Client asked again", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if diff := wiretest.Diff(data, got, wire.Exact); diff != "" {
					t.Fatalf("request %d (-want +got):\n%s", i, diff)
				}
			}
			if len(f.reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(f.reqs))
			}
			again := f.reqs[2]
			if again.Get("A-IM") != "" || again.Get("If-None-Match") != "" || (tc.opts.Session && again.Get(wirehttp.SessionHeader) != wirehttp.SessionNew) {
				t.Errorf("asked again with A-IM %q, If-None-Match %q, %s %q", again.Get("A-IM"), again.Get("If-None-Match"), wirehttp.SessionHeader, again.Get(wirehttp.SessionHeader))
			}
		})
	}
}

// TestClientChecksResolvedTag: a server whose session is out of step
// with the Client's sends a reference to a node whose content changed
// since the Client got it; the resolved response does not have the
// answer's ETag, so the Client asks again fresh and returns the data as
// they are now, never the stale node.
func TestClientChecksResolvedTag(t *testing.T) {
	data := sessionResponse(5)
	stale := wiretest.Clone(data)
	stale.Nodes[0].Properties[1].Value = wire.String("blocked")
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &falseServer{s: s, data: data, bad: func(n int, w http.ResponseWriter, r *http.Request) bool {
		if n > 2 {
			return false
		}
		w.Header().Set(wirehttp.SessionHeader, "AAAAAAAAAAAAAAAAAAAAAA")
		w.Header().Set("Content-Type", "application/json")
		if n == 1 { // the nodes as they were, in the session
			body, err := wire.EncodeWith("json", stale)
			if err != nil {
				t.Error(err)
			}
			w.Write(body) //nolint:errcheck
			return true
		}
		// then node 0 as a reference, with the tag of the data now
		text, err := delta.AppendReferenced(jsonDocs(t), nil, data, []int{0})
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("ETag", httptestETag(t, s, data))
		w.Write(text) //nolint:errcheck
		return true
	}}
	base := startServer(t, f, wirehttp.HTTPServerOptions{})
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "json", Session: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []*wire.GraphResponse{stale, data} {
		got, err := c.Get(context.Background(), base+"/q")
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
			t.Fatalf("request %d (-want +got):\n%s", i, diff)
		}
	}
	if len(f.reqs) != 3 || f.reqs[2].Get(wirehttp.SessionHeader) != wirehttp.SessionNew {
		t.Errorf("%d requests, the last with %s %q: want 3, the last asking for a new session", len(f.reqs), wirehttp.SessionHeader, f.reqs[len(f.reqs)-1].Get(wirehttp.SessionHeader))
	}
}

// httptestETag is the ETag s answers data with in json.
func httptestETag(t *testing.T, s *wirehttp.Server, data *wire.GraphResponse) string {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/?format=json", nil)
	s.Respond(rec, req, data)
	return rec.Header().Get("ETag")
}

// jsonDocs is the json codec as a delta.DocumentCodec.
func jsonDocs(t *testing.T) delta.DocumentCodec {
	t.Helper()
	c, err := wire.DefaultRegistry().Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	return c.(delta.DocumentCodec)
}
