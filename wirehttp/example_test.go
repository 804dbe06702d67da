package wirehttp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	_ "github.com/graphwire/graphwire/codecs"
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
