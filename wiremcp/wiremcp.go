package wiremcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// DefaultFormat is the format of an answer whose call names none: GOON,
// the format that costs an agent the fewest o200k tokens in every profile
// of the scorecard, alone, in a session with references and with deltas
// (see the package doc, "Format").
const DefaultFormat = "goon"

// Handler answers one call of a tool: args is the call's arguments
// without format, budget, cursor and fresh (a JSON object, "{}" when
// there are none), valid against the tool's Input schema. An error is
// sent to the model as the tool's error, its message as it is.
type Handler func(ctx context.Context, args json.RawMessage) (*wire.GraphResponse, error)

// Tool is a graph query tool.
type Tool struct {
	// Name is the tool's name, as the model calls it.
	Name string
	// Description says what the tool answers; the service adds how to
	// read its answers (Guide).
	Description string
	// Input is the JSON Schema of the tool's own arguments, an object;
	// nil takes none. It must not name format, budget, cursor or fresh,
	// which the service adds.
	Input *jsonschema.Schema
	// Handler answers a call.
	Handler Handler
}

// Options configure a Service. The zero value of each field has a
// default.
type Options struct {
	// Registry holds the codecs the tools answer in; nil is
	// wire.DefaultRegistry() (import github.com/graphwire/graphwire/codecs
	// to fill it). Its text codecs are the formats offered.
	Registry *wire.Registry
	// Format is the format of a call that names none; empty is
	// DefaultFormat.
	Format string
	// Sessions bound what is remembered of the conversations.
	Sessions SessionLimits
	// Threshold is the share of the full answer's tokens under which a
	// delta is sent instead (delta.Worth); 0 is delta.DefaultThreshold.
	Threshold float64
	// Now is the clock of the idle timeout; nil is time.Now.
	Now func() time.Time

	// Shared, when set, keeps the conversations of the sessions served
	// by Handler in a store every replica of the service shares (package
	// wirestore: in memory, or Redis), so that a call goes on with its
	// conversation whichever replica it lands on, and a replica serves a
	// session another one opened (see the package doc, "Replicas"). Its
	// Limits bound the nodes each conversation remembers (in place of
	// Sessions.Nodes: every replica reads the others' states with them),
	// its Idle is how long a conversation not called is kept, and its
	// Timeout bounds each store call; Sessions.MaxBases and MaxBaseBytes
	// still bound the answers each keeps for deltas. Nil keeps every
	// conversation in the process, as over stdio.
	Shared *wirestore.Sessions

	// ErrorLog receives the failures of Shared's store, one line each:
	// the call is answered, whole. Nil means the log package's standard
	// logger; log.New(io.Discard, "", 0) silences it.
	ErrorLog *log.Logger
}

// Service serves graph query tools on an MCP server, with one
// conversation per MCP session. It is safe for concurrent use.
type Service struct {
	srv     *mcp.Server
	reg     *wire.Registry
	format  string // canonical name
	opts    Options
	convs   *conversations
	shared  *shared // nil without Options.Shared
	counter tokens.Counter
	names   string // the text formats, for errors: "json (raw), goon (llm), ..."
}

// New returns a Service that adds its tools to srv.
func New(srv *mcp.Server, opts Options) (*Service, error) {
	if srv == nil {
		return nil, errors.New("wiremcp: nil *mcp.Server")
	}
	reg := opts.Registry
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	lim, err := opts.Sessions.withDefaults()
	if err != nil {
		return nil, err
	}
	opts.Sessions = lim
	if opts.Threshold != 0 && (opts.Threshold < 0 || opts.Threshold > 1) {
		return nil, fmt.Errorf("wiremcp: Threshold %v is not in (0, 1]", opts.Threshold)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ErrorLog == nil {
		opts.ErrorLog = log.Default()
	}
	counter, err := tokens.Get(tokens.O200k)
	if err != nil {
		return nil, err
	}
	s := &Service{srv: srv, reg: reg, opts: opts, counter: counter, convs: newConversations(lim, opts.Now)}
	s.names = textFormats(reg)
	if s.names == "" {
		return nil, errors.New("wiremcp: the registry holds no text codec (import github.com/graphwire/graphwire/codecs)")
	}
	format := opts.Format
	format = cmp.Or(format, DefaultFormat)
	c, err := s.lookup(format)
	if err != nil {
		return nil, fmt.Errorf("wiremcp: Options.Format: %w", err)
	}
	s.format = c.Info().Name
	if opts.Shared != nil {
		s.shared = newShared(opts.Shared)
		srv.AddReceivingMiddleware(s.initializing)
	}
	return s, nil
}

// Stats says what the service remembers of its conversations now.
func (s *Service) Stats() SessionStats {
	st := s.convs.stats()
	l := s.opts.Sessions
	st.MaxRememberBytes = int64(l.MaxSessions) * (l.Nodes.MaxBytes + l.MaxBaseBytes)
	if s.shared != nil {
		st.SharedSessions = s.shared.sessionsServed()
	}
	return st
}

// The arguments every tool takes besides its own.
const (
	argFormat = "format"
	argBudget = "budget"
	argCursor = "cursor"
	argFresh  = "fresh"
)

// AddTool adds t to the server: its input schema is t.Input with the
// arguments format, budget, cursor and fresh, and its description
// t.Description followed by Guide's text.
func (s *Service) AddTool(t Tool) error {
	if t.Name == "" || t.Handler == nil {
		return errors.New("wiremcp: a Tool needs a Name and a Handler")
	}
	schema := &jsonschema.Schema{Type: "object"}
	if t.Input != nil {
		schema = t.Input.CloneSchemas()
		if schema.Type != "object" {
			return fmt.Errorf("wiremcp: tool %s: Input is of type %q, not an object", t.Name, schema.Type)
		}
	}
	if schema.Properties == nil {
		schema.Properties = map[string]*jsonschema.Schema{}
	}
	for name, p := range s.controlSchemas() {
		if _, taken := schema.Properties[name]; taken {
			return fmt.Errorf("wiremcp: tool %s: Input names %q, which the service adds", t.Name, name)
		}
		schema.Properties[name] = p
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("wiremcp: tool %s: %w", t.Name, err)
	}
	desc := strings.TrimSpace(t.Description)
	if desc != "" {
		desc += "\n\n"
	}
	s.srv.AddTool(&mcp.Tool{Name: t.Name, Description: desc + s.Guide(), InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.call(ctx, t, resolved, req), nil
		})
	return nil
}

func (s *Service) controlSchemas() map[string]*jsonschema.Schema {
	return map[string]*jsonschema.Schema{
		argFormat: {Type: "string", Description: "answer format: " + s.names + "; default " + s.format},
		argBudget: {Type: "integer", Description: "most o200k tokens per answer; a larger result comes in pages"},
		argCursor: {Type: "string", Description: "next_cursor of the page before, with the same budget"},
		argFresh:  {Type: "boolean", Description: "true: send everything again, no references or deltas"},
	}
}

// Guide is the text added to every tool's description: how to read the
// answers, references and deltas, in a few o200k tokens (the tests count
// them). The header fields it names are the same in every format.
func (s *Service) Guide() string {
	return "Answers are " + s.format + " unless format says otherwise. " +
		"Nodes you already received in this conversation are not repeated: sent_earlier lists them (type, then ids). " +
		"A repeated call may answer graphwire_delta, changes to your previous answer of that call: " +
		"nodes_changed/nodes_removed are positions in it, the content holds the new and changed nodes; " +
		"with no content, nothing changed. " +
		"A truncated page has next_cursor: call again with it as cursor."
}

// controls are the arguments every tool takes.
type controls struct {
	format string // canonical name
	budget int    // 0: no budget
	cursor string
	fresh  bool
}

// toolError is an answer the model is to correct its call by.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

func toolErrorf(format string, args ...any) error {
	return &toolError{msg: fmt.Sprintf(format, args...)}
}

// parseCall splits a call's arguments into the controls and the tool's
// own arguments, checking the controls (cheap checks first: nothing of
// the tool runs for a bad call) and the own arguments against schema.
func (s *Service) parseCall(raw json.RawMessage, schema *jsonschema.Resolved) (controls, json.RawMessage, error) {
	var args map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return controls{}, nil, toolErrorf("the arguments are not a JSON object: %s", brief(err))
		}
	}
	if args == nil {
		args = map[string]json.RawMessage{}
	}
	var c controls
	format := s.format
	if v, ok := args[argFormat]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &format); err != nil {
			return c, nil, toolErrorf("format must be a string, one of %s", s.names)
		}
	}
	codec, err := s.lookup(format)
	if err != nil {
		return c, nil, err
	}
	c.format = codec.Info().Name
	if v, ok := args[argBudget]; ok && string(v) != "null" {
		var b int64
		if err := json.Unmarshal(v, &b); err != nil || b < 1 || b > 1<<31 {
			return c, nil, toolErrorf("budget must be a whole number of o200k tokens from 1 to %d, or left out for the whole result; got %s", int64(1)<<31, excerpt(v))
		}
		c.budget = int(b)
	}
	if v, ok := args[argCursor]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &c.cursor); err != nil {
			return c, nil, toolErrorf("cursor must be a string: the next_cursor of a page; got %s", excerpt(v))
		}
		if c.cursor != "" {
			if c.budget == 0 {
				return c, nil, toolErrorf("a cursor continues a paged answer: pass budget too")
			}
			if err := fit.CheckCursor(c.cursor); err != nil {
				return c, nil, cursorError(err)
			}
		}
	}
	if v, ok := args[argFresh]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &c.fresh); err != nil {
			return c, nil, toolErrorf("fresh must be true or false; got %s", excerpt(v))
		}
	}
	for _, k := range []string{argFormat, argBudget, argCursor, argFresh} {
		delete(args, k)
	}
	own, err := json.Marshal(args) // keys sorted: the same arguments give the same text
	if err != nil {
		return c, nil, toolErrorf("the arguments: %s", brief(err))
	}
	var instance map[string]any
	if err := json.Unmarshal(own, &instance); err != nil {
		return c, nil, toolErrorf("the arguments: %s", brief(err))
	}
	if err := schema.Validate(instance); err != nil {
		return c, nil, toolErrorf("the arguments do not match the tool's input schema: %s", brief(err))
	}
	return c, own, nil
}

// lookup finds a text codec by name or alias, or says which to use.
func (s *Service) lookup(name string) (wire.Codec, error) {
	c, err := s.reg.Lookup(name)
	if err != nil {
		return nil, toolErrorf("unknown format %s: use one of %s", excerpt([]byte(strconvQuote(name))), s.names)
	}
	if c.Info().Binary {
		return nil, toolErrorf("format %s is binary, which a model cannot read: use one of %s", c.Info().Name, s.names)
	}
	return c, nil
}

// textFormats lists the registry's text codecs with their aliases:
// "json (raw), goon (llm), toon, gcf".
func textFormats(reg *wire.Registry) string {
	var parts []string
	for _, info := range reg.List() {
		if info.Binary {
			continue
		}
		p := info.Name
		if len(info.Aliases) > 0 {
			p += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// cursorError says what to do about a cursor fit refused.
func cursorError(err error) error {
	var ce *fit.CursorError
	if !errors.As(err, &ce) {
		return toolErrorf("bad cursor: %v", err)
	}
	switch {
	case ce.Mismatch:
		return toolErrorf("bad cursor: the result changed since that page was sent; call again without cursor")
	case ce.Upstream:
		return toolErrorf("bad cursor: %v; it is the data source's cursor, not a page's", err)
	}
	return toolErrorf("bad cursor: %v; pass the next_cursor of the page before, or leave cursor out to start again", err)
}

// excerpt quotes at most the first 40 bytes of v.
func excerpt(v []byte) string { return excerptN(v, 40) }

// excerptN quotes at most the first most bytes of v, cut between UTF-8
// sequences.
func excerptN(v []byte, most int) string {
	if len(v) <= most {
		return string(v)
	}
	cut := most
	for cut > 0 && v[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", v[:cut], len(v))
}

// brief is an error's message cut to 200 bytes: a message that quotes
// its input (a schema's, a JSON decoder's) quotes little of it.
func brief(err error) string { return excerptN([]byte(err.Error()), 200) }

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
