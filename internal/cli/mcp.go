package cli

// wirebench mcp: the responses of DIR or FILE as MCP tools (package
// wiremcp does the work), over stdio by default, over streamable HTTP at
// /mcp with -http (a loopback address: no authentication). Two tools:
// list_responses gives the names, get_response {name, format, budget,
// cursor, fresh} one response, in the conversation of the MCP session
// (references, deltas on repeated calls, pages). With -watch the files
// are read again when they change (checked on every call: modification
// times and sizes), so a repeated call after an edit gets a delta.
//
// -store memory (the default) keeps each conversation in the process
// that opened its MCP session; -store redis://HOST:PORT/DB keeps the
// conversations of the HTTP sessions in Redis, so that several mcp
// processes behind one address serve each other's sessions (see
// wiremcp's doc, "Replicas"). Over stdio a conversation is the
// connection's, in the process.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
	"github.com/graphwire/graphwire/wirestore"
)

func runMCP(env *Env, fs *flag.FlagSet) error {
	addr := fs.String("http", "", "serve streamable HTTP at http://`ADDR`/mcp, a loopback address, instead of stdio")
	watch := fs.Bool("watch", false, "read DIR or FILE again when it changes (checked on every call)")
	format := fs.String("format", wiremcp.DefaultFormat, "the `format` of a call that names none")
	maxSessions := fs.Int("sessions", wiremcp.DefaultMaxSessions, "the most conversations remembered at once")
	idle := fs.Duration("idle", wiremcp.DefaultIdleTimeout, "forget a conversation, and over HTTP its MCP session, idle this long")
	storeURL := fs.String("store", "memory", "where the HTTP sessions' conversations are kept: memory, or redis://`HOST:PORT/DB`, which replicas share")
	if err := parseFlags(fs, env, arguments{1, 1, "one DIR or FILE"}); err != nil {
		return err
	}
	if *addr != "" {
		if err := checkLoopback(*addr); err != nil {
			return usagef("-http: %v", err)
		}
	}
	if *maxSessions <= 0 || *idle <= 0 {
		return usagef("-sessions and -idle must be above 0")
	}
	if c, err := wire.Lookup(*format); err != nil {
		return usagef("-format: %v", err)
	} else if c.Info().Binary {
		return usagef("-format: %s is binary, which a model cannot read", c.Info().Name)
	}
	st, shared, err := openStore(*storeURL)
	if err != nil {
		return err
	}
	defer st.Close()
	var sessions *wirestore.Sessions
	if shared != nil {
		// Limits as the conversations in the process have them.
		sessions, err = wirestore.NewSessions(st, wirestore.SessionOptions{Idle: *idle,
			Limits: delta.SessionLimits{MaxBytes: wiremcp.DefaultSessionBytes}})
		if err != nil {
			return err
		}
	}
	logger := log.New(env.Stderr, "wirebench mcp: ", 0)
	cat, err := newMCPCatalog(fs.Arg(0), *watch, logger)
	if err != nil {
		return err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "wirebench", Version: moduleVersion()},
		&mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	svc, err := wiremcp.New(srv, wiremcp.Options{Format: *format,
		Sessions: wiremcp.SessionLimits{MaxSessions: *maxSessions, IdleTimeout: *idle},
		Shared:   sessions, ErrorLog: logger})
	if err != nil {
		return err
	}
	if err := addMCPTools(srv, svc, cat); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		logger.Printf("%d responses from %s on stdio", cat.count(), cat.path)
		err := srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(env.Stdin), Writer: nopWriteCloser{env.Stdout}})
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
			return err
		}
		return nil
	}
	return serveMCPHTTP(ctx, svc, *addr, *idle, cat, logger)
}

// serveMCPHTTP serves svc at /mcp until ctx ends, then shuts down.
func serveMCPHTTP(ctx context.Context, svc *wiremcp.Service, addr string, idle time.Duration, cat *mcpCatalog, logger *log.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", svc.Handler(&mcp.StreamableHTTPOptions{SessionTimeout: idle}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// No WriteTimeout: a client's event stream (GET /mcp) stays open.
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10, ErrorLog: logger}
	logger.Printf("%d responses from %s on http://%s/mcp", cat.count(), cat.path, ln.Addr())
	if err := serveUntil(ctx, hs, ln, true); err != nil {
		return err
	}
	logger.Printf("stopped")
	return nil
}

// addMCPTools adds list_responses and get_response.
func addMCPTools(srv *mcp.Server, svc *wiremcp.Service, cat *mcpCatalog) error {
	srv.AddTool(&mcp.Tool{Name: "list_responses", Description: "The names of the graph query responses get_response serves, one a line.",
		InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(cat.names(), "\n")}}}, nil
		})
	return svc.AddTool(wiremcp.Tool{Name: "get_response", Description: "One graph query response, by name (list_responses gives the names).",
		Input: &jsonschema.Schema{Type: "object", Required: []string{"name"},
			Properties: map[string]*jsonschema.Schema{"name": {Type: "string", Description: "the response's name"}}},
		Handler: func(_ context.Context, args json.RawMessage) (*wire.GraphResponse, error) {
			var a struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return cat.get(a.Name)
		}})
}

// mcpCatalog holds the responses served, read from path with serve's
// rules, and with watch read again when the files change.
type mcpCatalog struct {
	path  string
	watch bool
	log   *log.Logger

	mu     sync.Mutex
	stamp  string
	byName map[string]*wire.GraphResponse
	order  []string
}

func newMCPCatalog(path string, watch bool, l *log.Logger) (*mcpCatalog, error) {
	c := &mcpCatalog{path: path, watch: watch, log: l}
	st, err := stampOf(path)
	if err != nil {
		return nil, err
	}
	if err := c.load(); err != nil {
		return nil, err
	}
	c.stamp = st
	return c, nil
}

func (c *mcpCatalog) load() error {
	resources, _, err := serveCases(c.path)
	if err != nil {
		return err
	}
	c.byName = make(map[string]*wire.GraphResponse, len(resources))
	c.order = c.order[:0]
	for _, r := range resources {
		c.byName[r.Name] = r.Response
		c.order = append(c.order, r.Name)
	}
	return nil
}

// refresh reads the files again when watching and they changed; a load
// that fails (a file half written) is logged, and the responses loaded
// before stay served.
func (c *mcpCatalog) refresh() {
	if !c.watch {
		return
	}
	st, err := stampOf(c.path)
	if err != nil {
		c.log.Printf("-watch: %v (serving the responses loaded before)", err)
		return
	}
	if st == c.stamp {
		return
	}
	c.stamp = st
	old, oldOrder := c.byName, c.order
	c.order = nil
	if err := c.load(); err != nil {
		c.byName, c.order = old, oldOrder
		c.log.Printf("-watch: %v (serving the responses loaded before)", err)
		return
	}
	c.log.Printf("-watch: %d responses loaded again from %s", len(c.order), c.path)
}

func (c *mcpCatalog) get(name string) (*wire.GraphResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	r, ok := c.byName[name]
	if !ok {
		return nil, fmt.Errorf("no response named %q: list_responses gives the %d names", excerptName(name), len(c.order))
	}
	return r, nil
}

func (c *mcpCatalog) names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refresh()
	return append([]string(nil), c.order...)
}

func (c *mcpCatalog) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.order)
}

// excerptName is at most the first 64 bytes of a name asked for.
func excerptName(s string) string {
	if len(s) <= 64 {
		return s
	}
	return s[:64] + "…"
}

// moduleVersion is the module's version as the binary records it.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
