package codecs_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// bigResponse is a response of which every built-in codec writes more than
// 2 MiB.
func bigResponse() *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: make([]wire.Node, 20_000)}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: "User", ID: int64(i), Properties: []wire.Property{
			wire.Prop("bio", wire.String(strings.Repeat("lorem ipsum ", 10))),
		}}
	}
	return r
}

// TestOwnRegistryRefusesLargeBodies is a service that decodes request
// bodies under its own limits: its registry, built in one call, refuses a
// 2 MiB body with every codec, reading it from a stream (DecodeFrom) or
// from bytes (DecodeWith), over a real HTTP connection, while the default
// registry decodes the same bodies.
func TestOwnRegistryRefusesLargeBodies(t *testing.T) {
	reg, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxInputBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, err := reg.DecodeFrom(req.URL.Query().Get("format"), req.Body)
		switch {
		case errors.Is(err, wire.ErrLimit):
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		}
	}))
	defer srv.Close()

	r := bigResponse()
	infos := reg.List()
	if len(infos) != 6 {
		t.Fatalf("NewRegistry holds %d codecs, want 6", len(infos))
	}
	for _, info := range infos {
		body, err := wire.EncodeWith(info.Name, r)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		if len(body) < 2<<20 {
			t.Fatalf("%s: body of %d bytes, want at least 2 MiB", info.Name, len(body))
		}
		if _, err := wire.DecodeWith(info.Name, body); err != nil {
			t.Errorf("%s: the default registry refuses %d bytes: %v", info.Name, len(body), err)
		}
		var de *wire.DecodeError
		if _, err := reg.DecodeWith(info.Name, body); !errors.As(err, &de) || de.Limit != "MaxInputBytes" {
			t.Errorf("%s: DecodeWith of %d bytes = %v, want a MaxInputBytes *wire.DecodeError", info.Name, len(body), err)
		}
		if _, err := reg.DecodeFrom(info.Name, bytes.NewReader(body)); !errors.As(err, &de) || de.Limit != "MaxInputBytes" {
			t.Errorf("%s: DecodeFrom of %d bytes = %v, want a MaxInputBytes *wire.DecodeError", info.Name, len(body), err)
		}
		resp, err := http.Post(srv.URL+"?format="+info.Name, info.MediaType, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s over HTTP: %s %s", info.Name, resp.Status, msg)
		}
	}
}

// TestNewRegistry: the registry holds the five built-ins under the default
// registry's names and aliases, each configured with the given Limits.
func TestNewRegistry(t *testing.T) {
	l := wire.Limits{MaxDepth: 7, MaxStringBytes: 1000}
	reg, err := codecs.NewRegistry(codecs.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := l.WithDefaults()
	if got := reg.Limits(); got != want {
		t.Errorf("registry Limits = %+v, want %+v", got, want)
	}
	def := wire.List()
	got := reg.List()
	if len(got) != len(def) {
		t.Fatalf("%d codecs, the default registry has %d", len(got), len(def))
	}
	for i, info := range got {
		if info.Name != def[i].Name || strings.Join(info.Aliases, ",") != strings.Join(def[i].Aliases, ",") {
			t.Errorf("codec %d: %s %v, want %s %v", i, info.Name, info.Aliases, def[i].Name, def[i].Aliases)
		}
		for _, alias := range info.Aliases {
			if c, err := reg.Lookup(alias); err != nil || c.Info().Name != info.Name {
				t.Errorf("alias %s: %v", alias, err)
			}
		}
		c, _ := reg.Lookup(info.Name)
		lc, ok := c.(interface{ Limits() wire.Limits })
		if !ok {
			t.Errorf("%s: the codec does not report its Limits", info.Name)
			continue
		}
		if lc.Limits() != want {
			t.Errorf("%s: Limits = %+v, want %+v", info.Name, lc.Limits(), want)
		}
	}
	// Configured, not only labelled: a string past the limit is refused.
	r := wiretest.Response().Example(1)
	r.FormatVersion = strings.Repeat("v", 1001)
	for _, info := range got {
		if _, err := reg.EncodeWith(info.Name, r); !errors.Is(err, wire.ErrLimit) {
			t.Errorf("%s: encoding a 1,001-byte string under MaxStringBytes 1000: %v", info.Name, err)
		}
	}
	if _, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxElements: -1}}); err == nil {
		t.Error("NewRegistry accepted a negative MaxElements")
	}
	v, err := codecs.NewRegistry(codecs.Options{GOONVersion: "1.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := v.Lookup("llm"); err != nil || !strings.HasSuffix(c.Info().MediaType, "version=1.1.0") {
		t.Errorf("GOONVersion 1.1.0: the goon codec is %v, %v", c.Info(), err)
	}
}
