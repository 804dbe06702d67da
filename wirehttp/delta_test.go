package wirehttp_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// deltaFake is the binary fake codec writing the json codec's
// documents: its deltas are priced in bytes.
type deltaFake struct{ fakeCodec }

func (deltaFake) AppendDocument(dst []byte, h []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	return cjson.Default().AppendDocument(dst, h, content)
}

func (deltaFake) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	return cjson.Default().DecodeDocument(data)
}

// jsonDelta reads a delta in the json codec's documents, which every
// codec of deltaRegistry writes.
func jsonDelta(b []byte) (*delta.Delta, error) { return delta.DecodeDelta(cjson.Default(), b) }

// patchesTo reports whether the json delta body patches base into exactly
// want.
func patchesTo(base *wire.GraphResponse, body []byte, want *wire.GraphResponse) error {
	d, err := jsonDelta(body)
	if err != nil {
		return err
	}
	got, err := delta.Patch(base, d)
	if err != nil {
		return err
	}
	if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
		return fmt.Errorf("patched answer differs from the full one (-want +got):\n%s", diff)
	}
	return nil
}

// deltaRegistry holds json, the fake codec writing documents (binary),
// and a codec without documents, "plain".
func deltaRegistry(t testing.TB) *wire.Registry {
	t.Helper()
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(cjson.Default())
	reg.Register(deltaFake{})
	reg.Register(plainCodec{})
	return reg
}

// plainCodec is a user codec without a delta syntax.
type plainCodec struct{ fakeCodec }

func (plainCodec) Info() wire.Info {
	return wire.Info{Name: "plain", MediaType: "application/x-plain", Description: "test codec", Fidelity: wire.Exact, Binary: true}
}

// deltaCase returns a corpus response and the same with one node's
// property changed: a re-query after one change.
func deltaCase(t testing.TB) (base, next *wire.GraphResponse) {
	t.Helper()
	for _, c := range testsupport.Generated() {
		if c.Profile == corpus.TextHeavy && c.Name == corpus.ADRCase {
			base = c.Response
		}
	}
	if base == nil || len(base.Nodes) < 2 {
		t.Fatal("no ADR case in the corpus")
	}
	next = wiretest.Clone(base)
	n := &next.Nodes[len(next.Nodes)/2]
	n.Properties = append(n.Properties, wire.Property{Key: "reviewed", Value: wire.Bool(true)})
	return base, next
}

// mutable serves, through Respond, whatever response it holds.
type mutable struct {
	s    *wirehttp.Server
	resp atomic.Pointer[wire.GraphResponse]
}

func (m *mutable) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.s.Respond(w, r, m.resp.Load()) }

// serveMutable serves r through s from a loopback server closed when the
// test ends; Store on the mutable changes what it serves.
func serveMutable(t *testing.T, s *wirehttp.Server, r *wire.GraphResponse) (*mutable, *httptest.Server) {
	t.Helper()
	m := &mutable{s: s}
	m.resp.Store(r)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return m, srv
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

// fetchIM makes a request with the header pairs given and returns the
// answer with its whole body.
func fetchIM(t testing.TB, client *http.Client, method, url string, header ...string) answer {
	t.Helper()
	resp, body := send(t, client, request(t, method, url, header...))
	return answer{resp.StatusCode, resp.Header, body}
}

// sendIM makes a request with the header pairs given; the caller closes
// the body.
func sendIM(t testing.TB, client *http.Client, method, url string, header ...string) *http.Response {
	t.Helper()
	resp, err := client.Do(request(t, method, url, header...))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func encodeIn(t testing.TB, reg *wire.Registry, codec string, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := reg.EncodeWith(codec, r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeltaSequence: the RFC 3229 exchange of a client that holds an
// answer and asks again, in a text codec (priced in tokens) and a binary
// one (priced in bytes): 200 first, 304 while nothing changed, 226 with a
// delta that patches what the client holds into exactly the current
// answer once a node changed, 304 again for the new tag, and 200 for a
// tag the server does not know.
func TestDeltaSequence(t *testing.T) {
	for _, codec := range []string{"json", "fake"} {
		t.Run(codec, func(t *testing.T) {
			reg := deltaRegistry(t)
			s, err := wirehttp.New(reg, wirehttp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			base, next := deltaCase(t)
			m, srv := serveMutable(t, s, base)
			url := srv.URL + "/g?format=" + codec
			c := srv.Client()

			first := fetchIM(t, c, "GET", url, "A-IM", wirehttp.DeltaIM)
			if first.status != 200 || !bytes.Equal(first.body, encodeIn(t, reg, codec, base)) {
				t.Fatalf("first: status %d, %d bytes; want 200 and the full answer", first.status, len(first.body))
			}
			e1 := first.header.Get("ETag")
			if a := fetchIM(t, c, "GET", url, "A-IM", wirehttp.DeltaIM, "If-None-Match", e1); a.status != 304 || len(a.body) != 0 || a.header.Get("ETag") != e1 {
				t.Errorf("unchanged: status %d, ETag %q, %d bytes; want 304 %s", a.status, a.header.Get("ETag"), len(a.body), e1)
			}

			m.resp.Store(next)
			full := encodeIn(t, reg, codec, next)
			a := fetchIM(t, c, "GET", url, "A-IM", "vcdiff, "+wirehttp.DeltaIM, "If-None-Match", `"other", `+e1)
			if a.status != http.StatusIMUsed {
				t.Fatalf("changed: status %d, want 226", a.status)
			}
			plain := fetchIM(t, c, "GET", url)
			e2 := plain.header.Get("ETag")
			for k, want := range map[string]string{"IM": wirehttp.DeltaIM, "Delta-Base": e1, "ETag": e2,
				"Content-Type": plain.header.Get("Content-Type"), "Content-Length": strconv.Itoa(len(a.body)),
				"Cache-Control": "no-store, im"} {
				if got := a.header.Get(k); got != want {
					t.Errorf("226: %s %q, want %q", k, got, want)
				}
			}
			held, err := reg.DecodeWith(codec, first.body)
			if err != nil {
				t.Fatal(err)
			}
			want, err := reg.DecodeWith(codec, full)
			if err != nil {
				t.Fatal(err)
			}
			if err := patchesTo(held, a.body, want); err != nil {
				t.Error(err)
			}
			// Worth it, by the codec's unit.
			cost := func(b []byte) int { return len(b) }
			if codec == "json" {
				cost = func(b []byte) int { return testsupport.Tokens(t, tokens.O200k, b) }
			}
			if dc, fc := cost(a.body), cost(full); !delta.Worth(dc, fc, 0) {
				t.Errorf("226 sent a delta of cost %d for a full answer of %d", dc, fc)
			} else {
				t.Logf("%s: delta %d, full %d (%.1f%%)", codec, dc, fc, 100*float64(dc)/float64(fc))
			}

			// HEAD: the same headers, no body.
			if h := fetchIM(t, c, "HEAD", url, "A-IM", wirehttp.DeltaIM, "If-None-Match", e1); h.status != 226 || len(h.body) != 0 ||
				h.header.Get("Content-Length") != strconv.Itoa(len(a.body)) {
				t.Errorf("HEAD: status %d, Content-Length %s, %d bytes", h.status, h.header.Get("Content-Length"), len(h.body))
			}
			// The client holds the result now: 304 for its tag.
			if a := fetchIM(t, c, "GET", url, "A-IM", wirehttp.DeltaIM, "If-None-Match", e2); a.status != 304 {
				t.Errorf("after the delta: status %d, want 304", a.status)
			}
			for name, hdr := range map[string][]string{
				"unknown base":       {"A-IM", wirehttp.DeltaIM, "If-None-Match", `"unknown"`},
				"no A-IM":            {"If-None-Match", e1},
				"A-IM of another IM": {"A-IM", "vcdiff", "If-None-Match", e1},
				"A-IM q=0":           {"A-IM", wirehttp.DeltaIM + ";q=0, vcdiff", "If-None-Match", e1},
			} {
				if a := fetchIM(t, c, "GET", url, hdr...); a.status != 200 || !bytes.Equal(a.body, full) {
					t.Errorf("%s: status %d, %d bytes; want 200 and the full answer", name, a.status, len(a.body))
				}
			}
			// A base held in another format is not a base for this one.
			other := "json"
			if codec == "json" {
				other = "fake"
			}
			o := fetchIM(t, c, "GET", srv.URL+"/g?format="+other, "A-IM", wirehttp.DeltaIM)
			m.resp.Store(base)
			if a := fetchIM(t, c, "GET", url, "A-IM", wirehttp.DeltaIM, "If-None-Match", o.header.Get("ETag")); a.status != 200 {
				t.Errorf("base in %s: status %d, want 200", other, a.status)
			}
			// Back to base: the client holding next gets a delta again.
			if a := fetchIM(t, c, "GET", url, "A-IM", wirehttp.DeltaIM, "If-None-Match", e2); a.status != 226 || a.header.Get("Delta-Base") != e2 {
				t.Errorf("back to the base: status %d, Delta-Base %q", a.status, a.header.Get("Delta-Base"))
			}
		})
	}
}

// TestDeltaNotWorth: a response that changed too much, and a codec
// without a delta syntax, get the full answer, and the second keeps no
// base.
func TestDeltaNotWorth(t *testing.T) {
	reg := deltaRegistry(t)
	s, err := wirehttp.New(reg, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := deltaCase(t)
	other := &wire.GraphResponse{FormatVersion: base.FormatVersion, QueryType: base.QueryType,
		Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{{Key: "name", Value: wire.String("x")}}}}}
	m, srv := serveMutable(t, s, base)
	c := srv.Client()

	e1 := fetchIM(t, c, "GET", srv.URL+"/?format=json", "A-IM", wirehttp.DeltaIM).header.Get("ETag")
	m.resp.Store(other)
	if a := fetchIM(t, c, "GET", srv.URL+"/?format=json", "A-IM", wirehttp.DeltaIM, "If-None-Match", e1); a.status != 200 ||
		!bytes.Equal(a.body, encodeIn(t, reg, "json", other)) {
		t.Errorf("all changed: status %d; want 200 and the full answer", a.status)
	}

	s2, err := wirehttp.New(reg, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m2 := &mutable{s: s2}
	m2.resp.Store(base)
	srv2 := httptest.NewServer(m2)
	defer srv2.Close()
	e := fetchIM(t, c, "GET", srv2.URL+"/?format=plain", "A-IM", wirehttp.DeltaIM).header.Get("ETag")
	_, next := deltaCase(t)
	m2.resp.Store(next)
	if a := fetchIM(t, c, "GET", srv2.URL+"/?format=plain", "A-IM", wirehttp.DeltaIM, "If-None-Match", e); a.status != 200 {
		t.Errorf("codec without delta syntax: status %d, want 200", a.status)
	}
	if n, _ := s2.DeltaStats(); n != 0 {
		t.Errorf("codec without delta syntax: %d bases kept, want 0", n)
	}
}

// TestDeltaOff: Options.Delta.Off answers every request in full and keeps
// nothing; bad options are refused by New.
func TestDeltaOff(t *testing.T) {
	reg := deltaRegistry(t)
	s, err := wirehttp.New(reg, wirehttp.Options{Delta: wirehttp.DeltaOptions{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	base, next := deltaCase(t)
	m, srv := serveMutable(t, s, base)
	e := fetchIM(t, srv.Client(), "GET", srv.URL, "A-IM", wirehttp.DeltaIM).header.Get("ETag")
	m.resp.Store(next)
	if a := fetchIM(t, srv.Client(), "GET", srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", e); a.status != 200 {
		t.Errorf("Off: status %d, want 200", a.status)
	}
	if n, _ := s.DeltaStats(); n != 0 {
		t.Errorf("Off: %d bases kept", n)
	}
	for _, o := range []wirehttp.DeltaOptions{{MaxBases: -1}, {MaxBytes: -1}, {Threshold: 1.5}, {Threshold: -0.1}} {
		if _, err := wirehttp.New(reg, wirehttp.Options{Delta: o}); err == nil {
			t.Errorf("New accepted %+v", o)
		}
	}
}

// TestDeltaStaticCompressed: Static's answers (a Catalog's) take part,
// and under compression the client's tag of the gzip variant names the
// same base; the 226 is compressed as any answer, its ETag suffixed.
func TestDeltaStaticCompressed(t *testing.T) {
	reg := deltaRegistry(t)
	s, err := wirehttp.New(reg, wirehttp.Options{Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	base, next := deltaCase(t)
	h, err := s.Catalog([]wirehttp.Resource{{Name: "v1", Response: base}, {Name: "v2", Response: next}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	first := fetchIM(t, c, "GET", srv.URL+"/v1", "A-IM", wirehttp.DeltaIM, "Accept-Encoding", "gzip")
	e1 := first.header.Get("ETag")
	if first.header.Get("Content-Encoding") != "gzip" || !bytes.HasSuffix([]byte(e1), []byte(`-gzip"`)) {
		t.Fatalf("first: Content-Encoding %q, ETag %q; want gzip", first.header.Get("Content-Encoding"), e1)
	}
	a := fetchIM(t, c, "GET", srv.URL+"/v2", "A-IM", wirehttp.DeltaIM, "If-None-Match", e1, "Accept-Encoding", "gzip")
	if a.status != 226 || a.header.Get("Delta-Base") != e1 {
		t.Fatalf("status %d, Delta-Base %q; want 226 from %s", a.status, a.header.Get("Delta-Base"), e1)
	}
	body := a.body
	if a.header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	if err := patchesTo(base, body, next); err != nil {
		t.Error(err)
	}
}

// TestDeltaLossyCodec: toon writes the float 1.0 as 1, so what a client
// holds is not the response the server encoded; the delta is made
// between what the client reads, and patches it into exactly what the
// full answer reads as.
func TestDeltaLossyCodec(t *testing.T) {
	tn, err := toon.New(toon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(tn)
	s, err := wirehttp.New(reg, wirehttp.Options{Default: "toon"})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := deltaCase(t)
	base = wiretest.Clone(base)
	for i := range base.Nodes {
		base.Nodes[i].Properties = append(base.Nodes[i].Properties, wire.Property{Key: "score", Value: wire.Float(1.0)})
	}
	next := wiretest.Clone(base)
	next.Nodes[3].Properties = append(next.Nodes[3].Properties, wire.Property{Key: "reviewed", Value: wire.Bool(true)})
	held, err := reg.DecodeWith("toon", encodeIn(t, reg, "toon", base))
	if err != nil {
		t.Fatal(err)
	}
	if wiretest.Diff(base, held, wire.Exact) == "" {
		t.Fatal("toon kept 1.0 a float: the test needs a lossy codec")
	}
	m, srv := serveMutable(t, s, base)
	first := fetchIM(t, srv.Client(), "GET", srv.URL, "A-IM", wirehttp.DeltaIM)
	m.resp.Store(next)
	a := fetchIM(t, srv.Client(), "GET", srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", first.header.Get("ETag"))
	if a.status != 226 {
		t.Fatalf("status %d, want 226", a.status)
	}
	d, err := delta.DecodeDelta(tn, a.body)
	if err != nil {
		t.Fatal(err)
	}
	held, err = reg.DecodeWith("toon", first.body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := delta.Patch(held, d)
	if err != nil {
		t.Fatalf("patching what the client holds: %v", err)
	}
	want, err := reg.DecodeWith("toon", encodeIn(t, reg, "toon", next))
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
		t.Errorf("patched (-want +got):\n%s", diff)
	}
}

// TestDeltaFallbacks: the delta path falls back to the full answer when
// the in-flight bound cannot hold its decodes, and when the codec cannot
// read its own output (logged); RespondEncoded's answers take part.
func TestDeltaFallbacks(t *testing.T) {
	base, next := deltaCase(t)
	// run serves base, then next, by RespondEncoded (and Convert at
	// /convert), and requires the status of a request for a delta; busy,
	// when set, runs before that request.
	run := func(t *testing.T, reg *wire.Registry, o wirehttp.Options, wantStatus int, busy func(*wirehttp.Server, string)) {
		t.Helper()
		s, err := wirehttp.New(reg, o)
		if err != nil {
			t.Fatal(err)
		}
		var cur atomic.Pointer[wire.GraphResponse]
		cur.Store(base)
		mux := http.NewServeMux()
		mux.Handle("/convert", s.Convert())
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			body, err := reg.EncodeWith("json", cur.Load())
			if err != nil {
				t.Error(err)
			}
			s.RespondEncoded(w, r, wirehttp.Encoded{Codec: "json", Body: body})
		})
		srv := httptest.NewServer(mux)
		defer func() {
			srv.CloseClientConnections() // a busy POST never ends on its own
			srv.Close()
		}()
		e := fetchIM(t, srv.Client(), "GET", srv.URL, "A-IM", wirehttp.DeltaIM).header.Get("ETag")
		cur.Store(next)
		if busy != nil {
			busy(s, srv.Listener.Addr().String())
		}
		if a := fetchIM(t, srv.Client(), "GET", srv.URL, "A-IM", wirehttp.DeltaIM, "If-None-Match", e); a.status != wantStatus {
			t.Errorf("status %d, want %d", a.status, wantStatus)
		}
	}
	quiet := log.New(io.Discard, "", 0)
	t.Run("RespondEncoded", func(t *testing.T) { run(t, deltaRegistry(t), wirehttp.Options{ErrorLog: quiet}, 226, nil) })
	t.Run("in-flight bound", func(t *testing.T) {
		// A POST that declared a body it does not send holds the whole
		// bound while the delta is asked for.
		run(t, deltaRegistry(t), wirehttp.Options{ErrorLog: quiet, MaxInFlightBytes: 4 << 20}, 200, func(s *wirehttp.Server, addr string) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			fmt.Fprintf(conn, "POST /convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
			for deadline := time.Now().Add(10 * time.Second); s.InFlightBytes() < 4<<20; {
				if time.Now().After(deadline) {
					t.Fatalf("the POST is charged %d bytes, not the whole bound", s.InFlightBytes())
				}
				time.Sleep(time.Millisecond)
			}
		})
	})
	t.Run("undecodable", func(t *testing.T) {
		reg, err := wire.NewRegistry(wire.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		reg.Register(blindJSON{cjson.Default()})
		var logged bytes.Buffer
		run(t, reg, wirehttp.Options{ErrorLog: log.New(&logged, "", 0)}, 200, nil)
		if !strings.Contains(logged.String(), "decoding the base") {
			t.Errorf("log %q does not say the base could not be decoded", logged.String())
		}
	})
}

// blindJSON is json that cannot read anything.
type blindJSON struct{ *cjson.Codec }

func (blindJSON) Decode([]byte) (*wire.GraphResponse, error) {
	return nil, &wire.DecodeError{Codec: "json", Msg: "cannot read"}
}
