package wirehttp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
	"github.com/graphwire/graphwire/wirehttp"
)

// mergeRequest is a response goon refuses (a node type with a space) and
// every other built-in codec writes.
func mergeRequest() *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "Merge Request", ID: int64(7), Properties: []wire.Property{wire.Prop("title", wire.String("Fix it"))}}}}
}

// With Options.Validate, a response one format cannot carry is refused in
// every format, over a real server and client: Static and Respond answer
// 500 with the generic line, Convert 422, and OnError gets the
// *wirecodec.ValidationError naming goon and the path. Without it, json
// answers 200 and only goon clients get the 500 (issue 24, item 7).
func TestValidateBeforeEncoding(t *testing.T) {
	resp := mergeRequest()
	var h hookLog
	s, err := wirehttp.New(nil, h.options(wirehttp.Options{Validate: true}))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := wirehttp.New(nil, wirehttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/static", s.Static(resp))
	mux.Handle("/respond", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, resp) }))
	mux.Handle("/convert", s.Convert())
	mux.Handle("/plain", plain.Static(resp))
	base := startServer(t, mux, wirehttp.HTTPServerOptions{})
	client := &http.Client{Timeout: 30 * time.Second}

	if code, _, body := get(t, client, "GET", base+"/plain?format=json"); code != http.StatusOK {
		t.Fatalf("without Validate, json: %d %q; want 200", code, body)
	}
	if code, _, _ := get(t, client, "GET", base+"/plain?format=goon"); code != http.StatusInternalServerError {
		t.Fatalf("without Validate, goon: %d; want 500", code)
	}
	h.take()
	_, err = wire.EncodeWith("goon", resp)
	var goonErr *wire.EncodeError
	if !errors.As(err, &goonErr) {
		t.Fatalf("goon encodes %q: %v", resp.Nodes[0].Type, err)
	}

	checkHook := func(what string, status int) {
		t.Helper()
		calls := h.take()
		if len(calls) != 1 || calls[0].Status != status {
			t.Fatalf("%s: OnError calls %+v; want one of status %d", what, calls, status)
		}
		var ve *wirecodec.ValidationError
		if !errors.As(calls[0].Err, &ve) {
			t.Fatalf("%s: OnError's error %v holds no *wirecodec.ValidationError", what, calls[0].Err)
		}
		if len(ve.Codecs) != 1 || ve.Model != nil || ve.For("goon") == nil || ve.For("goon").Path == "" {
			t.Fatalf("%s: validation error %v; want goon alone refusing, with a path", what, ve)
		}
		if d := cmp.Diff(goonErr, ve.For("goon")); d != "" {
			t.Errorf("%s: goon's refusal is not its encoder's (-encoder +validation):\n%s", what, d)
		}
	}
	for _, info := range s.Codecs() {
		for _, path := range []string{"/static", "/respond"} {
			code, _, body := get(t, client, "GET", base+path+"?format="+info.Name)
			if code != http.StatusInternalServerError || string(body) != "wirehttp: internal server error\n" {
				t.Errorf("%s in %s: %d %q; want 500 with the generic line", path, info.Name, code, body)
			}
			checkHook(path+" in "+info.Name, http.StatusInternalServerError)
		}
		in := mustEncode("json", resp)
		req, err := http.NewRequest("POST", base+"/convert?format="+info.Name, bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		body.ReadFrom(res.Body) //nolint:errcheck // compared below
		res.Body.Close()
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body.String(), goonErr.Error()) {
			t.Errorf("convert to %s: %d %q; want 422 with goon's error", info.Name, res.StatusCode, body.String())
		}
		checkHook("convert to "+info.Name, http.StatusUnprocessableEntity)
	}
	if l := h.log(); !strings.Contains(l, `GET "/static": validating the response: `) || !strings.Contains(l, goonErr.Error()) {
		t.Errorf("ErrorLog lacks the cause: %q", l)
	}

	// The package's own Client sees the 500 as an *Error, in any format.
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "msgpack", HTTP: client})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(context.Background(), base+"/respond")
	var he *wirehttp.Error
	if !errors.As(err, &he) || he.Status != http.StatusInternalServerError {
		t.Errorf("Client: %v; want an *Error of status 500", err)
	}
	h.take()

	// A valid response is served as before.
	ok := mergeRequest()
	ok.Nodes[0].Type = "MergeRequest"
	s2, err := wirehttp.New(nil, h.options(wirehttp.Options{Validate: true}))
	if err != nil {
		t.Fatal(err)
	}
	base2 := startServer(t, s2.Static(ok), wirehttp.HTTPServerOptions{})
	for _, info := range s2.Codecs() {
		if code, _, body := get(t, client, "GET", base2+"/?format="+info.Name); code != http.StatusOK || !bytes.Equal(body, mustEncode(info.Name, ok)) {
			t.Errorf("valid response in %s: %d, %d bytes", info.Name, code, len(body))
		}
	}
	if calls := h.take(); len(calls) != 0 {
		t.Errorf("OnError called for a valid response: %+v", calls)
	}
}
