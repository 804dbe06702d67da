package cli_test

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
)

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "-addr", "0.0.0.0:8080"},
		{"serve", "-addr", ":8080"},
		{"serve", "-addr", "192.168.1.2:80"},
		{"serve", "a", "b"},
		{"serve", "-watch"},
		{"serve", "-delta-bases", "-1"},
		{"serve", "-delta-bytes", "0"},
		{"serve", "-delta-cache", "0"},
		{"serve", "-delta-computations", "0"},
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
	curl := testsupport.Tool(t, "curl", "apt-get install -y curl")
	bin := testsupport.Wirebench(t)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "cases")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var small, adr *wire.GraphResponse
	for _, c := range testsupport.Generated() {
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
	// The error answers, counted through wirehttp's OnError: the unknown
	// format and the bad json (400), the image/png (406).
	if len(logged) < 2 || logged[len(logged)-2] != "wirebench serve: 3 error answers: 400 x2, 406 x1" {
		t.Errorf("no count of the error answers before the stop line:\n%s", strings.Join(logged, "\n"))
	}

	// Outside the repository, with no argument, it serves the corpus
	// generated in memory; SIGTERM stops it as cleanly.
	cmd, lines, base = startServe(t, bin, t.TempDir(), "-addr", "127.0.0.1:0")
	if got, want := curlDo(base+"/"+corpus.TextHeavy+"/"+corpus.ADRCase+"?format=llm"), enc("goon", adr); !bytes.Equal(got, want) {
		t.Errorf("generated corpus: got %d bytes, want %d", len(got), len(want))
	}
	logged = stopServe(t, cmd, lines, syscall.SIGTERM)
	if len(logged) < 2 || logged[len(logged)-2] != "wirebench serve: no error answers" {
		t.Errorf("error count line of a run without errors missing:\n%s", strings.Join(logged, "\n"))
	}
	if !strings.Contains(logged[0], "from the generated corpus") {
		t.Errorf("first line %q does not say the corpus is the generated one", logged[0])
	}
}

// TestServeDeltaWithCurl drives RFC 3229 deltas through "wirebench serve
// -watch FILE" with curl: a client that asked with A-IM gets 200 and the
// ETag; after one node of the file changed, the same request with that
// ETag in If-None-Match gets 226 IM Used and a delta that patches what it
// holds into exactly the new answer; then 304 for the new ETag; and 200
// once the file changed too much for a delta to be worth it.
func TestServeDeltaWithCurl(t *testing.T) {
	curl := testsupport.Tool(t, "curl", "apt-get install -y curl")
	// The format: the first built-in codec with a delta syntax.
	format := ""
	for _, name := range []string{"json", "goon", "toon", "msgpack", "cbor"} {
		if c, err := wire.Lookup(name); err == nil {
			if _, ok := c.(delta.DocumentCodec); ok {
				format = name
				break
			}
		}
	}
	if format == "" {
		t.Skip("no built-in codec implements delta.DocumentCodec: no 226 to drive")
	}
	bin := testsupport.Wirebench(t)
	tmp := t.TempDir()
	v1, v2 := adrVersions()
	v3 := &wire.GraphResponse{FormatVersion: v1.FormatVersion, QueryType: v1.QueryType,
		Nodes: []wire.Node{{Type: "User", ID: 7, Properties: []wire.Property{{Key: "username", Value: wire.String("someone")}}}}}
	file := filepath.Join(tmp, "adr.json")
	write := func(r *wire.GraphResponse) { t.Helper(); writeResponseFile(t, file, r) }
	write(v1)
	cmd, lines, base := startServe(t, bin, "", "-addr", "127.0.0.1:0", "-watch", "-delta-bases", "16", file)
	url := base + "/adr?format=" + format
	headers := filepath.Join(tmp, "headers")
	// fetch runs curl with args and returns the status, the headers named
	// and the body.
	fetch := func(args ...string) (int, http.Header, []byte) {
		t.Helper()
		c := exec.Command(curl, append([]string{"-sS", "--max-time", "20", "-D", headers}, args...)...)
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		if err := c.Run(); err != nil {
			t.Fatalf("curl %v: %v\n%s", args, err, errOut.String())
		}
		raw, err := os.ReadFile(headers)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		if err != nil {
			t.Fatalf("headers %q: %v", raw, err)
		}
		return resp.StatusCode, resp.Header, out.Bytes()
	}
	aim := "A-IM: " + wirehttp.DeltaIM
	decode := func(b []byte) *wire.GraphResponse {
		t.Helper()
		r, err := wire.DecodeWith(format, b)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	st, h, held := fetch("-H", aim, url)
	if want, _ := wire.EncodeWith(format, v1); st != 200 || !bytes.Equal(held, want) {
		t.Fatalf("first: status %d, %d bytes; want 200 and the %d bytes of %s", st, len(held), len(want), format)
	}
	e1 := h.Get("ETag")

	write(v2)
	st, h, body := fetch("-H", aim, "-H", "If-None-Match: "+e1, url)
	if st != http.StatusIMUsed || h.Get("IM") != wirehttp.DeltaIM || h.Get("Delta-Base") != e1 {
		t.Fatalf("after one change: status %d, IM %q, Delta-Base %q; want 226 %s %s", st, h.Get("IM"), h.Get("Delta-Base"), wirehttp.DeltaIM, e1)
	}
	e2 := h.Get("ETag")
	full, _ := wire.EncodeWith(format, v2)
	d, err := delta.DecodeWith(nil, format, body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := delta.Patch(decode(held), d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(decode(full), got, wire.Exact); diff != "" {
		t.Errorf("patched (-want +got):\n%s", diff)
	}
	t.Logf("%s: 226 of %d bytes for a full answer of %d", format, len(body), len(full))

	if st, h, body := fetch("-H", aim, "-H", "If-None-Match: "+e2, url); st != 304 || len(body) != 0 || h.Get("ETag") != e2 {
		t.Errorf("unchanged: status %d, ETag %q, %d bytes; want 304 %s", st, h.Get("ETag"), len(body), e2)
	}
	if st, h, body := fetch(url); st != 200 || h.Get("ETag") != e2 || !bytes.Equal(body, full) {
		t.Errorf("plain GET: status %d, ETag %q; want 200 and the full answer tagged %s", st, h.Get("ETag"), e2)
	}

	write(v3)
	full3, _ := wire.EncodeWith(format, v3)
	if st, _, body := fetch("-H", aim, "-H", "If-None-Match: "+e2, url); st != 200 || !bytes.Equal(body, full3) {
		t.Errorf("changed too much: status %d, %d bytes; want 200 and the %d bytes of the full answer", st, len(body), len(full3))
	}
	logged := stopServe(t, cmd, lines, syscall.SIGINT)
	reloads := 0
	for _, l := range logged {
		if strings.Contains(l, "-watch: 1 responses loaded again") {
			reloads++
		}
	}
	if reloads != 2 {
		t.Errorf("%d reloads logged, want 2:\n%s", reloads, strings.Join(logged, "\n"))
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
	raw := lineChan(stderr, 256)
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

// lineChan returns a channel of r's lines, holding up to n unread, closed
// at r's end.
func lineChan(r io.Reader, n int) chan string {
	lines := make(chan string, n)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return lines
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

// TestMain removes the wirebench binary the tests built
// (testsupport.Wirebench builds it once for all of them).
func TestMain(m *testing.M) {
	os.Exit(testsupport.RemoveWirebench(m.Run()))
}

// bigJSON is the canonical JSON of a search response of about size bytes.
func bigJSON(t *testing.T, size int) []byte {
	t.Helper()
	n := max(1, size/330)
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: make([]wire.Node, n), Edges: []wire.Edge{}}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: "Issue", ID: int64(i + 1), Properties: []wire.Property{
			wire.Prop("title", wire.String("issue number "+strconv.Itoa(i))),
			wire.Prop("description", wire.String(strings.Repeat("lorem ipsum dolor sit amet ", 9))),
			wire.Prop("weight", wire.Int(int64(i%13))),
		}}
	}
	b, err := wire.EncodeWith("json", r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// spaceReader is an endless reader of spaces.
type spaceReader struct{}

func (spaceReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestServeBounded runs "wirebench serve" as a process and drives it with
// a load of large bodies (8 clients x 4 MB for 4 s; the 64
// clients x 60 MB for 30 s with GRAPHWIRE_LOAD=1): every request is
// answered 200, 413 or 503, the process's peak RSS stays under its
// in-flight bound plus 512 MiB over its idle RSS, and its RSS comes back
// within 2x idle within 60 s. A body that stalls gets 408 without the
// server's addresses.
func TestServeBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("process load skipped in -short mode")
	}
	if _, ok := testsupport.ProcStatus(0, "VmRSS"); !ok {
		t.Skip("no /proc to read RSS from")
	}
	clients, size, d := 8, 4<<20, 4*time.Second
	var maxInput = wire.DefaultLimits().MaxInputBytes
	bound := int64(200 << 20) // room for two 4 MB bodies' charges: some 503s
	if os.Getenv("GRAPHWIRE_LOAD") == "1" {
		clients, size, d = 64, 60<<20, 30*time.Second
		bound = 2 * (17*maxInput + 16<<20) // wirehttp's default
	}
	bin := testsupport.Wirebench(t)
	cmd, lines, base := startServe(t, bin, t.TempDir(), "-addr", "127.0.0.1:0", "-compress=false",
		"-max-inflight", strconv.FormatInt(bound, 10))
	go func(lines <-chan string) {
		for range lines { // drained, so that the process never blocks on stderr
		}
	}(lines) // lines is set again below, for the next server
	pid := cmd.Process.Pid
	body := bigJSON(t, size)
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true, ExpectContinueTimeout: 5 * time.Second}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 5 * time.Minute}
	post := func(rd io.Reader, n int64, expect bool) (int, []byte, error) {
		req, _ := http.NewRequest("POST", base+"/", rd) // base: the server running at the time
		req.ContentLength = n
		req.Header.Set("Content-Type", "application/json")
		if expect {
			req.Header.Set("Expect", "100-continue")
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
		return resp.StatusCode, b, err
	}
	if code, b, err := post(strings.NewReader(`{"format_version":"1.2.0","query_type":"search","nodes":[],"edges":[]}`), -1, false); code != 200 {
		t.Fatalf("warm-up: %d %q %v", code, b, err)
	}
	time.Sleep(time.Second)
	idle, _ := testsupport.ProcStatus(pid, "VmRSS")

	var mu sync.Mutex
	status := map[int]int{}
	var errs []string
	end := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(end); i++ {
				var code int
				var err error
				if (i+c)%8 == 7 {
					// Expect: 100-continue, as the server refuses it unread.
					code, _, err = post(io.LimitReader(spaceReader{}, maxInput+1), maxInput+1, true)
				} else {
					code, _, err = post(bytes.NewReader(body), int64(len(body)), c%2 == 0)
				}
				mu.Lock()
				if err != nil {
					errs = append(errs, err.Error())
				} else {
					status[code]++
				}
				mu.Unlock()
				if code == http.StatusServiceUnavailable {
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	tr.CloseIdleConnections()
	hwm, _ := testsupport.ProcStatus(pid, "VmHWM")
	for code, n := range status {
		if code != 200 && code != 413 && code != 503 {
			t.Errorf("%d answers of status %d", n, code)
		}
	}
	if len(errs) > 0 {
		t.Errorf("%d requests not answered; first: %s", len(errs), errs[0])
	}
	if status[200] == 0 || status[413] == 0 {
		t.Errorf("answers %v: want some 200 and some 413", status)
	}
	var after int64
	back := time.Now()
	for {
		after, _ = testsupport.ProcStatus(pid, "VmRSS")
		if after <= 2*idle || time.Since(back) > 60*time.Second {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("wirebench serve, %d clients x %d-byte bodies for %v: answers %v; in-flight bound %d MiB; idle RSS %d MiB, peak RSS (VmHWM) %d MiB; RSS %d MiB %v after the load",
		clients, len(body), elapsed.Round(time.Millisecond), status, bound>>20, idle>>20, hwm>>20, after>>20, time.Since(back).Round(100*time.Millisecond))
	if hwm > idle+bound+512<<20 {
		t.Errorf("peak RSS %d MiB passed idle %d MiB + the in-flight bound %d MiB + 512 MiB", hwm>>20, idle>>20, bound>>20)
	}
	if after > 2*idle {
		t.Errorf("RSS %d MiB 60 s after the load, more than twice the idle %d MiB", after>>20, idle>>20)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("wirebench serve exited with %v", err)
	}

	// A body that stalls: 408 at the read timeout, no addresses.
	cmd, lines, base = startServe(t, bin, t.TempDir(), "-addr", "127.0.0.1:0", "-read-timeout", "2s")
	go func(lines <-chan string) {
		for range lines {
		}
	}(lines)
	pr, pw := io.Pipe()
	go pw.Write(bytes.Repeat([]byte(" "), 1<<20)) //nolint:errcheck // then the body stalls
	defer pw.Close()
	t0 := time.Now()
	code, b, err := post(pr, 8<<20, false)
	if err != nil || code != http.StatusRequestTimeout || bytes.Contains(b, []byte("127.0.0.1")) || bytes.Contains(b, []byte("tcp")) {
		t.Errorf("stalled body: %d %q %v; want 408 without addresses", code, b, err)
	}
	if waited := time.Since(t0); waited > 5*time.Second {
		t.Errorf("stalled body answered after %v (-read-timeout 2s)", waited)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("wirebench serve exited with %v", err)
	}
}
