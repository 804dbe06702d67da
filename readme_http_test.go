package graphwire_test

import (
	"bytes"
	"context"
	encjson "encoding/json"
	"errors"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirehttp"
	"github.com/graphwire/graphwire/wirestore"
)

// The README's service example, verbatim between the markers
// (TestReadmeGoBlocks checks that README.md holds exactly this text).

// README:http:begin

// Issue is the service's own data, tagged for encoding/json.
type Issue struct {
	ID       int64     `json:"-"` // the node's id
	AuthorID int64     `json:"-"` // an edge, not a property
	Title    string    `json:"title"`
	Labels   []string  `json:"labels"` // nil is null, as encoding/json writes it
	Opened   time.Time `json:"opened"` // RFC 3339
	Closed   time.Time `json:"closed,omitzero"`
}

// issueGraph builds the response: a node per issue from its struct, a node
// per author from a map, and an edge from each issue to its author.
func issueGraph(issues []Issue, authors map[int64]string) (*wire.GraphResponse, error) {
	resp := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal}
	for _, is := range issues {
		n, err := wire.NodeOf("Issue", is.ID, is)
		if err != nil {
			return nil, err // *wire.ValueOfError: the property and the Go field
		}
		resp.Nodes = append(resp.Nodes, n)
		resp.Edges = append(resp.Edges, wire.Edge{From: "Issue", FromID: is.ID, To: "User", ToID: is.AuthorID, Type: "AUTHORED_BY"})
	}
	for _, id := range slices.Sorted(maps.Keys(authors)) { // the same order every time
		n, err := wire.NodeOf("User", id, map[string]any{"username": authors[id]})
		if err != nil {
			return nil, err
		}
		resp.Nodes = append(resp.Nodes, n)
	}
	return resp, nil
}

// newService serves resp at /graph in every format by negotiation, checked
// for every format first (Validate), and converts bodies POSTed to
// /convert; the http.Server has every timeout and the header size set.
func newService(addr string, resp *wire.GraphResponse) (*http.Server, error) {
	s, err := wirehttp.New(nil, wirehttp.Options{Validate: true}) // nil: wire.DefaultRegistry()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/graph", s.Static(resp)) // GET/HEAD, each format encoded once
	mux.Handle("/convert", s.Convert())  // POST a body in any format, get any format back
	return wirehttp.NewHTTPServer(addr, mux, wirehttp.HTTPServerOptions{}), nil
}

// fetchGraph reads the response back as an agent does: it asks for GOON
// and decodes the answer by its Content-Type.
func fetchGraph(ctx context.Context, baseURL string) (*wire.GraphResponse, error) {
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "goon"})
	if err != nil {
		return nil, err
	}
	return c.Get(ctx, baseURL+"/graph")
}

// README:http:end

// readmeIssues has a nil and a non-nil slice, a time with a zone and one
// without a closing time.
func readmeIssues() ([]Issue, map[int64]string) {
	opened := time.Date(2025, 3, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	return []Issue{
			{ID: 41, AuthorID: 7, Title: "Fix the pager", Opened: opened},
			{ID: 42, AuthorID: 7, Title: `Quote "this"`, Labels: []string{"bug", "p1"}, Opened: opened, Closed: opened.Add(48 * time.Hour)},
		},
		map[int64]string{7: "ada", 9: "grace", 3: "linus"}
}

// startService runs newService on a loopback port and returns its URL.
func startService(t *testing.T, resp *wire.GraphResponse) string {
	t.Helper()
	srv, err := newService("127.0.0.1:0", resp)
	if err != nil {
		t.Fatal(err)
	}
	return serveLoopback(t, srv)
}

// serveLoopback runs srv on its loopback address until the test ends and
// returns its URL.
func serveLoopback(t *testing.T, srv *http.Server) string {
	t.Helper()
	srv.ErrorLog = log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln) //nolint:errcheck // ErrServerClosed at Close
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// The README's service, run over loopback: the struct-built response has
// the properties encoding/json writes for the structs (a nil slice null,
// times in RFC 3339, the omitted zero time left out), the Client reads it
// back in GOON and in every other format exactly as the codec keeps it,
// and Convert turns a posted body into any format.
func TestReadmeServiceExample(t *testing.T) {
	issues, authors := readmeIssues()
	resp, err := issueGraph(issues, authors)
	if err != nil {
		t.Fatal(err)
	}
	for i, is := range issues {
		want, err := encjson.Marshal(is)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for _, p := range resp.Nodes[i].Properties {
			got[p.Key] = p.Value
		}
		gotJSON, err := encjson.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		var w, g any
		encjson.Unmarshal(want, &w)    //nolint:errcheck // encoding/json's own output
		encjson.Unmarshal(gotJSON, &g) //nolint:errcheck // checked by the Diff
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("issue %d: properties differ from encoding/json's (-encoding/json +NodeOf):\n%s", is.ID, d)
		}
	}
	base := startService(t, resp)
	ctx := context.Background()

	got, err := fetchGraph(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	want, err := wire.DecodeWith("goon", mustEncodeWith(t, "goon", resp))
	if err != nil {
		t.Fatal(err)
	}
	if d := wiretest.Diff(want, got, wire.Exact); d != "" {
		t.Errorf("fetchGraph: not what goon keeps (-want +got):\n%s", d)
	}

	for _, info := range wire.List() {
		c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: info.Name})
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Get(ctx, base+"/graph")
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		if info.Fidelity == wire.Lossy { // a fixed point: the same bytes again
			if !bytes.Equal(mustEncodeWith(t, info.Name, resp), mustEncodeWith(t, info.Name, got)) {
				t.Errorf("%s: the response read back encodes differently", info.Name)
			}
			continue
		}
		if d := wiretest.Diff(resp, got, info.Fidelity); d != "" {
			t.Errorf("%s: read back (-built +read):\n%s", info.Name, d)
		}
	}

	res, err := http.Post(base+"/convert?format=toon", "application/json", bytes.NewReader(mustEncodeWith(t, "json", resp)))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || !bytes.Equal(body, mustEncodeWith(t, "toon", resp)) {
		t.Errorf("convert to toon: %d %q (%v)", res.StatusCode, body, err)
	}
}

// The service validates: a node type goon cannot write is refused in
// json too, and the Client sees the server's 500.
func TestReadmeServiceValidates(t *testing.T) {
	issues, authors := readmeIssues()
	resp, err := issueGraph(issues, authors)
	if err != nil {
		t.Fatal(err)
	}
	resp.Nodes[0].Type = "Merge Request"
	var logged bytes.Buffer // the service logs to the log package's standard logger
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	base := startService(t, resp)
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(context.Background(), base+"/graph")
	var he *wirehttp.Error
	if !errors.As(err, &he) || he.Status != http.StatusInternalServerError || strings.Contains(err.Error(), "Merge") {
		t.Errorf("json of a response goon refuses: %v; want the generic 500", err)
	}
	if l := logged.String(); !strings.Contains(l, `GET "/graph": validating the response: `) || !strings.Contains(l, `"Merge Request"`) {
		t.Errorf("the cause is not logged: %q", logged.String())
	}
}

func mustEncodeWith(t *testing.T, name string, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := wire.EncodeWith(name, r)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

func TestReadmeServiceText(t *testing.T) {
	checkReadmeHolds(t, "readme_http_test.go", "README:http")
	checkReadmeHolds(t, "readme_http_test.go", "README:session")
}

// README:session:begin

// newQueryService answers GET /graph with what query returns now, in
// sessions kept in memory (wirestore.Open("redis://...") shares them
// between replicas): an unchanged answer is a 304, a changed one a delta
// (226), and the nodes a session sent before go as references.
func newQueryService(addr string, query func() *wire.GraphResponse) (*http.Server, error) {
	sessions, err := wirestore.NewSessions(nil, wirestore.SessionOptions{})
	if err != nil {
		return nil, err
	}
	s, err := wirehttp.New(nil, wirehttp.Options{Sessions: sessions})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /graph", func(w http.ResponseWriter, r *http.Request) { s.Respond(w, r, query()) })
	return wirehttp.NewHTTPServer(addr, mux, wirehttp.HTTPServerOptions{}), nil
}

// watchGraph asks for url in GOON every interval until ctx ends, in a
// session and with deltas; use gets the whole response each time, as
// GOON carries it.
func watchGraph(ctx context.Context, url string, every time.Duration, use func(*wire.GraphResponse)) error {
	c, err := wirehttp.NewClient(nil, wirehttp.ClientOptions{Format: "goon", Deltas: true, Session: true})
	if err != nil {
		return err
	}
	for {
		resp, err := c.Get(ctx, url)
		if err != nil {
			return err
		}
		use(resp)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}

// README:session:end

// The README's re-query loop against its session service over loopback:
// each answer is the service's data as GOON carries it, while the data
// change between some of the calls.
func TestReadmeSessionExample(t *testing.T) {
	issues, authors := readmeIssues()
	first, err := issueGraph(issues, authors)
	if err != nil {
		t.Fatal(err)
	}
	issues[1].Title = "Quote this, edited"
	second, err := issueGraph(issues, authors)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32 // read by the server's goroutine
	current := func() *wire.GraphResponse {
		if calls.Load() < 2 {
			return first
		}
		return second
	}
	srv, err := newQueryService("127.0.0.1:0", current)
	if err != nil {
		t.Fatal(err)
	}
	base := serveLoopback(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err = watchGraph(ctx, base+"/graph", time.Millisecond, func(got *wire.GraphResponse) {
		want, err := wire.DecodeWith("goon", mustEncodeWith(t, "goon", current()))
		if err != nil {
			t.Fatal(err)
		}
		if d := wiretest.Diff(want, got, wire.Exact); d != "" {
			t.Errorf("call %d (-want +got):\n%s", calls.Load(), d)
		}
		if calls.Add(1) == 4 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("watchGraph: %v", err)
	}
}

// TestReadmeCommandList: the command list under "## wirebench" names
// every command "wirebench help" lists.
func TestReadmeCommandList(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## wirebench\n\n```\n")
	if !ok {
		t.Fatal(`README.md has no "## wirebench" section opening with a code block`)
	}
	list, _, _ := strings.Cut(section, "```\n")
	var out, errOut bytes.Buffer
	if code := cli.Run(&cli.Env{Args: []string{"help"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}); code != cli.ExitOK {
		t.Fatalf("wirebench help: exit %d: %s", code, errOut.String())
	}
	_, commands, _ := strings.Cut(out.String(), "commands:\n")
	n := 0
	for line := range strings.Lines(commands) {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		name := strings.Fields(line)[0]
		n++
		if !strings.Contains(list, "wirebench "+name+" ") && !strings.Contains(list, "wirebench "+name+"\n") {
			t.Errorf("README's command list has no line for %q", name)
		}
	}
	if n < 10 {
		t.Errorf("wirebench help listed %d commands:\n%s", n, out.String())
	}
}
