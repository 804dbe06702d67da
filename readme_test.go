package graphwire_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// The README's "Use from Go" example, verbatim between the markers
// (TestReadmeExample checks that README.md holds exactly this text).

// README:begin

// newRegistry builds the service's own registry: the codecs it serves,
// each bounded by the same limits.
func newRegistry(limits wire.Limits) (*wire.Registry, error) {
	reg, err := wire.NewRegistry(limits)
	if err != nil {
		return nil, err
	}
	jsonCodec, err := json.New(json.Options{Limits: limits})
	if err != nil {
		return nil, err
	}
	goonCodec, err := goon.New(goon.Options{Limits: limits})
	if err != nil {
		return nil, err
	}
	reg.Register(jsonCodec)
	reg.Register(goonCodec)
	return reg, nil
}

// render answers one request: canonical JSON in, read up to the registry's
// MaxInputBytes; out, the codec whose media type the Accept header names
// (one type, no q-values), written to the client as it is encoded.
func render(reg *wire.Registry, w http.ResponseWriter, req *http.Request) {
	resp, err := reg.DecodeFrom("json", req.Body)
	if errors.Is(err, wire.ErrLimit) {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	if err != nil { // *wire.DecodeError: codec, offset, what was expected
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	codec, err := reg.LookupMediaType(req.Header.Get("Accept"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotAcceptable)
		return
	}
	w.Header().Set("Content-Type", codec.Info().MediaType)
	err = reg.EncodeTo(codec.Info().Name, w, resp)
	var encErr *wire.EncodeError
	if errors.As(err, &encErr) { // the response checked first: nothing written yet
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
	}
}

// README:end

func TestReadmeExample(t *testing.T) {
	checkReadmeHolds(t, "readme_test.go", "README")
}

// checkReadmeHolds checks that README.md holds, in a ```go block, the
// text of file between the markers "// NAME:begin" and "// NAME:end".
func checkReadmeHolds(t *testing.T, file, name string) {
	t.Helper()
	snippets := readmeSnippets(t)
	snippet, ok := snippets[file+" "+name]
	if !ok {
		t.Fatalf("%s has no %s:begin ... %s:end markers", file, name, name)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+snippet+"```\n") {
		t.Fatalf("README.md does not hold the example of %s (%s) verbatim, in a ```go block", file, name)
	}
}

// readmeSnippets returns the text between "// NAME:begin\n\n" and
// "\n// NAME:end" in every test file of this directory, NAME being README
// or README:something, keyed by "file NAME".
func readmeSnippets(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			name, ok := strings.CutPrefix(line, "// README")
			if !ok {
				continue
			}
			name, ok = strings.CutSuffix("README"+name, ":begin")
			if !ok {
				continue
			}
			_, rest, _ := strings.Cut(string(src), "// "+name+":begin\n\n")
			snippet, _, ok := strings.Cut(rest, "\n// "+name+":end")
			if !ok {
				t.Fatalf("%s: %s:begin without %s:end", f, name, name)
			}
			out[f+" "+name] = snippet
		}
	}
	return out
}

// Every Go block of the README is code a test runs: the text between the
// markers of a test file of this directory, or the imports of one (each
// line an import of that file).
func TestReadmeGoBlocks(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	snippets := readmeSnippets(t)
	tested := map[string]bool{}
	for _, s := range snippets {
		tested[s] = true
	}
	if len(snippets) < 4 {
		t.Errorf("%d marked examples, want at least the service, the render, the first page and the pager loop", len(snippets))
	}
	blocks := strings.Split(string(readme), "```go\n")[1:]
	for i, b := range blocks {
		block, _, ok := strings.Cut(b, "```\n")
		if !ok {
			t.Fatalf("Go block %d is not closed", i+1)
		}
		if tested[block] {
			continue
		}
		if imports, ok := strings.CutPrefix(block, "import (\n"); ok && importedByATest(t, imports) {
			continue
		}
		first, _, _ := strings.Cut(block, "\n")
		t.Errorf("README Go block %d (%q) is not the text of a test", i+1, first)
	}
}

// importedByATest reports whether some test file of this directory
// imports every line of an import list (up to its closing parenthesis).
func importedByATest(t *testing.T, imports string) bool {
	t.Helper()
	imports, _, _ = strings.Cut(imports, ")")
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all := true
		for _, line := range strings.Split(strings.TrimSpace(imports), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.Contains(string(src), "\t"+line+"\n") {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// The example, served over a real loopback server and client.
func TestReadmeExampleServes(t *testing.T) {
	reg, err := newRegistry(wire.Limits{MaxInputBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { render(reg, w, req) }))
	defer srv.Close()
	post := func(body []byte, accept string) (int, string, []byte) {
		t.Helper()
		req, err := http.NewRequest("POST", srv.URL, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", accept)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, res.Header.Get("Content-Type"), out
	}

	in, err := os.ReadFile("bench/corpus/text-heavy/traversal_adr_50u_200mr.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := json.DecodeWithin(in, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	wantGOON, err := goon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	code, ctype, out := post(in, "text/x-goon")
	if code != http.StatusOK || ctype != goon.MediaType || !bytes.Equal(out, wantGOON) {
		t.Fatalf("goon: status %d, Content-Type %q, %d bytes (want 200, %q, %d bytes)", code, ctype, len(out), goon.MediaType, len(wantGOON))
	}
	code, _, out = post(in, "application/json")
	if code != http.StatusOK || !bytes.Equal(out, in) {
		t.Fatalf("json: status %d, body equal to the request: %v", code, bytes.Equal(out, in))
	}

	// 2 MiB of valid JSON: refused by this registry, read by the default.
	big := bigResponse(t, 2<<20)
	if code, _, out = post(big, "application/json"); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("2 MiB body: status %d (%s), want 413", code, out)
	}
	if _, err := wire.DefaultRegistry().DecodeFrom("json", bytes.NewReader(big)); err != nil {
		t.Fatalf("the default registry refuses the 2 MiB body: %v", err)
	}
	if code, _, out = post([]byte(`{"nodes":`), "application/json"); code != http.StatusBadRequest {
		t.Fatalf("bad JSON: status %d (%s), want 400", code, out)
	}
	if code, _, out = post(in, "application/cbor"); code != http.StatusNotAcceptable {
		t.Fatalf("cbor, which this registry does not serve: status %d (%s), want 406", code, out)
	}
}

// bigResponse is the canonical JSON of a response of at least n bytes.
func bigResponse(t *testing.T, n int) []byte {
	t.Helper()
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Edges: []wire.Edge{}}
	for i := 0; i*100 < n; i++ {
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(i), Properties: []wire.Property{wire.Prop("bio", wire.String(strings.Repeat("x", 80)))}})
	}
	b, err := json.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < n {
		t.Fatalf("built %d bytes, want %d", len(b), n)
	}
	return b
}
