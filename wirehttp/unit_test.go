package wirehttp

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
)

// tiny is a response small enough to write its encodings by hand.
func tiny() *wire.GraphResponse {
	return &wire.GraphResponse{
		FormatVersion: "1.2.0",
		QueryType:     wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 7, Properties: []wire.Property{
			{Key: "username", Value: wire.String("a<b>&c")},
		}}},
		Edges: []wire.Edge{},
	}
}

// The envelope's bytes, written out by hand from the shape GKG's HTTP
// layer sends: result, query_type, row_count; compact; HTML characters
// escaped as encoding/json's Encoder does; one trailing newline.
func TestEnvelopeBytes(t *testing.T) {
	canon, err := jsoncodec.AppendEncode(nil, tiny())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"7","username":"a<b>&c"}],"edges":[]}`; string(canon) != want {
		t.Fatalf("canonical JSON changed: %s", canon)
	}
	got, err := appendEnvelope([]byte("prefix:"), canon, "search", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := `prefix:{"result":{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"7","username":"a\u003cb\u003e\u0026c"}],"edges":[]},"query_type":"search","row_count":1}` + "\n"
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("json envelope (-want +got):\n%s", d)
	}
	text := "@header\nquery_type:search\nname:\"a<b>\"\ttab\n"
	got, err = appendEnvelope(nil, []byte(text), "search", 3)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"result":"@header\nquery_type:search\nname:\"a\u003cb\u003e\"\ttab\n","query_type":"search","row_count":3}` + "\n"
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("text envelope (-want +got):\n%s", d)
	}
	// row_count is GKG's int32: it saturates.
	got, err = appendEnvelope(nil, []byte("x"), "traversal", 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(got), `"row_count":2147483647}`+"\n") {
		t.Errorf("row_count does not saturate: %s", got)
	}
}

func TestRowCount(t *testing.T) {
	e := func(pathID int64, valid bool) wire.Edge {
		return wire.Edge{From: "A", To: "B", Type: "R", PathID: wire.Opt[int64]{V: pathID, Valid: valid}}
	}
	nodes := []wire.Node{{Type: "A", ID: 1}, {Type: "B", ID: 2}, {Type: "B", ID: 3}}
	for _, tc := range []struct {
		name string
		r    *wire.GraphResponse
		want int
	}{
		{"aggregation counts rows", &wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{}, {}}, Nodes: nodes}, 2},
		{"search counts nodes", &wire.GraphResponse{QueryType: wire.Search, Nodes: nodes, Edges: []wire.Edge{e(0, false)}}, 3},
		{"path_finding counts paths", &wire.GraphResponse{QueryType: wire.PathFinding, Nodes: nodes, Edges: []wire.Edge{e(1, true), e(1, true), e(2, true), e(0, false)}}, 3},
		{"traversal counts edges", &wire.GraphResponse{QueryType: wire.Traversal, Nodes: nodes, Edges: []wire.Edge{e(0, false), e(0, false)}}, 2},
		{"neighbors without edges counts nodes", &wire.GraphResponse{QueryType: wire.Neighbors, Nodes: nodes}, 3},
	} {
		if got := RowCount(tc.r); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want mediaRange
		ok   bool
	}{
		{"text/x-goon", mediaRange{typ: "text", sub: "x-goon", q: 1000}, true},
		{" TEXT/X-Goon ; version=1.0.0 ; q=0.5 ; ext=1", mediaRange{typ: "text", sub: "x-goon", params: "version=1.0.0 ;", q: 500}, true},
		{"*/*;Q=0", mediaRange{typ: "*", sub: "*", q: 0}, true},
		{"text/*;q=1.000", mediaRange{typ: "text", sub: "*", q: 1000}, true},
		{"text/*;q=0.001", mediaRange{typ: "text", sub: "*", q: 1}, true},
		{"*/json", mediaRange{}, false},
		{"text", mediaRange{}, false},
		{"text/plain;q=1.5", mediaRange{}, false},
		{"text/plain;q=0.0001", mediaRange{}, false},
		{"text/plain;q=", mediaRange{}, false},
		{"te xt/plain", mediaRange{}, false},
		{"", mediaRange{}, false},
	} {
		got, ok := parseRange(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("parseRange(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseParams(t *testing.T) {
	got, ok := parseParams(`A=1; b="x, \"y\""; ;c=z`)
	if !ok {
		t.Fatal("did not parse")
	}
	if d := cmp.Diff(map[string]string{"a": "1", "b": `x, "y"`, "c": "z"}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{`a`, `a="x`, `a=x y`, `=1`, `a="x"y"`} {
		if _, ok := parseParams(bad); ok {
			t.Errorf("parseParams(%q) parsed", bad)
		}
	}
}

func TestMatchIfNoneMatch(t *testing.T) {
	const etag = `"abc"`
	for _, tc := range []struct {
		values     []string
		compressed bool
		tag        string
		ok         bool
	}{
		{[]string{`"abc"`}, false, etag, true},
		{[]string{`W/"abc"`}, false, etag, true},
		{[]string{`"x", "abc"`}, false, etag, true},
		{[]string{`"x"`, `"abc"`}, false, etag, true},
		{[]string{`*`}, false, etag, true},
		{[]string{`"ab"`, `"abcd"`}, false, "", false},
		{[]string{`"abc-gzip"`}, false, "", false},
		{[]string{`"abc-gzip"`}, true, `"abc-gzip"`, true},
		{[]string{`W/"abc-zstd"`}, true, `"abc-zstd"`, true},
		{[]string{`"abc-br"`}, true, "", false},
		{[]string{`abc, "abc"`}, false, etag, true},
		{[]string{`"a,b", "abc"`}, false, etag, true},
		{[]string{`"unterminated`}, false, "", false},
		{[]string{``}, false, "", false},
	} {
		tag, ok := matchIfNoneMatch(tc.values, etag, tc.compressed)
		if tag != tc.tag || ok != tc.ok {
			t.Errorf("%q (compressed %v): %q, %v; want %q, %v", tc.values, tc.compressed, tag, ok, tc.tag, tc.ok)
		}
	}
}

func TestNewOptions(t *testing.T) {
	if _, err := New(nil, Options{Default: "nope"}); err == nil || !errors.Is(err, wire.ErrUnknownCodec) {
		t.Errorf("unknown Default: %v", err)
	}
	if _, err := New(nil, Options{Preference: []string{"toon", "nope"}}); err == nil || !strings.Contains(err.Error(), "Preference") {
		t.Errorf("unknown Preference: %v", err)
	}
	empty, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(empty, Options{}); err == nil {
		t.Error("an empty registry gave a Server")
	}
	// A preference order changes how ties break; the Default still
	// answers a request without Accept.
	s, err := New(nil, Options{Default: "llm", Preference: []string{"TOON", "msgpack"}})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, info := range s.Codecs() {
		order = append(order, info.Name)
	}
	if d := cmp.Diff([]string{"toon", "msgpack", "cbor", "gcf", "goon", "json"}, order); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	for accept, want := range map[string]string{"": "goon", "*/*": "toon", "application/*": "msgpack", "text/*": "toon"} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		c, err := s.Negotiate(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Info().Name; got != want {
			t.Errorf("Accept %q: %s, want %s", accept, got, want)
		}
	}
	// Errors are *Error values callers can inspect.
	r := httptest.NewRequest(http.MethodGet, "/?format=x", nil)
	_, err = s.Negotiate(r)
	var he *Error
	if !errors.As(err, &he) || he.Status != http.StatusBadRequest {
		t.Errorf("unknown format: %v", err)
	}
	// A long client string is quoted clipped.
	r = httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept", "image/"+strings.Repeat("x", 500))
	_, err = s.Negotiate(r)
	if !errors.As(err, &he) || he.Status != http.StatusNotAcceptable || len(he.Msg) > 400 {
		t.Errorf("406: %v", err)
	}
}

func TestCatalog(t *testing.T) {
	s, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range [][]Resource{
		{{Name: "", Response: tiny()}},
		{{Name: "/a", Response: tiny()}},
		{{Name: "a/", Response: tiny()}},
		{{Name: "a//b", Response: tiny()}},
		{{Name: "a"}},
		{{Name: "a", Response: tiny()}, {Name: "a", Response: tiny()}},
	} {
		if _, err := s.Catalog(rs); err == nil {
			t.Errorf("Catalog(%v) accepted", rs)
		}
	}
	h, err := s.Catalog([]Resource{{Name: "tiny", Response: tiny()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/", 200, "/tiny"},
		{"GET", "/", 200, "goon     llm"},
		{"GET", "/tiny?format=json", 200, `"username":"a<b>&c"`},
		{"GET", "/other", 404, `no response named "other"`},
		{"DELETE", "/", 405, "allowed: GET, HEAD, POST"},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.body) {
			t.Errorf("%s %s: %d %q; want %d with %q", tc.method, tc.path, w.Code, w.Body.String(), tc.status, tc.body)
		}
	}
}

// The memo of parameter matches is bounded and gives the answers
// wirecodec.MediaTypeMatches gives.
func TestParamMemo(t *testing.T) {
	s, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var goon *offer
	for i := range s.offers {
		if s.offers[i].info.Name == "goon" {
			goon = &s.offers[i]
		}
	}
	for round := range 2 {
		for i := range 200 {
			raw := "version=1.0." + strconv.Itoa(i)
			want := 0
			if i == 0 {
				want = specParamed + 1
			}
			if got := goon.paramSpec(raw); got != want {
				t.Fatalf("round %d: %q: %d, want %d", round, raw, got, want)
			}
		}
	}
	if n := len(*goon.memo.tab.Load()); n != maxMemo {
		t.Errorf("memo holds %d texts, want the bound %d", n, maxMemo)
	}
	for raw, want := range map[string]int{"": specExact, ";": specExact, "VERSION=1.0.0": specParamed + 1,
		"version=1.0.0; charset=UTF-8": specParamed + 2, "version=1.0.0;x=1": 0, `version="1.0.0"`: specParamed + 1, "version": 0} {
		if got := goon.paramSpec(raw); got != want {
			t.Errorf("%q: %d, want %d", raw, got, want)
		}
	}
}

func TestWildcardWithParameters(t *testing.T) {
	s, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for accept, want := range map[string]string{
		"*/*; version=1.0.0":            "goon",
		"text/*; version=1.0.0":         "goon",
		"*/*; charset=utf-8":            "json",
		"application/*; charset=utf-8":  "json",
		"*/*; version=2.0.0, text/toon": "toon",
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept", accept)
		c, err := s.Negotiate(r)
		if err != nil {
			t.Errorf("Accept %q: %v", accept, err)
			continue
		}
		if got := c.Info().Name; got != want {
			t.Errorf("Accept %q: %s, want %s", accept, got, want)
		}
	}
}
