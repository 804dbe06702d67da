package wirehttp_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
)

// A fit page's bytes are served as they are, with the negotiation, ETag,
// 304, HEAD and compression of any answer: the same bytes and tag that
// Static gives the page's response, without encoding it again.
func TestRespondEncodedFitPage(t *testing.T) {
	resp := caseByName(t, corpus.ADRCase)
	res, err := fit.Page(resp, fit.Options{Codec: "llm", Budget: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stats.Truncated || len(res.Encoding) < 4<<10 {
		t.Fatalf("want a first page of several KiB with more after it: %d bytes, truncated %v", len(res.Encoding), res.Stats.Truncated)
	}
	pageJSON := mustEncode("json", res.Page)
	var h hookLog
	s, err := wirehttp.New(nil, h.options(wirehttp.Options{Compress: true}))
	if err != nil {
		t.Fatal(err)
	}
	serve := func(encs ...wirehttp.Encoded) http.Handler {
		return s.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.RespondEncoded(w, r, encs...) }))
	}
	mux := http.NewServeMux()
	mux.Handle("/page", serve(wirehttp.Encoded{Codec: res.Stats.Codec, Body: res.Encoding}))
	mux.Handle("/static", s.Static(res.Page))
	mux.Handle("/tagged", serve(
		wirehttp.Encoded{Codec: goon.MediaType, Body: res.Encoding, ETag: `"page-1-goon"`},
		wirehttp.Encoded{Codec: "raw", Body: pageJSON, ETag: `"page-1-json"`}))
	mux.Handle("/bad", serve(wirehttp.Encoded{Codec: "nope", Body: res.Encoding}))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	goonType := goon.MediaType + "; charset=utf-8"

	code, hdr, body := get(t, client, "GET", base+"/page")
	if code != 200 || hdr.Get("Content-Type") != goonType || !bytes.Equal(body, res.Encoding) {
		t.Fatalf("page: %d %q, %d bytes equal to the page's: %v", code, hdr.Get("Content-Type"), len(body), bytes.Equal(body, res.Encoding))
	}
	tag := hdr.Get("ETag")
	_, shdr, sbody := get(t, client, "GET", base+"/static?format=goon")
	if !bytes.Equal(sbody, res.Encoding) || shdr.Get("ETag") != tag {
		t.Errorf("Static of the page: ETag %q, same bytes %v; RespondEncoded: %q", shdr.Get("ETag"), bytes.Equal(sbody, res.Encoding), tag)
	}
	if d := cmp.Diff([]string{"Accept-Encoding", "Accept"}, hdr.Values("Vary")); d != "" {
		t.Errorf("Vary (-want +got):\n%s", d)
	}
	if code, _, body := get(t, client, "GET", base+"/page", "If-None-Match", tag); code != 304 || len(body) != 0 {
		t.Errorf("If-None-Match: %d, %d bytes; want 304 and none", code, len(body))
	}
	code, hdr, body = get(t, client, "HEAD", base+"/page")
	if code != 200 || len(body) != 0 || hdr.Get("Content-Length") != strconv.Itoa(len(res.Encoding)) || hdr.Get("ETag") != tag {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %q, ETag %q", code, len(body), hdr.Get("Content-Length"), hdr.Get("ETag"))
	}
	code, hdr, body = get(t, client, "GET", base+"/page", "Accept-Encoding", "gzip")
	gzTag := strings.TrimSuffix(tag, `"`) + `-gzip"`
	if code != 200 || hdr.Get("Content-Encoding") != "gzip" || hdr.Get("ETag") != gzTag {
		t.Fatalf("gzip: %d, Content-Encoding %q, ETag %q (want %q)", code, hdr.Get("Content-Encoding"), hdr.Get("ETag"), gzTag)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(plain, res.Encoding) || len(body) >= len(plain) {
		t.Errorf("gzip body: %v, %d bytes for %d, equal to the page: %v", err, len(body), len(plain), bytes.Equal(plain, res.Encoding))
	}
	if code, _, _ := get(t, client, "GET", base+"/page", "Accept-Encoding", "gzip", "If-None-Match", gzTag); code != 304 {
		t.Errorf("If-None-Match with the gzip tag: %d, want 304", code)
	}

	// Negotiation among the encodings given.
	for _, tc := range []struct {
		path, accept string
		code         int
		ctype, etag  string
		body         []byte
	}{
		{"/page?format=json", "", 406, "", "", nil},
		{"/page", "application/json", 406, "", "", nil},
		{"/page", "application/json, text/x-goon;q=0.1", 200, goonType, tag, res.Encoding},
		{"/page?format=nope", "", 400, "", "", nil},
		{"/tagged", "", 200, "application/json; charset=utf-8", `"page-1-json"`, pageJSON},
		{"/tagged?format=llm", "", 200, goonType, `"page-1-goon"`, res.Encoding},
		{"/tagged", "text/*", 200, goonType, `"page-1-goon"`, res.Encoding},
		{"/tagged", "application/cbor", 406, "", "", nil},
	} {
		code, hdr, body := get(t, client, "GET", base+tc.path, "Accept", tc.accept)
		if code != tc.code {
			t.Errorf("%s Accept %q: %d %q; want %d", tc.path, tc.accept, code, body, tc.code)
			continue
		}
		if code != 200 {
			if code == 406 && !strings.Contains(string(body), "goon") {
				t.Errorf("%s Accept %q: 406 %q does not list what is available", tc.path, tc.accept, body)
			}
			continue
		}
		if hdr.Get("Content-Type") != tc.ctype || hdr.Get("ETag") != tc.etag || !bytes.Equal(body, tc.body) {
			t.Errorf("%s Accept %q: %q %q, expected bytes %v; want %q %q", tc.path, tc.accept,
				hdr.Get("Content-Type"), hdr.Get("ETag"), bytes.Equal(body, tc.body), tc.ctype, tc.etag)
		}
	}
	if code, _, _ := get(t, client, "GET", base+"/tagged?format=goon", "If-None-Match", `"page-1-goon"`); code != 304 {
		t.Errorf("a given ETag sent back: %d, want 304", code)
	}
	h.take()

	// Encodings the server cannot serve are its own fault.
	code, _, body = get(t, client, "GET", base+"/bad")
	calls := h.take()
	if code != 500 || string(body) != "wirehttp: internal server error\n" || len(calls) != 1 || calls[0].Status != 500 ||
		!strings.Contains(h.log(), `Encoded.Codec "nope"`) {
		t.Errorf("unknown Encoded.Codec: %d %q, hook %+v, log %q", code, body, calls, h.log())
	}
}

// RespondEncoded never calls the codec: the bytes given are the answer.
func TestRespondEncodedDoesNotEncode(t *testing.T) {
	reg := registryOf(t, wire.Limits{})
	var appends, streams atomic.Int64
	reg.Register(streamCodec{appends: &appends, streams: &streams})
	s, err := wirehttp.New(reg, wirehttp.Options{Default: "stream"})
	if err != nil {
		t.Fatal(err)
	}
	body := mustEncode("json", bigResponse(60_000))
	base := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.RespondEncoded(w, r, wirehttp.Encoded{Codec: "text/x-stream", Body: body})
	}), wirehttp.HTTPServerOptions{})
	code, hdr, got := get(t, &http.Client{Timeout: 30 * time.Second}, "GET", base)
	if code != 200 || hdr.Get("Content-Type") != "text/x-stream; charset=utf-8" || !bytes.Equal(got, body) {
		t.Fatalf("%d %q, same bytes %v", code, hdr.Get("Content-Type"), bytes.Equal(got, body))
	}
	if appends.Load() != 0 || streams.Load() != 0 {
		t.Errorf("the codec encoded: %d AppendEncode, %d EncodeTo calls", appends.Load(), streams.Load())
	}
}

// Under Options.Envelope, bytes already encoded in a text codec are
// wrapped as an encoded answer is: the same bytes Static sends for the
// page's response; without Encoded.Response, the server's fault.
func TestRespondEncodedEnvelope(t *testing.T) {
	resp := caseByName(t, "traversal_s")
	res, err := fit.Page(resp, fit.Options{Codec: "toon", Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	var h hookLog
	s, err := wirehttp.New(nil, h.options(wirehttp.Options{Envelope: true}))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/static", s.Static(res.Page))
	mux.Handle("/page", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.RespondEncoded(w, r, wirehttp.Encoded{Codec: "toon", Body: res.Encoding, Response: res.Page})
	}))
	mux.Handle("/bare", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.RespondEncoded(w, r, wirehttp.Encoded{Codec: "toon", Body: res.Encoding})
	}))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second}
	_, whdr, want := get(t, client, "GET", base+"/static?format=toon")
	code, hdr, got := get(t, client, "GET", base+"/page")
	if code != 200 || hdr.Get("Content-Type") != wirehttp.EnvelopeMediaType || hdr.Get("ETag") != whdr.Get("ETag") {
		t.Errorf("enveloped page: %d %q %q; Static: %q %q", code, hdr.Get("Content-Type"), hdr.Get("ETag"), whdr.Get("Content-Type"), whdr.Get("ETag"))
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("enveloped page (-Static +RespondEncoded):\n%s", d)
	}
	if code, _, _ := get(t, client, "GET", base+"/bare"); code != 500 || !strings.Contains(h.log(), "Encoded.Response") {
		t.Errorf("envelope without Encoded.Response: %d, log %q", code, h.log())
	}
}
