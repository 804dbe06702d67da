package wirehttp_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// BenchmarkDeltaRequery is the cost of a re-query answered from the
// cache of computed deltas (226), with bases kept in the process: the
// path every re-query of a client with deltas takes.
func BenchmarkDeltaRequery(b *testing.B) {
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	v1 := sessionResponse(200)
	v2 := wiretest.Clone(v1)
	v2.Nodes[7].Properties[1].Value = v2.Nodes[8].Properties[0].Value
	h1, h2 := s.Static(v1), s.Static(v2)
	req := func(inm string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept", "application/json")
		r.Header.Set("A-IM", wirehttp.DeltaIM)
		if inm != "" {
			r.Header.Set("If-None-Match", inm)
		}
		return r
	}
	w := httptest.NewRecorder()
	h1.ServeHTTP(w, req(""))
	tag := w.Header().Get("ETag")
	w = httptest.NewRecorder()
	h2.ServeHTTP(w, req(tag))
	if w.Code != http.StatusIMUsed {
		b.Fatalf("status %d, want 226", w.Code)
	}
	r := req(tag)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h2.ServeHTTP(w, r)
	}
}
