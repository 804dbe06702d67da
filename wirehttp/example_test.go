package wirehttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
)

func Example() {
	resp, err := wire.DecodeWith("json", []byte(`{"format_version":"1.2.0","query_type":"search",`+
		`"nodes":[{"type":"User","id":"1","username":"ana"}],"edges":[]}`))
	if err != nil {
		panic(err)
	}
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(s.Static(resp))
	defer srv.Close()

	get := func(path, accept, ifNoneMatch string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		return r
	}
	r := get("/?format=llm", "", "")
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	fmt.Println(r.StatusCode, r.Header.Get("Content-Type"))
	fmt.Print(string(body))

	// Asking again with the ETag: nothing to read.
	r = get("/?format=llm", "", r.Header.Get("ETag"))
	r.Body.Close()
	fmt.Println(r.StatusCode)

	r = get("/", "text/toon;q=0.9, application/json;q=0.5", "")
	body, _ = io.ReadAll(r.Body)
	r.Body.Close()
	fmt.Println(r.StatusCode, r.Header.Get("Content-Type"), strings.Count(string(body), "\n")+1, "lines")

	r = get("/", "application/xml", "")
	r.Body.Close()
	fmt.Println(r.StatusCode)
	// Output:
	// 200 text/x-goon; version=1.0.0; charset=utf-8
	// @header
	// query_type:search
	// goon_version:1.0.0
	// nodes:1
	// edges:0
	// @nodes
	// User(1):
	// 1 username=ana
	// @edges
	// 304
	// 200 text/toon; charset=utf-8 6 lines
	// 406
}

// A Client walks the pages of an upstream that paginates by cursor,
// decoding each in the format it asked for.
func ExampleClient_Pages() {
	page := func(id int64, next string) *wire.GraphResponse {
		r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{},
			Nodes:      []wire.Node{{Type: "User", ID: id}},
			Pagination: &wire.Pagination{HasMore: next != "", Truncated: wire.Some(next != "")}}
		if next != "" {
			r.Pagination.NextCursor = wire.Some(next)
		}
		return r
	}
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		panic(err)
	}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("cursor") {
		case "":
			s.Respond(w, r, page(1, "c2"))
		case "c2":
			s.Respond(w, r, page(2, ""))
		default:
			s.WriteError(w, r, &wirehttp.Error{Status: http.StatusBadRequest, Msg: "unknown cursor"})
		}
	}))
	defer upstream.Close()

	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "llm"})
	if err != nil {
		panic(err)
	}
	for p, err := range c.Pages(context.Background(), upstream.URL+"/users?group=7") {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		more := p.Pagination != nil && p.Pagination.NextCursor.Valid
		fmt.Println(p.Nodes[0].Type, p.Nodes[0].ID, "next_cursor:", more)
	}
	// Output:
	// User 1 next_cursor: true
	// User 2 next_cursor: false
}

// A fit page is served as fit encoded it: no second encoding.
func ExampleServer_RespondEncoded() {
	resp := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "User", ID: int64(1)}, {Type: "User", ID: int64(2)}}}
	res, err := fit.Page(resp, fit.Options{Codec: "goon", Budget: 1000})
	if err != nil {
		panic(err)
	}
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.RespondEncoded(w, r, wirehttp.Encoded{Codec: res.Stats.Codec, Body: res.Encoding})
	}))
	defer srv.Close()
	for _, q := range []string{"", "?format=json"} {
		r, err := http.Get(srv.URL + q)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		fmt.Println(r.StatusCode, r.Header.Get("Content-Type"), string(body) == string(res.Encoding))
	}
	// Output:
	// 200 text/x-goon; version=1.0.0; charset=utf-8 true
	// 406 text/plain; charset=utf-8 false
}
