package wirehttp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// upstream is a test server that paginates a response of 3 x 10 nodes
// by a cursor query parameter, as GKG does (schema v5 pagination),
// through wirehttp.Respond; it records what it was asked.
type upstream struct {
	pages []*wire.GraphResponse
	mu    sync.Mutex
	asked []string // "cursor|Accept|Authorization" per request
}

func newUpstream() *upstream {
	all := bigResponse(30)
	u := &upstream{}
	for i := range 3 {
		p := *all
		p.Nodes = all.Nodes[i*10 : (i+1)*10]
		p.Pagination = &wire.Pagination{HasMore: i < 2, Truncated: wire.Some(i < 2)}
		if i < 2 {
			p.Pagination.NextCursor = wire.Some("srv-page-" + strconv.Itoa(i+2))
		}
		u.pages = append(u.pages, &p)
	}
	return u
}

func (u *upstream) handler(s *wirehttp.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cursor := r.URL.Query().Get("cursor")
		u.mu.Lock()
		u.asked = append(u.asked, cursor+"|"+r.Header.Get("Accept")+"|"+r.Header.Get("Authorization"))
		u.mu.Unlock()
		i := 0
		if cursor != "" {
			n, err := strconv.Atoi(strings.TrimPrefix(cursor, "srv-page-"))
			if err != nil || n < 2 || n > len(u.pages) {
				s.WriteError(w, r, &wirehttp.Error{Status: http.StatusBadRequest, Msg: "bad cursor " + strconv.Quote(cursor)})
				return
			}
			i = n - 1
		}
		s.Respond(w, r, u.pages[i])
	})
}

func (u *upstream) take() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := u.asked
	u.asked = nil
	return out
}

// The Client asks for a format, decodes each answer by its Content-Type
// through the registry, and follows next_cursor across an upstream's
// pages.
func TestClientFollowsCursors(t *testing.T) {
	up := newUpstream()
	s, err := wirehttp.New(nil, wirehttp.Options{Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	base := startServer(t, s.Wrap(up.handler(s)), wirehttp.HTTPServerOptions{})
	ctx := context.Background()
	for _, tc := range []struct {
		format, accept string
		fidelity       wire.Fidelity
	}{
		{"cbor", "", wire.Exact},
		{"llm", "", wire.Lossy},
		{"toon", "", wire.NumbersByValue},
		{"", "", wire.Exact}, // every type: the server's order gives json
	} {
		if tc.format != "" {
			codec, err := wire.Lookup(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			tc.accept = codec.Info().MediaType
		}
		c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: tc.format,
			Header: http.Header{"Authorization": {"Bearer t0k"}}, HTTP: &http.Client{Timeout: 30 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		var got []*wire.GraphResponse
		for page, err := range c.Pages(ctx, base+"/graph?project=7") {
			if err != nil {
				t.Fatalf("%s: %v", tc.format, err)
			}
			got = append(got, page)
		}
		if len(got) != len(up.pages) {
			t.Fatalf("%s: %d pages, want %d", tc.format, len(got), len(up.pages))
		}
		for i, p := range got {
			want := up.pages[i]
			if tc.fidelity == wire.Lossy { // goon's promise: what its own round trip gives
				want, err = wire.DecodeWith("goon", mustEncode("goon", up.pages[i]))
				if err != nil {
					t.Fatal(err)
				}
			}
			if d := wiretest.Diff(want, p, tc.fidelity); d != "" {
				t.Errorf("%s page %d (-want +got):\n%s", tc.format, i+1, d)
			}
		}
		asked := up.take()
		accept := tc.accept
		if tc.format == "" {
			var types []string
			for _, info := range wire.List() {
				types = append(types, info.MediaType)
			}
			accept = strings.Join(types, ", ")
		}
		want := []string{"|" + accept + "|Bearer t0k", "srv-page-2|" + accept + "|Bearer t0k", "srv-page-3|" + accept + "|Bearer t0k"}
		if d := cmp.Diff(want, asked); d != "" {
			t.Errorf("%s: requests (-want +got):\n%s", tc.format, d)
		}
	}
}

// What the Client refuses: an error status (an *Error with the
// upstream's status and line, wrapped with the page's number), a
// Content-Type no codec reads, a body past MaxInputBytes, a cursor given
// twice.
func TestClientErrors(t *testing.T) {
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	big := mustEncode("json", bigResponse(200))
	loop := tinyResp()
	loop.Pagination = &wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("again")}
	mux := http.NewServeMux()
	mux.Handle("/static", s.Static(tinyResp()))
	mux.Handle("/html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html></html>")
	}))
	mux.Handle("/big", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(big) //nolint:errcheck
	}))
	mux.Handle("/loop", s.Static(loop))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	limits := wire.Limits{MaxInputBytes: int64(len(big) / 2)}
	reg := registryOf(t, limits, fakeCodec{})
	ctx := context.Background()

	// Asking for a format the server does not have: its 406, as an *Error.
	c, err := wirehttp.NewClient(reg, wirehttp.ClientOptions{Format: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(ctx, base+"/static")
	var he *wirehttp.Error
	if !errors.As(err, &he) || he.Status != http.StatusNotAcceptable || !strings.Contains(he.Msg, "no format matches Accept") {
		t.Errorf("406 from the upstream: %v", err)
	}
	c, err = wirehttp.NewClient(reg, wirehttp.ClientOptions{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, base+"/html"); !errors.Is(err, wire.ErrUnknownCodec) {
		t.Errorf("text/html: %v; want an error matching wire.ErrUnknownCodec", err)
	}
	if _, err := c.Get(ctx, base+"/big"); !errors.Is(err, wire.ErrLimit) {
		t.Errorf("%d bytes past a limit of %d: %v; want wire.ErrLimit", len(big), limits.MaxInputBytes, err)
	}
	n := 0
	for page, err := range c.Pages(ctx, base+"/loop") {
		n++
		if n == 3 {
			if err == nil || !strings.Contains(err.Error(), `page 2: the upstream gave cursor "again" before`) {
				t.Errorf("a repeated cursor: %v", err)
			}
		} else if err != nil || page == nil {
			t.Fatalf("page %d: %v", n, err)
		}
		if n > 3 {
			t.Fatal("Pages loops on a repeated cursor")
		}
	}
	if _, err := wirehttp.NewClient(reg, wirehttp.ClientOptions{Format: "goon"}); !errors.Is(err, wire.ErrUnknownCodec) {
		t.Errorf("a Format the registry lacks: %v", err)
	}
	for _, err := range c.Pages(ctx, base+"/nowhere") {
		if !errors.As(err, &he) || he.Status != 404 || !strings.HasPrefix(err.Error(), "page 1: ") {
			t.Errorf("404 on the first page: %v", err)
		}
	}
}

// fit pages served with RespondEncoded and walked with the Client: every
// node of the response arrives once, in order, each page in the budget.
func TestClientWalksFitPages(t *testing.T) {
	resp := bigResponse(120)
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1500
	base := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, err := fit.Page(resp, fit.Options{Codec: "goon", Budget: budget, Cursor: r.URL.Query().Get("cursor")})
		if err != nil {
			s.WriteError(w, r, &wirehttp.Error{Status: http.StatusBadRequest, Msg: "cursor refused", Err: err})
			return
		}
		s.RespondEncoded(w, r, wirehttp.Encoded{Codec: res.Stats.Codec, Body: res.Encoding, Response: res.Page})
	}), wirehttp.HTTPServerOptions{})
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "goon"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	pages := 0
	for page, err := range c.Pages(context.Background(), base) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, n := range page.Nodes {
			ids = append(ids, n.ID)
		}
	}
	want := make([]int64, len(resp.Nodes))
	for i := range want {
		want[i] = int64(i + 1)
	}
	if d := cmp.Diff(want, ids); d != "" || pages < 3 {
		t.Errorf("%d pages; node ids (-want +got):\n%s", pages, d)
	}
}
