package wiremcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/wire"
)

// The kinds of answer, as a result's _meta names them (MetaKey).
const (
	// AnswerFull is the whole result, the nodes the conversation sent
	// before and unchanged since written as references.
	AnswerFull = "full"
	// AnswerPage is one page of a result larger than the budget.
	AnswerPage = "page"
	// AnswerDelta is a delta document: what changed since the client's
	// previous answer to the same call.
	AnswerDelta = "delta"
	// AnswerUnchanged is the format's unchanged marker: the result is the
	// client's previous answer to the same call.
	AnswerUnchanged = "unchanged"
)

// MetaKey names the object a result's _meta carries: "format" (the
// codec's name), "answer" (one of the Answer kinds) and, on a page that
// more pages follow, "next_cursor".
const MetaKey = "graphwire"

// answer is what one call sends.
type answer struct {
	text       []byte
	kind       string
	nextCursor string
}

// call runs one tool call: its controls, then the tool, then the answer
// in the conversation of the call's MCP session. Every failure is a tool
// error (IsError) that says what to change.
func (s *Service) call(ctx context.Context, t Tool, schema *jsonschema.Resolved, req *mcp.CallToolRequest) *mcp.CallToolResult {
	c, own, err := s.parseCall(req.Params.Arguments, schema)
	if err != nil {
		return errorResult(err)
	}
	resp, err := t.Handler(ctx, own)
	if err != nil {
		return errorResult(err)
	}
	if resp == nil {
		return errorResult(fmt.Errorf("tool %s returned no result", t.Name))
	}
	conv, release, err := s.openConversation(ctx, req.Session)
	if err != nil {
		return errorResult(err)
	}
	a, err := s.answer(conv, t.Name+"\x00"+c.format+"\x00"+string(own), c, resp)
	release()
	if err != nil {
		return errorResult(err)
	}
	meta := map[string]any{"format": c.format, "answer": a.kind}
	if a.nextCursor != "" {
		meta["next_cursor"] = a.nextCursor
	}
	return &mcp.CallToolResult{
		Meta:    mcp.Meta{MetaKey: meta},
		Content: []mcp.Content{&mcp.TextContent{Text: string(a.text)}},
	}
}

// openConversation returns the conversation of the call's session and
// the function that ends the call in it: a conversation of Options.Shared
// for a session Handler serves under the service's ids, loaded from the
// store and saved back; otherwise the process's own. The calls of one
// conversation run one at a time.
func (s *Service) openConversation(ctx context.Context, ss *mcp.ServerSession) (*conversation, func(), error) {
	if s.shared != nil && ss != nil {
		if e := s.shared.internal(ss.ID()); e != nil {
			conv, release := s.openShared(ctx, ss, e)
			return conv, release, nil
		}
	}
	conv, err := s.convs.get(ss)
	if err != nil {
		return nil, nil, err
	}
	conv.mu.Lock()
	return conv, conv.mu.Unlock, nil
}

func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

// answer writes resp for the conversation: the unchanged marker or a
// delta when the client holds an earlier answer to the same call (key)
// and the delta is worth it, else the whole result or, past the budget,
// a page, with references to the nodes sent before.
func (s *Service) answer(conv *conversation, key string, c controls, resp *wire.GraphResponse) (answer, error) {
	codec, err := s.reg.Lookup(c.format)
	if err != nil {
		return answer{}, err
	}
	dc, docs := codec.(delta.DocumentCodec)
	if c.fresh {
		conv.reset()
	}
	if b, ok := conv.held(key); ok && docs && c.cursor == "" {
		src := delta.Fingerprint(resp)
		if src == b.src {
			// The same result: the marker, which sends (and so refreshes)
			// no node.
			if m, err := b.unchangedMarker(codec); err == nil && s.fits(m, c.budget) {
				return answer{text: m, kind: AnswerUnchanged}, nil
			}
		} else if held, err := delta.Held(codec, resp); err == nil {
			if a, ok := s.tryDelta(conv, codec, dc, b.resp, held, c.budget); ok {
				if a.kind == AnswerDelta {
					conv.session.Mark(held)
				}
				conv.keep(key, held, src)
				return a, nil
			}
		}
	}
	if c.budget > 0 {
		return s.page(conv, key, codec, docs, c, resp)
	}
	if !docs {
		text, err := s.reg.EncodeWith(c.format, resp)
		if err != nil {
			return answer{}, toolErrorf("the result cannot be written in %s (%v): try another format", c.format, err)
		}
		return answer{text: text, kind: AnswerFull}, nil
	}
	text, held, err := conv.session.Encode(s.reg, c.format, resp)
	if err != nil {
		return answer{}, toolErrorf("the result cannot be written in %s (%v): try another format", c.format, err)
	}
	conv.keep(key, held, delta.Fingerprint(resp))
	return answer{text: text, kind: AnswerFull}, nil
}

// page answers a call with a budget: the page from the cursor, which is
// the whole result when it fits.
func (s *Service) page(conv *conversation, key string, codec wire.Codec, docs bool, c controls, resp *wire.GraphResponse) (answer, error) {
	opts := fit.Options{Codec: c.format, Registry: s.reg, Budget: c.budget, Cursor: c.cursor}
	if docs {
		opts.Session = conv.session
	}
	res, err := fit.Page(resp, opts)
	var be *fit.BudgetError
	switch {
	case errors.As(err, &be):
		return answer{}, toolErrorf("budget %d is too small: the next page needs %d o200k tokens in %s; call again with budget %d or more", be.Budget, be.Min, c.format, be.Min)
	case errors.As(err, new(*fit.CursorError)):
		return answer{}, cursorError(err)
	case err != nil:
		return answer{}, toolErrorf("the result cannot be paged in %s (%v): try another format", c.format, err)
	}
	if res.Stats.Truncated || c.cursor != "" {
		// The client holds the result in pages, not as one answer.
		conv.drop(key)
		a := answer{text: res.Encoding, kind: AnswerPage}
		if res.Stats.Truncated && res.Page.Pagination != nil {
			a.nextCursor = res.Page.Pagination.NextCursor.V
		}
		return a, nil
	}
	s.keepWhole(conv, key, codec, resp)
	return answer{text: res.Encoding, kind: AnswerFull}, nil
}

// keepWhole remembers resp, as the client holds it, as the answer to the
// call key.
func (s *Service) keepWhole(conv *conversation, key string, codec wire.Codec, resp *wire.GraphResponse) {
	if _, docs := codec.(delta.DocumentCodec); !docs {
		return
	}
	held, err := delta.Held(codec, resp)
	if err != nil {
		conv.drop(key)
		return
	}
	conv.keep(key, held, delta.Fingerprint(resp))
}

// fits reports whether text costs at most budget o200k tokens (0: no
// budget).
func (s *Service) fits(text []byte, budget int) bool {
	if budget == 0 {
		return true
	}
	n, err := s.counter.Count(text)
	return err == nil && n <= budget
}

// tryDelta answers with a delta from base, the client's earlier answer,
// to held (or the unchanged marker, when the results differ only in what
// the codec does not carry), when delta.Choose says so and the text fits
// the budget (0: none). The full answer it is priced against
// is held with the conversation's references.
func (s *Service) tryDelta(conv *conversation, codec wire.Codec, dc delta.DocumentCodec, base, held *wire.GraphResponse, budget int) (answer, bool) {
	var doc []byte
	choice, d, err := delta.Choose(base, held, s.opts.Threshold,
		func(d *delta.Delta) (int, error) {
			var err error
			if doc, err = delta.AppendDelta(codec, nil, d); err != nil {
				return 0, err
			}
			return s.counter.Count(doc)
		},
		func(r *wire.GraphResponse) (int, error) {
			full, err := delta.AppendReferenced(dc, nil, r, conv.session.References(r))
			if err != nil {
				return 0, err
			}
			return s.counter.Count(full)
		})
	if err != nil || choice == delta.SendFull {
		return answer{}, false
	}
	kind := AnswerDelta
	if choice == delta.SendUnchanged {
		kind = AnswerUnchanged
		if doc, err = delta.AppendDelta(codec, nil, d); err != nil {
			return answer{}, false
		}
	}
	if !s.fits(doc, budget) {
		return answer{}, false
	}
	return answer{text: doc, kind: kind}, true
}
