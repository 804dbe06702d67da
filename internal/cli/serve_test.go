package cli_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
)

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "-addr", "0.0.0.0:8080"},
		{"serve", "-addr", ":8080"},
		{"serve", "-addr", "192.168.1.2:80"},
		{"serve", "a", "b"},
	} {
		res := run("", args...)
		if res.code != 2 || res.stdout != "" || res.stderr == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", args, res.code, res.stdout, res.stderr)
		}
	}
	res := run("", "serve", "-addr", "127.0.0.1:0", filepath.Join(t.TempDir(), "missing.json"))
	if res.code != 1 || !strings.Contains(res.stderr, "missing.json") {
		t.Errorf("missing file: exit %d, stderr %q", res.code, res.stderr)
	}
}

// TestServeWithCurl builds wirebench, starts "wirebench serve" as a process
// on a free loopback port and drives it with the system's curl.
func TestServeWithCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("curl is required when CI is set (.ci/run installs it): %v", err)
		}
		t.Skipf("no curl on this machine (%v); the end-to-end serve test needs it", err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build wirebench: %v", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "wirebench")
	if out, err := exec.Command(gobin, "build", "-o", bin, "github.com/graphwire/graphwire/cmd/wirebench").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(tmp, "cases")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var small, adr *wire.GraphResponse
	for _, c := range corpus.Generate() {
		if c.Profile != corpus.TextHeavy {
			continue
		}
		switch c.Name {
		case "traversal_s":
			small = c.Response
		case corpus.ADRCase:
			adr = c.Response
		}
	}
	files, err := corpus.Files([]corpus.Case{{Name: "traversal_s", Response: small}, {Name: corpus.ADRCase, Response: adr}})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cmd, lines, base := startServe(t, bin, "", "-addr", "127.0.0.1:0", dir)

	// curlDo runs curl with args; it returns stdout.
	requests := 0
	curlDo := func(args ...string) []byte {
		t.Helper()
		requests++
		c := exec.Command(curl, append([]string{"-sS", "--max-time", "20"}, args...)...)
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		if err := c.Run(); err != nil {
			t.Fatalf("curl %v: %v\n%s", args, err, errOut.String())
		}
		return out.Bytes()
	}
	enc := func(codec string, r *wire.GraphResponse) []byte {
		b, err := wire.EncodeWith(codec, r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	headers := filepath.Join(tmp, "headers")
	header := func(name string) string {
		data, err := os.ReadFile(headers)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\r\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, name) {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}

	// ADR 003's question, answered with ?format=llm.
	if got, want := curlDo("-D", headers, base+"/traversal_s?format=llm"), enc("goon", small); !bytes.Equal(got, want) {
		t.Errorf("format=llm: got %q, want the goon bytes %q", got, want)
	}
	if ct := header("Content-Type"); ct != "text/x-goon; version=1.0.0; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	etag := header("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	// The same representation again: 304, nothing to read.
	if got := curlDo("-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: "+etag, base+"/traversal_s?format=llm"); string(got) != "304" {
		t.Errorf("revalidation: status %s, want 304", got)
	}
	// Accept negotiation.
	if got, want := curlDo("-H", "Accept: text/toon;q=0.9, text/x-goon;q=0.5", base+"/traversal_s"), enc("toon", small); !bytes.Equal(got, want) {
		t.Errorf("Accept toon: got %q", got)
	}
	if got, want := curlDo("-H", "Accept: application/cbor", base+"/traversal_s"), enc("cbor", small); !bytes.Equal(got, want) {
		t.Errorf("Accept cbor: got %d bytes, want %d", len(got), len(want))
	}
	// curl's own Accept (*/*) gives json.
	if got, want := curlDo(base+"/"+corpus.ADRCase), enc("json", adr); !bytes.Equal(got, want) {
		t.Errorf("default: got %d bytes, want the %d json bytes", len(got), len(want))
	}
	// Compression, decoded by curl.
	if got, want := curlDo("--compressed", "-D", headers, base+"/"+corpus.ADRCase+"?format=json"), enc("json", adr); !bytes.Equal(got, want) {
		t.Errorf("compressed: got %d bytes, want %d", len(got), len(want))
	}
	if ce := header("Content-Encoding"); ce != "gzip" && ce != "zstd" {
		t.Errorf("--compressed: Content-Encoding %q", ce)
	}
	// HEAD.
	curlDo("-I", "-o", headers, base+"/traversal_s?format=toon")
	if cl, want := header("Content-Length"), len(enc("toon", small)); cl != strconv.Itoa(want) {
		t.Errorf("HEAD Content-Length %s, want %d", cl, want)
	}
	// Errors.
	if got := curlDo("-w", "\n%{http_code}", base+"/traversal_s?format=xml"); !bytes.HasSuffix(got, []byte("\n400")) || !bytes.Contains(got, []byte("goon (llm)")) {
		t.Errorf("unknown format: %q", got)
	}
	if got := curlDo("-w", "\n%{http_code}", "-H", "Accept: image/png", base+"/traversal_s"); !bytes.HasSuffix(got, []byte("\n406")) {
		t.Errorf("nothing acceptable: %q", got)
	}
	// POST / converts a body by its Content-Type.
	if got, want := curlDo("-H", "Content-Type: application/json", "--data-binary", "@"+filepath.Join(dir, "traversal_s.json"), base+"/?format=llm"), enc("goon", small); !bytes.Equal(got, want) {
		t.Errorf("POST json as llm: got %q", got)
	}
	if got := curlDo("-w", "\n%{http_code}", "-H", "Content-Type: application/json", "--data-binary", `{"nodes":`, base+"/"); !bytes.HasSuffix(got, []byte("\n400")) || !bytes.Contains(got, []byte("json: offset")) {
		t.Errorf("POST bad json: %q", got)
	}
	// The index.
	if got := curlDo(base + "/"); !bytes.Contains(got, []byte("/"+corpus.ADRCase)) || !bytes.Contains(got, []byte("text/x-goon; version=1.0.0")) {
		t.Errorf("index: %q", got)
	}

	// SIGINT stops it cleanly, after one log line per request.
	logged := stopServe(t, cmd, lines, syscall.SIGINT)
	reqLine := regexp.MustCompile(`^127\.0\.0\.1:\d+ (GET|HEAD|POST) /\S* \d{3} \d+B \S+$`)
	n := 0
	for _, l := range logged {
		if reqLine.MatchString(l) {
			n++
		}
	}
	if n != requests {
		t.Errorf("%d request lines logged for %d requests:\n%s", n, requests, strings.Join(logged, "\n"))
	}

	// Outside the repository, with no argument, it serves the corpus
	// generated in memory; SIGTERM stops it as cleanly.
	cmd, lines, base = startServe(t, bin, t.TempDir(), "-addr", "127.0.0.1:0")
	if got, want := curlDo(base+"/"+corpus.TextHeavy+"/"+corpus.ADRCase+"?format=llm"), enc("goon", adr); !bytes.Equal(got, want) {
		t.Errorf("generated corpus: got %d bytes, want %d", len(got), len(want))
	}
	logged = stopServe(t, cmd, lines, syscall.SIGTERM)
	if !strings.Contains(logged[0], "from the generated corpus") {
		t.Errorf("first line %q does not say the corpus is the generated one", logged[0])
	}
}

// startServe starts "wirebench serve args..." in dir ("" for the current
// one) and waits, at most 30 s, for the line that says where it listens.
// It returns the process, its stderr lines (the listening line included)
// and the base URL.
func startServe(t *testing.T, bin, dir string, args ...string) (*exec.Cmd, <-chan string, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill() //nolint:errcheck // the test already failed
			cmd.Wait()         //nolint:errcheck
		}
	})
	raw := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			raw <- sc.Text()
		}
		close(raw)
	}()
	lines := make(chan string, 256)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-raw:
			if !ok {
				t.Fatal("wirebench serve exited before listening")
			}
			if m := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/$`).FindStringSubmatch(l); m != nil {
				lines <- l
				go func() {
					for l := range raw {
						lines <- l
					}
					close(lines)
				}()
				return cmd, lines, m[1]
			}
		case <-deadline:
			t.Fatal("wirebench serve did not say where it listens within 30s")
		}
	}
}

// stopServe sends sig and requires a clean exit within 20 s; it returns
// every stderr line.
func stopServe(t *testing.T, cmd *exec.Cmd, lines <-chan string, sig os.Signal) []string {
	t.Helper()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	var logged []string
	timeout := time.After(20 * time.Second)
	for done := false; !done; {
		select {
		case l, ok := <-lines:
			if !ok {
				done = true
				break
			}
			logged = append(logged, l)
		case <-timeout:
			t.Fatalf("wirebench serve did not stop within 20s of %v", sig)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("wirebench serve exited with %v after %v; stderr:\n%s", err, sig, strings.Join(logged, "\n"))
	}
	if len(logged) == 0 || logged[len(logged)-1] != "wirebench serve: stopped" {
		t.Errorf("last line of %q is not the stop line", logged)
	}
	return logged
}
