package wirehttp_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"

	"github.com/graphwire/graphwire/bench/corpus"
	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/codecs/goon"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// smallLimit is MaxInputBytes of the "small" server's registry.
const smallLimit = 16 << 10

// fixture is the set of servers the table runs against, each a real
// loopback server (httptest.NewServer) reached with a real http.Client.
type fixture struct {
	small, adr *wire.GraphResponse
	std        *wire.Registry // the default registry: every built-in
	user       *wire.Registry // json, goon and the fake codec, small limits
	urls       map[string]string
	client     *http.Client
}

func caseByName(t testing.TB, name string) *wire.GraphResponse {
	t.Helper()
	for _, c := range testsupport.Generated() {
		if c.Profile == corpus.TextHeavy && c.Name == name {
			return c.Response
		}
	}
	t.Fatalf("no corpus case %s", name)
	return nil
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{
		small:  caseByName(t, "traversal_s"),
		adr:    caseByName(t, corpus.ADRCase),
		std:    wire.DefaultRegistry(),
		urls:   map[string]string{},
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}},
	}
	t.Cleanup(f.client.CloseIdleConnections)

	lim := wire.Limits{MaxInputBytes: smallLimit}
	f.user = registryOf(t, lim, limitedGoon(t, lim), fakeCodec{})

	start := func(name string, reg *wire.Registry, o wirehttp.Options) {
		s, err := wirehttp.New(reg, o)
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		mux.Handle("/s", s.Static(f.small))
		mux.Handle("/adr", s.Static(f.adr))
		mux.Handle("/respond", s.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.Respond(w, r, f.small)
		})))
		mux.Handle("/convert", s.Convert())
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		f.urls[name] = srv.URL
	}
	start("std", nil, wirehttp.Options{})
	start("env", nil, wirehttp.Options{Envelope: true})
	start("gz", nil, wirehttp.Options{Compress: true})
	start("user", f.user, wirehttp.Options{})
	return f
}

// tcase is one request and what its answer must be.
type tcase struct {
	name   string
	srv    string // std (default), env, gz, user
	method string // GET by default
	path   string // "/s?format=llm"
	hdr    []string
	body   []byte
	// hideLength sends the body without a Content-Length (chunked).
	hideLength bool
	// inm, when set, makes the case two requests: the first without
	// If-None-Match (from primePath, or path), whose ETag inm turns into
	// the If-None-Match of the second, the one checked.
	inm       func(etag string) string
	primePath string

	status int
	// codec: the body is the served response (resp, default small) in
	// this codec (for /convert: the posted body's response).
	codec    string
	resp     func(f *fixture) *wire.GraphResponse
	envelope bool     // codec's output inside GKG's envelope
	ctype    string   // exact Content-Type ("" = not checked, "-" = absent)
	encoding string   // exact Content-Encoding ("" = none)
	vary     []string // every one of these among the Vary values
	etag     string   // "strong" (a quoted tag), "-" (absent), "prime" (the first request's), "prime-gzip"
	contains []string // substrings of the body
	allow    string
	headOnly bool // HEAD: no body, Content-Length of the GET body
}

const goonType = "text/x-goon; version=1.0.0"

func cases() []tcase {
	prime := func(e string) string { return e }
	weak := func(e string) string { return "W/" + e }
	list := func(e string) string { return `"nope", W/"other",` + e }
	star := func(string) string { return "*" }
	other := func(string) string { return `"nope"` }
	gzipTag := func(e string) string { return e[:len(e)-1] + `-gzip"` }
	adr := func(f *fixture) *wire.GraphResponse { return f.adr }
	return []tcase{
		// The format parameter: names and aliases, any case; it wins.
		{name: "no format no Accept is json", path: "/s", status: 200, codec: "json", ctype: "application/json; charset=utf-8", vary: []string{"Accept"}, etag: "strong"},
		{name: "format json", path: "/s?format=json", status: 200, codec: "json"},
		{name: "format raw alias", path: "/s?format=raw", status: 200, codec: "json"},
		{name: "format llm alias", path: "/s?format=llm", status: 200, codec: "goon", ctype: goonType + "; charset=utf-8"},
		{name: "format LLM upper-case alias", path: "/s?format=LLM", status: 200, codec: "goon"},
		{name: "format GOON upper-case name", path: "/s?format=GOON", status: 200, codec: "goon"},
		{name: "format Toon mixed case", path: "/s?format=Toon", status: 200, codec: "toon", ctype: "text/toon; charset=utf-8"},
		{name: "format msgpack binary has no charset", path: "/s?format=msgpack", status: 200, codec: "msgpack", ctype: "application/vnd.msgpack; layout=graphwire; version=2"},
		{name: "format cbor", path: "/s?format=cbor", status: 200, codec: "cbor", ctype: "application/cbor; layout=graphwire; version=2"},
		{name: "unknown format is 400 listing names", path: "/s?format=xml", status: 400, ctype: "text/plain; charset=utf-8", etag: "-",
			contains: []string{`unknown format "xml"`, "goon (llm)", "json (raw)", "msgpack", "cbor", "toon"}},
		{name: "empty format is 400", path: "/s?format=", status: 400, contains: []string{`unknown format ""`}},
		{name: "format wins over Accept", path: "/s?format=llm", hdr: []string{"Accept", "application/json"}, status: 200, codec: "goon"},
		{name: "format wins over an Accept that excludes it", path: "/s?format=llm", hdr: []string{"Accept", "text/x-goon;q=0"}, status: 200, codec: "goon"},

		// Accept: media ranges, parameters, q-values.
		{name: "Accept goon", path: "/s", hdr: []string{"Accept", "text/x-goon"}, status: 200, codec: "goon"},
		{name: "Accept goon with its version", path: "/s", hdr: []string{"Accept", "text/x-goon; version=1.0.0"}, status: 200, codec: "goon"},
		{name: "Accept goon with another version is 406", path: "/s", hdr: []string{"Accept", "text/x-goon; version=2.0.0"}, status: 406,
			vary: []string{"Accept"}, contains: []string{"text/x-goon; version=1.0.0", "application/json", "text/toon", "application/vnd.msgpack; layout=graphwire; version=2", "application/cbor; layout=graphwire; version=2"}},
		{name: "Accept type is case-insensitive", path: "/s", hdr: []string{"Accept", "TEXT/X-GOON"}, status: 200, codec: "goon"},
		{name: "Accept parameter name is case-insensitive", path: "/s", hdr: []string{"Accept", "text/x-goon;VERSION=1.0.0"}, status: 200, codec: "goon"},
		{name: "Accept quoted parameter", path: "/s", hdr: []string{"Accept", `text/x-goon; version="1.0.0"`}, status: 200, codec: "goon"},
		{name: "Accept quoted comma does not split", path: "/s", hdr: []string{"Accept", `text/x-goon; version="1,0", text/toon;q=0.1`}, status: 200, codec: "toon"},
		{name: "Accept text/* ties go to server order (goon)", path: "/s", hdr: []string{"Accept", "text/*"}, status: 200, codec: "goon"},
		{name: "Accept */* is json", path: "/s", hdr: []string{"Accept", "*/*"}, status: 200, codec: "json"},
		{name: "Accept application/* is json", path: "/s", hdr: []string{"Accept", "application/*"}, status: 200, codec: "json"},
		{name: "q tie at 1 goes to server order, not header order", path: "/s", hdr: []string{"Accept", "text/toon, text/x-goon"}, status: 200, codec: "goon"},
		{name: "q tie at 0.5 goes to server order", path: "/s", hdr: []string{"Accept", "text/toon;q=0.5, text/x-goon;q=0.5"}, status: 200, codec: "goon"},
		{name: "binary q tie goes to server order (cbor before msgpack)", path: "/s", hdr: []string{"Accept", "application/vnd.msgpack;q=0.8, application/cbor;q=0.8, application/json;q=0.1"}, status: 200, codec: "cbor"},
		{name: "higher q wins", path: "/s", hdr: []string{"Accept", "text/toon;q=0.9, text/x-goon;q=0.8"}, status: 200, codec: "toon"},
		{name: "specific range beats wildcard", path: "/s", hdr: []string{"Accept", "text/*;q=0.3, text/toon"}, status: 200, codec: "toon"},
		{name: "q=0 excludes under a wildcard", path: "/s", hdr: []string{"Accept", "*/*;q=0.1, text/x-goon;q=0"}, status: 200, codec: "json"},
		{name: "q=0 excludes inside text/*", path: "/s", hdr: []string{"Accept", "text/*, text/x-goon;q=0"}, status: 200, codec: "toon"},
		{name: "Accept nothing offered is 406", path: "/s", hdr: []string{"Accept", "application/xml"}, status: 406, ctype: "text/plain; charset=utf-8", etag: "-", contains: []string{`Accept "application/xml"`}},
		{name: "Accept json q=0 only is 406", path: "/s", hdr: []string{"Accept", "application/json;q=0"}, status: 406},
		{name: "Accept */*;q=0 is 406", path: "/s", hdr: []string{"Accept", "image/png, */*;q=0"}, status: 406},
		{name: "charset=utf-8 ignored on a text codec", path: "/s", hdr: []string{"Accept", "application/json; charset=utf-8"}, status: 200, codec: "json"},
		{name: "charset on a binary codec does not match", path: "/s", hdr: []string{"Accept", "application/vnd.msgpack; charset=utf-8"}, status: 406},
		{name: "unparsable Accept is treated as absent", path: "/s", hdr: []string{"Accept", "nonsense"}, status: 200, codec: "json"},
		{name: "invalid q skips the element", path: "/s", hdr: []string{"Accept", "text/x-goon;q=1.5, text/toon;q=0.2"}, status: 200, codec: "toon"},
		{name: "several Accept fields are one list", path: "/s", hdr: []string{"Accept", "image/png", "Accept", "text/toon"}, status: 200, codec: "toon"},
		{name: "Respond negotiates like Static", path: "/respond", hdr: []string{"Accept", "text/*;q=0.5, application/cbor"}, status: 200, codec: "cbor", etag: "strong"},

		// ETag and If-None-Match; HEAD.
		{name: "304 after 200", path: "/s?format=llm", inm: prime, status: 304, ctype: "-", etag: "prime", vary: []string{"Accept"}},
		{name: "304 on a weak If-None-Match", path: "/s", inm: weak, status: 304, etag: "prime"},
		{name: "304 on a list holding the tag", path: "/s?format=toon", inm: list, status: 304, etag: "prime"},
		{name: "304 on *", path: "/s?format=cbor", inm: star, status: 304, etag: "prime"},
		{name: "200 on another tag", path: "/s?format=llm", inm: other, status: 200, codec: "goon", etag: "prime"},
		{name: "another format's tag does not match", path: "/s?format=json", primePath: "/s?format=llm", inm: prime, status: 200, codec: "json", etag: "strong"},
		{name: "Respond answers 304 too", path: "/respond?format=toon", inm: prime, status: 304, etag: "prime"},
		{name: "HEAD has the GET headers and no body", method: "HEAD", path: "/s?format=llm", status: 200, headOnly: true, codec: "goon", ctype: goonType + "; charset=utf-8", etag: "strong"},
		{name: "HEAD with If-None-Match is 304", method: "HEAD", path: "/s", inm: prime, status: 304, etag: "prime"},
		{name: "POST to a static resource is 405", method: "POST", path: "/s", status: 405, allow: "GET, HEAD"},

		// GKG's envelope: off above, on here; text codecs only.
		{name: "envelope around goon", srv: "env", path: "/s?format=llm", status: 200, codec: "goon", envelope: true, ctype: "application/json"},
		{name: "envelope around json holds the object", srv: "env", path: "/s", hdr: []string{"Accept", "application/json"}, status: 200, codec: "json", envelope: true},
		{name: "envelope around toon", srv: "env", path: "/s", hdr: []string{"Accept", "text/toon"}, status: 200, codec: "toon", envelope: true},
		{name: "no envelope around binary", srv: "env", path: "/s?format=msgpack", status: 200, codec: "msgpack", ctype: "application/vnd.msgpack; layout=graphwire; version=2"},
		{name: "envelope 304 after 200", srv: "env", path: "/s?format=llm", inm: prime, status: 304, etag: "prime"},
		{name: "envelope off gives bare goon", path: "/adr?format=llm", resp: adr, status: 200, codec: "goon"},

		// Compression (gzhttp), when the client accepts it.
		{name: "gzip when accepted", srv: "gz", path: "/adr?format=json", resp: adr, hdr: []string{"Accept-Encoding", "gzip"}, status: 200, codec: "json", encoding: "gzip", vary: []string{"Accept", "Accept-Encoding"}, etag: "strong"},
		{name: "zstd when accepted", srv: "gz", path: "/adr?format=llm", resp: adr, hdr: []string{"Accept-Encoding", "zstd"}, status: 200, codec: "goon", encoding: "zstd"},
		{name: "identity without Accept-Encoding", srv: "gz", path: "/adr?format=toon", resp: adr, status: 200, codec: "toon", encoding: "", etag: "strong", vary: []string{"Accept-Encoding"}},
		{name: "HEAD is never compressed (gzhttp), so keeps its Content-Length", srv: "gz", method: "HEAD", path: "/adr?format=llm", resp: adr, hdr: []string{"Accept-Encoding", "gzip"}, status: 200, headOnly: true, codec: "goon", encoding: "", etag: "strong"},
		{name: "gzip;q=0 is not used", srv: "gz", path: "/adr", resp: adr, hdr: []string{"Accept-Encoding", "gzip;q=0"}, status: 200, codec: "json", encoding: ""},
		{name: "304 on the gzip variant's tag", srv: "gz", path: "/adr?format=llm", hdr: []string{"Accept-Encoding", "gzip"}, inm: prime, status: 304, etag: "prime"},
		{name: "gzip variant's tag also matches an identity request", srv: "gz", path: "/adr?format=json", inm: gzipTag, status: 304, etag: "prime-gzip"},

		// Reading request bodies (Convert), within the registry's limits.
		{name: "POST json, answer goon", srv: "user", method: "POST", path: "/convert", body: mustEncode("json", smallResp()), hdr: []string{"Content-Type", "application/json", "Accept", "text/x-goon"}, status: 200, codec: "goon"},
		{name: "POST goon, answer json", srv: "user", method: "POST", path: "/convert?format=json", body: mustEncode("goon", smallResp()), hdr: []string{"Content-Type", goonType}, status: 200, codec: "json", resp: goonRoundTrip},
		{name: "POST without Content-Type is read as json", srv: "user", method: "POST", path: "/convert?format=json", body: mustEncode("json", smallResp()), status: 200, codec: "json"},
		{name: "POST goon without Content-Type is sniffed as goon", srv: "user", method: "POST", path: "/convert?format=json", body: mustEncode("goon", smallResp()), status: 200, codec: "json", resp: goonRoundTrip},
		{name: "POST without Content-Type that looks like nothing is read as json", srv: "user", method: "POST", path: "/convert?format=json", body: []byte("\x00\x01 not a response"), status: 400, contains: []string{"json: offset 0"}},
		{name: "POST with charset on a text type", srv: "user", method: "POST", path: "/convert?format=json", body: mustEncode("json", smallResp()), hdr: []string{"Content-Type", "application/json; charset=utf-8"}, status: 200, codec: "json"},
		{name: "POST unknown Content-Type is 415", srv: "user", method: "POST", path: "/convert", body: []byte("<x/>"), hdr: []string{"Content-Type", "application/xml"}, status: 415, contains: []string{`"application/xml"`, "application/x-fake; v=2"}},
		{name: "POST other goon version is 415", srv: "user", method: "POST", path: "/convert", body: []byte("x"), hdr: []string{"Content-Type", "text/x-goon; version=9"}, status: 415},
		{name: "POST malformed Content-Type is 400", srv: "user", method: "POST", path: "/convert", body: []byte("x"), hdr: []string{"Content-Type", "/;;"}, status: 400, contains: []string{"does not parse"}},
		{name: "POST gzip-encoded body is 415", srv: "user", method: "POST", path: "/convert", body: []byte("x"), hdr: []string{"Content-Type", "application/json", "Content-Encoding", "gzip"}, status: 415},
		{name: "POST over the limit by Content-Length is 413", srv: "user", method: "POST", path: "/convert", body: bytes.Repeat([]byte(" "), smallLimit+1), hdr: []string{"Content-Type", "application/json"}, status: 413, contains: []string{"MaxInputBytes"}},
		{name: "POST over the limit chunked is 413", srv: "user", method: "POST", path: "/convert", body: bytes.Repeat([]byte(" "), 3*smallLimit), hideLength: true, hdr: []string{"Content-Type", "application/json"}, status: 413},
		{name: "POST at the limit is read", srv: "user", method: "POST", path: "/convert?format=json", body: padTo(mustEncode("json", smallResp()), smallLimit), hdr: []string{"Content-Type", "application/json"}, status: 200, codec: "json"},
		{name: "POST bad json is 400 with the offset", srv: "user", method: "POST", path: "/convert", body: []byte(`{"format_version":"1","query_type":"search","nodes":[{"type":"User","id":"x"}],"edges":[]}`), hdr: []string{"Content-Type", "application/json"}, status: 400, contains: []string{"json: offset"}},
		{name: "POST bad goon is 400 with the line", srv: "user", method: "POST", path: "/convert", body: []byte("@header\nquery_type:nonsense\n"), hdr: []string{"Content-Type", goonType}, status: 400, contains: []string{"goon: line"}},
		{name: "GET on convert is 405", srv: "user", path: "/convert", status: 405, allow: "POST"},
		{name: "POST with nothing acceptable is 406 before reading", srv: "user", method: "POST", path: "/convert", body: mustEncode("json", smallResp()), hdr: []string{"Accept", "text/toon"}, status: 406, contains: []string{"application/x-fake; v=2"}},

		// A registry with a user codec.
		{name: "user codec by Accept", srv: "user", path: "/s", hdr: []string{"Accept", "application/x-fake"}, status: 200, codec: "fake", ctype: "application/x-fake; v=2"},
		{name: "user codec by upper-case alias", srv: "user", path: "/s?format=FK", status: 200, codec: "fake"},
		{name: "user codec parameters must match", srv: "user", path: "/s", hdr: []string{"Accept", "application/x-fake; v=3"}, status: 406},
		{name: "user registry lists its own names", srv: "user", path: "/s?format=toon", status: 400, contains: []string{"fake (fk)", "goon (llm)", "json (raw)"}},
		{name: "POST in the user codec", srv: "user", method: "POST", path: "/convert?format=json", body: mustEncode("fake", smallResp()), hdr: []string{"Content-Type", "application/x-fake; v=2"}, status: 200, codec: "json"},
	}
}

var smallCase = func() *wire.GraphResponse {
	for _, c := range testsupport.Generated() {
		if c.Profile == corpus.TextHeavy && c.Name == "traversal_s" {
			return c.Response
		}
	}
	panic("no traversal_s")
}()

func smallResp() *wire.GraphResponse { return smallCase }

// goonRoundTrip is the small case as a GOON reader gets it back.
func goonRoundTrip(*fixture) *wire.GraphResponse {
	r, err := goon.Decode(mustEncode("goon", smallCase))
	if err != nil {
		panic(err)
	}
	return r
}

func mustEncode(codec string, r *wire.GraphResponse) []byte {
	var b []byte
	var err error
	if codec == "fake" {
		b, err = fakeCodec{}.AppendEncode(nil, r)
	} else {
		b, err = wire.EncodeWith(codec, r)
	}
	if err != nil {
		panic(err)
	}
	return b
}

// padTo pads a JSON document with trailing spaces to exactly n bytes.
func padTo(b []byte, n int) []byte {
	return append(b, bytes.Repeat([]byte(" "), n-len(b))...)
}

type hiddenLength struct{ r io.Reader }

func (h hiddenLength) Read(p []byte) (int, error) { return h.r.Read(p) }

func (f *fixture) do(t *testing.T, tc tcase, path, inm string) (*http.Response, []byte) {
	t.Helper()
	method := tc.method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if tc.body != nil {
		body = bytes.NewReader(tc.body)
		if tc.hideLength {
			body = hiddenLength{body}
		}
	}
	srv := tc.srv
	if srv == "" {
		srv = "std"
	}
	req, err := http.NewRequest(method, f.urls[srv]+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(tc.hdr); i += 2 {
		req.Header.Add(tc.hdr[i], tc.hdr[i+1])
	}
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	return send(t, f.client, req)
}

// request is a request without a body, with the header pairs given (Add,
// so a name may come twice).
func request(t testing.TB, method, url string, header ...string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	return req
}

// send sends req with client and returns the response with its whole body.
func send(t testing.TB, client *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func TestServeTable(t *testing.T) {
	f := newFixture(t)
	all := cases()
	if len(all) < 40 {
		t.Fatalf("only %d cases", len(all))
	}
	t.Logf("%d cases", len(all))
	for _, tc := range all {
		t.Run(tc.name, func(t *testing.T) { f.check(t, tc) })
	}
}

func (f *fixture) check(t *testing.T, tc tcase) {
	primeTag := ""
	if tc.inm != nil {
		pp := tc.primePath
		if pp == "" {
			pp = tc.path
		}
		first := tc
		first.method = ""
		r1, _ := f.do(t, first, pp, "")
		if r1.StatusCode != 200 {
			t.Fatalf("first request %s: status %d", pp, r1.StatusCode)
		}
		primeTag = r1.Header.Get("ETag")
		if primeTag == "" {
			t.Fatal("first request: no ETag")
		}
	}
	inm := ""
	if tc.inm != nil {
		inm = tc.inm(primeTag)
	}
	resp, body := f.do(t, tc, tc.path, inm)
	if resp.StatusCode != tc.status {
		t.Fatalf("status %d, want %d; body %q", resp.StatusCode, tc.status, clipBody(body))
	}
	h := resp.Header
	switch tc.ctype {
	case "":
	case "-":
		if v := h.Get("Content-Type"); v != "" {
			t.Errorf("Content-Type %q, want none", v)
		}
	default:
		if v := h.Get("Content-Type"); v != tc.ctype {
			t.Errorf("Content-Type %q, want %q", v, tc.ctype)
		}
	}
	if v := h.Get("Content-Encoding"); v != tc.encoding {
		t.Errorf("Content-Encoding %q, want %q", v, tc.encoding)
	}
	varies := strings.Join(h.Values("Vary"), ",")
	for _, v := range tc.vary {
		if !strings.Contains(varies, v) {
			t.Errorf("Vary %q lacks %s", varies, v)
		}
	}
	etag := h.Get("ETag")
	switch tc.etag {
	case "":
	case "-":
		if etag != "" {
			t.Errorf("ETag %q, want none", etag)
		}
	case "strong":
		if len(etag) < 3 || etag[0] != '"' || etag[len(etag)-1] != '"' || strings.HasPrefix(etag, "W/") {
			t.Errorf("ETag %q is not a strong tag", etag)
		}
	case "prime":
		if etag != primeTag {
			t.Errorf("ETag %q, want the first answer's %q", etag, primeTag)
		}
	case "prime-gzip":
		if want := primeTag[:len(primeTag)-1] + `-gzip"`; etag != want {
			t.Errorf("ETag %q, want %q", etag, want)
		}
	}
	if tc.allow != "" && h.Get("Allow") != tc.allow {
		t.Errorf("Allow %q, want %q", h.Get("Allow"), tc.allow)
	}
	for _, s := range tc.contains {
		if !bytes.Contains(body, []byte(s)) {
			t.Errorf("body %q lacks %q", clipBody(body), s)
		}
	}
	if tc.status == 304 {
		if len(body) != 0 {
			t.Errorf("304 with a body of %d bytes", len(body))
		}
		return
	}
	if tc.codec == "" {
		return
	}
	src := f.small
	if tc.resp != nil {
		src = tc.resp(f)
	}
	want := mustEncode(tc.codec, src)
	if tc.headOnly {
		if len(body) != 0 {
			t.Fatalf("HEAD answer has a body of %d bytes", len(body))
		}
		if cl := h.Get("Content-Length"); tc.encoding == "" && cl != strconv.Itoa(len(want)) {
			t.Errorf("HEAD Content-Length %s, want %d", cl, len(want))
		}
		return
	}
	// The body must be exactly the codec's bytes (decoded from its
	// content coding first), and Content-Length their count.
	switch tc.encoding {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		body, err = io.ReadAll(zr)
		zr.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if tc.envelope {
		checkEnvelope(t, body, tc.codec, want, src)
		return
	}
	if !bytes.Equal(body, want) {
		t.Fatalf("body differs from the %s codec's bytes:\n got %q\nwant %q", tc.codec, clipBody(body), clipBody(want))
	}
	if tc.encoding == "" {
		if cl := h.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
			t.Errorf("Content-Length %s, want %d", cl, len(want))
		}
	}
}

// checkEnvelope checks GKG's envelope: result holds the codec's output
// (the object itself for json, a string otherwise), then query_type and
// row_count, in that order, compact, with one trailing newline.
func checkEnvelope(t *testing.T, body []byte, codec string, inner []byte, r *wire.GraphResponse) {
	t.Helper()
	if !bytes.HasPrefix(body, []byte(`{"result":`)) || !bytes.HasSuffix(body, []byte(`,"query_type":"`+string(r.QueryType)+`","row_count":`+strconv.Itoa(wirehttp.RowCount(r))+"}\n")) {
		t.Fatalf("envelope shape: %q", clipBody(body))
	}
	var env struct {
		Result    json.RawMessage `json:"result"`
		QueryType string          `json:"query_type"`
		RowCount  int             `json:"row_count"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatal(err)
	}
	if codec == "json" {
		got, err := cjson.Decode(env.Result)
		if err != nil {
			t.Fatal(err)
		}
		if d := wiretest.Diff(r, got, wire.Exact); d != "" {
			t.Fatalf("enveloped json result differs (-want +got):\n%s", d)
		}
		return
	}
	var s string
	if err := json.Unmarshal(env.Result, &s); err != nil {
		t.Fatalf("result is not a string: %v", err)
	}
	if d := cmp.Diff(string(inner), s); d != "" {
		t.Fatalf("enveloped %s text differs (-want +got):\n%s", codec, d)
	}
}

func clipBody(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// Streaming: a large response in a StreamEncoder codec is encoded twice
// (hash, then connection) and gets the same headers and bytes as the
// buffered path.
func TestRespondStreams(t *testing.T) {
	var appends, streams atomic.Int64
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(streamCodec{appends: &appends, streams: &streams})
	adr := caseByName(t, corpus.ADRCase)
	client := &http.Client{Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	get := func(o wirehttp.Options, inm string) (*http.Response, []byte) {
		s, err := wirehttp.New(reg, wirehttp.Options{Default: "stream", StreamElements: o.StreamElements})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, adr) }))
		defer srv.Close()
		req, _ := http.NewRequest("GET", srv.URL, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		return send(t, client, req)
	}
	bufResp, bufBody := get(wirehttp.Options{StreamElements: -1}, "")
	if appends.Load() != 1 || streams.Load() != 0 {
		t.Fatalf("buffered path: %d appends, %d streams", appends.Load(), streams.Load())
	}
	stResp, stBody := get(wirehttp.Options{StreamElements: 100}, "")
	if appends.Load() != 1 || streams.Load() != 2 {
		t.Fatalf("streamed path: %d appends, %d streams; want 1 and 2", appends.Load(), streams.Load())
	}
	want := mustEncode("json", adr)
	if !bytes.Equal(bufBody, want) || !bytes.Equal(stBody, want) {
		t.Fatal("bodies differ from the codec's bytes")
	}
	for _, k := range []string{"ETag", "Content-Length", "Content-Type"} {
		if bufResp.Header.Get(k) != stResp.Header.Get(k) || stResp.Header.Get(k) == "" {
			t.Errorf("%s: buffered %q, streamed %q", k, bufResp.Header.Get(k), stResp.Header.Get(k))
		}
	}
	nm, b := get(wirehttp.Options{StreamElements: 100}, stResp.Header.Get("ETag"))
	if nm.StatusCode != 304 || len(b) != 0 {
		t.Fatalf("streamed revalidation: %d with %d bytes", nm.StatusCode, len(b))
	}
	if streams.Load() != 3 {
		t.Fatalf("a 304 must encode once (for the tag), not twice: %d streams", streams.Load())
	}
}
