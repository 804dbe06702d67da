package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
	"github.com/graphwire/graphwire/wiremcp/wiremcptest"
)

// mcpClient is an MCP client under test: the Go SDK's or the npm SDK's.
type mcpClient interface {
	listTools(ctx context.Context) ([]*mcp.Tool, error)
	callTool(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error)
}

type goClient struct{ cs *mcp.ClientSession }

func (c goClient) listTools(ctx context.Context) ([]*mcp.Tool, error) {
	res, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	return res.Tools, nil
}

func (c goClient) callTool(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	return c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

// mcpFiles writes the responses served: a and c from the corpus, b the
// first half of a's nodes (so that b's answer references a's nodes).
func mcpFiles(t *testing.T) (dir string, data map[string]*wire.GraphResponse) {
	t.Helper()
	byID := map[string]*wire.GraphResponse{}
	for _, c := range corpus.Generate() {
		byID[c.ID()] = c.Response
	}
	a, c := byID["lean/traversal_m"], byID["lean/search_m"]
	if a == nil || c == nil {
		t.Fatal("corpus cases lean/traversal_m and lean/search_m are missing")
	}
	b := &wire.GraphResponse{FormatVersion: a.FormatVersion, QueryType: a.QueryType, Nodes: a.Nodes[:len(a.Nodes)/2]}
	dir = t.TempDir()
	data = map[string]*wire.GraphResponse{"a": a, "b": b, "c": c}
	for name, r := range data {
		writeMCPFile(t, dir, name, r)
	}
	return dir, data
}

var mcpStamp = time.Now()

// writeMCPFile writes r as DIR/NAME.json with a modification time later
// than any before, so that -watch sees the change whatever the clock's
// resolution.
func writeMCPFile(t *testing.T, dir, name string, r *wire.GraphResponse) {
	t.Helper()
	b, err := wire.EncodeWith("json", r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	mcpStamp = mcpStamp.Add(time.Second)
	if err := os.Chtimes(path, mcpStamp, mcpStamp); err != nil {
		t.Fatal(err)
	}
}

// edited returns r with the first string property of n of its nodes
// changed (the nodes spread over the response).
func edited(r *wire.GraphResponse, n, round int) *wire.GraphResponse {
	out := *r
	out.Nodes = slices.Clone(r.Nodes)
	for k := range n {
		i := (k*7 + round) % len(out.Nodes)
		props := slices.Clone(out.Nodes[i].Properties)
		for j, p := range props {
			if p.Value.Kind() == wire.KindString {
				props[j].Value = wire.String(fmt.Sprintf("%s (edit %d)", p.Value.Text(), round))
				break
			}
		}
		out.Nodes[i].Properties = props
	}
	return &out
}

// mcpConversation drives a client of "wirebench mcp -watch DIR" through
// tools/list, list_responses, get_response in every text format and a
// 10-call conversation with the files rewritten between calls, checking
// every answer against the files as its format carries them. It logs the
// o200k tokens of each answer and of the response alone.
func mcpConversation(t *testing.T, c mcpClient, dir string, data map[string]*wire.GraphResponse) {
	t.Helper()
	ctx := context.Background()
	tools, err := c.listTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string][]string{}
	for _, tool := range tools {
		schemas[tool.Name] = []string{}
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		raw, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for k := range s.Properties {
			schemas[tool.Name] = append(schemas[tool.Name], k)
		}
		slices.Sort(schemas[tool.Name])
		if tool.Name == "get_response" && !strings.Contains(tool.Description, "sent_earlier") {
			t.Errorf("get_response's description does not say how to read references: %q", tool.Description)
		}
	}
	want := map[string][]string{"list_responses": {}, "get_response": {"budget", "cursor", "format", "fresh", "name"}}
	if diff := cmp.Diff(want, schemas); diff != "" {
		t.Errorf("tools and their arguments (-want +got):\n%s", diff)
	}

	call := func(name string, args map[string]any) wiremcptest.Answer {
		t.Helper()
		res, err := c.callTool(ctx, name, args)
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		if name == "list_responses" {
			return wiremcptest.Answer{Text: res.Content[0].(*mcp.TextContent).Text, IsError: res.IsError}
		}
		a, err := wiremcptest.ReadResult(res)
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		if a.IsError {
			t.Fatalf("%s %v: tool error %s", name, args, a.Text)
		}
		return a
	}
	if got := call("list_responses", map[string]any{}).Text; got != "a\nb\nc" {
		t.Errorf("list_responses: %q", got)
	}

	rd, err := wiremcptest.NewReader(nil, delta.SessionLimits{MaxBytes: wiremcp.DefaultSessionBytes})
	if err != nil {
		t.Fatal(err)
	}
	check := func(i int, name, format string, a wiremcptest.Answer) {
		t.Helper()
		got, err := rd.Read(name+"/"+format, a)
		if err != nil {
			t.Fatalf("call %d: %v\n%.300s", i, err, a.Text)
		}
		want, err := wiremcptest.Carried(nil, format, data[name])
		if err != nil {
			t.Fatal(err)
		}
		// wire.Exact: the equality of delta's fingerprint (a nil and an
		// empty edge list are one).
		if !wire.Equal(want, got, wire.Exact) {
			t.Fatalf("call %d (%s %s, %s) (-want +got):\n%s", i, name, format, a.Kind, cmp.Diff(want, got))
		}
	}
	for _, format := range []string{"json", "goon", "toon", "gcf", "llm", "raw", "TOON"} {
		a := call("get_response", map[string]any{"name": "c", "format": format, "fresh": true})
		codec, err := wire.Lookup(format)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != wiremcp.AnswerFull || a.Format != codec.Info().Name {
			t.Errorf("%s: %s in %s", format, a.Kind, a.Format)
		}
		check(-1, "c", codec.Info().Name, a)
	}

	count := func(s []byte) int { return testsupport.Tokens(t, tokens.O200k, s) }
	steps := []struct {
		name  string
		edit  int // nodes of the file to edit first
		fresh bool
		want  string
	}{
		{"a", 0, true, wiremcp.AnswerFull},
		{"b", 0, false, wiremcp.AnswerFull}, // every node of b was sent with a: references
		{"a", 0, false, wiremcp.AnswerUnchanged},
		{"a", 2, false, wiremcp.AnswerDelta},
		{"c", 0, false, wiremcp.AnswerFull},
		{"b", 0, false, wiremcp.AnswerDelta}, // a's edits touched b's nodes
		{"c", 3, false, wiremcp.AnswerDelta},
		{"c", 0, false, wiremcp.AnswerUnchanged},
		{"a", 1, false, wiremcp.AnswerDelta},
		{"b", 0, false, wiremcp.AnswerDelta}, // the edit of call 9 is in b too
	}
	var rows []string
	var inSession, alone int
	for i, st := range steps {
		if st.edit > 0 {
			data[st.name] = edited(data[st.name], st.edit, i)
			if st.name == "a" { // b is the first half of a
				data["b"] = &wire.GraphResponse{FormatVersion: data["a"].FormatVersion, QueryType: data["a"].QueryType, Nodes: data["a"].Nodes[:len(data["a"].Nodes)/2]}
				writeMCPFile(t, dir, "b", data["b"])
			}
			writeMCPFile(t, dir, st.name, data[st.name])
		}
		args := map[string]any{"name": st.name}
		if st.fresh {
			args["fresh"] = true
		}
		a := call("get_response", args)
		if a.Kind != st.want || a.Format != "goon" {
			t.Errorf("call %d (%s): %s in %s, want %s in goon", i+1, st.name, a.Kind, a.Format, st.want)
		}
		check(i+1, st.name, "goon", a)
		whole, err := wire.EncodeWith("goon", data[st.name])
		if err != nil {
			t.Fatal(err)
		}
		n, w := count([]byte(a.Text)), count(whole)
		inSession += n
		alone += w
		rows = append(rows, fmt.Sprintf("%2d  %-4s %-9s %6d %6d", i+1, st.name, a.Kind, n, w))
	}
	t.Logf("o200k tokens received per call, goon:\ncall resp answer   session  alone\n%s\ntotal: %d in the session, %d alone (%.1f%% saved)",
		strings.Join(rows, "\n"), inSession, alone, 100*float64(alone-inSession)/float64(alone))
	if inSession >= alone/2 {
		t.Errorf("the conversation cost %d tokens, the answers alone %d", inSession, alone)
	}

	// A budget pages; the bad calls are tool errors.
	a := call("get_response", map[string]any{"name": "a", "format": "toon", "budget": 1500, "fresh": true})
	if a.Kind != wiremcp.AnswerPage || a.NextCursor == "" {
		t.Errorf("budget 1500: %s, next cursor %q", a.Kind, a.NextCursor)
	}
	for _, bad := range []map[string]any{
		{"name": "zz"}, {"name": "a", "format": "xml"}, {"name": "a", "budget": 0}, {"name": "a", "budget": 1000, "cursor": strings.Repeat("x", 1<<20)},
	} {
		res, err := c.callTool(ctx, "get_response", bad)
		if err != nil {
			t.Fatalf("%.80v: %v", bad, err)
		}
		if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || len(text) > 300 {
			t.Errorf("%.80v: error %v, %q", bad, res.IsError, text)
		}
	}
}

// TestMCPGoClient runs the built wirebench mcp under the Go SDK's
// clients: over stdio (CommandTransport), and with -http on loopback
// (the streamable HTTP client).
func TestMCPGoClient(t *testing.T) {
	for _, tc := range []struct {
		name      string
		transport func(t *testing.T, bin, dir string) mcp.Transport
	}{
		{"stdio", func(t *testing.T, bin, dir string) mcp.Transport {
			cmd := exec.Command(bin, "mcp", "-watch", dir)
			cmd.Stderr = os.Stderr
			return &mcp.CommandTransport{Command: cmd}
		}},
		{"http", func(t *testing.T, bin, dir string) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: startMCP(t, bin, "-watch", dir)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := testsupport.Wirebench(t)
			dir, data := mcpFiles(t)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tc.transport(t, bin, dir), nil)
			if err != nil {
				t.Fatal(err)
			}
			mcpConversation(t, goClient{cs}, dir, data)
			if err := cs.Close(); err != nil {
				t.Errorf("closing: %v", err)
			}
		})
	}
}

func TestMCPUsage(t *testing.T) {
	for _, args := range [][]string{{"mcp"}, {"mcp", "a", "b"}, {"mcp", "-http", "0.0.0.0:1", "."}, {"mcp", "-format", "xml", "."}, {"mcp", "-format", "msgpack", "."}, {"mcp", "-sessions", "0", "."}} {
		var stderr strings.Builder
		if code := cli.Run(&cli.Env{Args: args, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d; %s", args, code, cli.ExitUsage, stderr.String())
		}
		if !strings.HasPrefix(stderr.String(), "wirebench mcp: ") {
			t.Errorf("%v: %q", args, stderr.String())
		}
	}
}

// startMCP starts "wirebench mcp -http 127.0.0.1:0 args..." and returns
// its endpoint; the test's cleanup stops it with SIGTERM and requires a
// clean exit.
func startMCP(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp", "-http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := lineChan(stderr, 64)
	drained := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // Wait says
		select {
		case <-drained:
			if err := cmd.Wait(); err != nil {
				t.Errorf("wirebench mcp exited with %v", err)
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill() //nolint:errcheck // the test failed already
			t.Error("wirebench mcp did not stop within 20s of SIGTERM")
		}
	})
	re := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+/mcp)$`)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				close(drained)
				t.Fatal("wirebench mcp exited before listening")
			}
			if m := re.FindStringSubmatch(l); m != nil {
				go func() {
					for range lines { // the request log
					}
					close(drained)
				}()
				return m[1]
			}
		case <-deadline:
			t.Fatal("wirebench mcp did not say where it listens within 30s")
		}
	}
}

// nodeClient is the npm @modelcontextprotocol/sdk client of
// wiremcp/testdata/client.mjs, one request a line.
type nodeClient struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

// mcpTestdata returns wiremcp/testdata once its npm packages are
// installed (npm ci --prefix wiremcp/testdata); without them, or
// without node, the test skips, and fails when CI is set (as .ci/run sets it).
func mcpTestdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "wiremcp", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		missing = "the npm packages are not installed (npm ci --prefix wiremcp/testdata)"
	}
	if missing != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(missing)
		}
		t.Skip(missing)
	}
	return dir
}

func startNodeClient(t *testing.T, args ...string) *nodeClient {
	t.Helper()
	dir := mcpTestdata(t)
	cmd := exec.Command("node", append([]string{filepath.Join(dir, "client.mjs")}, args...)...)
	cmd.Dir = dir
	in, out := startPiped(t, cmd)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("node client: %v", err)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill() //nolint:errcheck // the test failed already
			t.Error("the node client did not exit within 30s of the end of its input")
		}
	})
	return &nodeClient{t: t, in: in, out: sc}
}

func (c *nodeClient) roundTrip(req map[string]any, into any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return err
	}
	if !c.out.Scan() {
		return fmt.Errorf("node client: no answer (%v)", c.out.Err())
	}
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(c.out.Bytes(), &e); err != nil {
		return err
	}
	if e.Error != "" {
		return fmt.Errorf("node client: %s", e.Error)
	}
	return json.Unmarshal(c.out.Bytes(), into)
}

func (c *nodeClient) listTools(context.Context) ([]*mcp.Tool, error) {
	var out struct {
		Tools []*mcp.Tool `json:"tools"`
	}
	err := c.roundTrip(map[string]any{"op": "list"}, &out)
	return out.Tools, err
}

func (c *nodeClient) callTool(_ context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	var out struct {
		Result *mcp.CallToolResult `json:"result"`
	}
	err := c.roundTrip(map[string]any{"op": "call", "name": name, "arguments": args}, &out)
	return out.Result, err
}

// TestMCPNodeClientStdio: the npm SDK's client runs wirebench mcp over
// stdio.
func TestMCPNodeClientStdio(t *testing.T) {
	mcpTestdata(t)
	bin := testsupport.Wirebench(t)
	dir, data := mcpFiles(t)
	mcpConversation(t, startNodeClient(t, "stdio", bin, "mcp", "-watch", dir), dir, data)
}

// TestMCPNodeClientHTTP: the npm SDK's client over streamable HTTP.
func TestMCPNodeClientHTTP(t *testing.T) {
	mcpTestdata(t)
	bin := testsupport.Wirebench(t)
	dir, data := mcpFiles(t)
	url := startMCP(t, bin, "-watch", dir)
	mcpConversation(t, startNodeClient(t, "http", url), dir, data)
}

// TestMCPConformance runs the MCP conformance suite's server scenarios
// (npm @modelcontextprotocol/conformance) against wirebench mcp -http:
// every scenario but those wiremcp/testdata/conformance-baseline.yml
// lists, with the reason, must pass.
func TestMCPConformance(t *testing.T) {
	dir := mcpTestdata(t)
	bin := testsupport.Wirebench(t)
	files, _ := mcpFiles(t)
	url := startMCP(t, bin, files)
	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "conformance"), "server", "--url", url,
		"--expected-failures", filepath.Join(dir, "conformance-baseline.yml"))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	summary := string(out)
	if i := strings.LastIndex(summary, "=== SUMMARY ==="); i >= 0 {
		summary = summary[i:]
	}
	t.Logf("conformance server --url %s:\n%s", url, summary)
	if err != nil {
		t.Errorf("conformance: %v", err)
	}
}

// startPiped starts cmd with pipes to its standard input and from its
// standard output, and its standard error on the test's.
func startPiped(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, io.Reader) {
	t.Helper()
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return in, out
}
