package wirehttp_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

// TestNegotiateGCF: a server over the default registry serves gcf when a
// client asks for it by ?format=gcf (any case) or by its media type in
// Accept, weighed against the other types like any codec, with its media
// type and a charset as the Content-Type; the body is the gcf encoding,
// and a Client asking for gcf decodes it back, numbers by value.
func TestNegotiateGCF(t *testing.T) {
	resp := caseByName(t, corpus.ADRCase)
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Static(resp))
	defer srv.Close()
	gcfBody, err := wire.EncodeWith("gcf", resp)
	if err != nil {
		t.Fatal(err)
	}
	const gcfType = "application/vnd.gcf+text; charset=utf-8"

	for _, tc := range []struct {
		name, query, accept string
		codec, ctype        string
	}{
		{"format=gcf", "?format=gcf", "", "gcf", gcfType},
		{"format=GCF", "?format=GCF", "", "gcf", gcfType},
		{"format beats Accept", "?format=gcf", "text/toon", "gcf", gcfType},
		{"Accept gcf", "", "application/vnd.gcf+text", "gcf", gcfType},
		{"Accept gcf with charset", "", "application/vnd.gcf+text; charset=utf-8", "gcf", gcfType},
		{"Accept gcf in mixed case", "", "Application/VND.GCF+Text", "gcf", gcfType},
		{"gcf weighs more", "", "text/toon;q=0.5, application/vnd.gcf+text;q=0.9", "gcf", gcfType},
		{"gcf weighs less", "", "text/toon;q=0.9, application/vnd.gcf+text;q=0.5", "toon", "text/toon; charset=utf-8"},
		{"gcf excluded", "", "application/vnd.gcf+text;q=0, text/toon;q=0.1", "toon", "text/toon; charset=utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/"+tc.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			if got := res.Header.Get("Content-Type"); got != tc.ctype {
				t.Errorf("Content-Type %q, want %q", got, tc.ctype)
			}
			want, err := wire.EncodeWith(tc.codec, resp)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(body, want) {
				t.Errorf("the body is not the %s encoding %s", tc.codec, wiretest.ByteDiff(want, body))
			}
		})
	}

	// The Client asks for gcf by name and reads the body with it.
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "gcf", HTTP: &http.Client{Timeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(context.Background(), srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if d := wiretest.Diff(resp, got, wire.NumbersByValue); d != "" {
		t.Errorf("the Client's gcf response (-want +got):\n%s", d)
	}
	if back, err := wire.EncodeWith("gcf", got); err != nil || !bytes.Equal(back, gcfBody) {
		t.Errorf("the Client's response encodes to other gcf (err %v) %s", err, wiretest.ByteDiff(gcfBody, back))
	}
}
