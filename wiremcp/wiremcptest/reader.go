// Package wiremcptest reads a wiremcp service's answers as its client
// does, so a test can check every answer of a conversation against the
// service's data: the unchanged marker and deltas applied to the answer
// held, references resolved from what the conversation sent.
package wiremcptest

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
)

// Answer is one tool result as its client reads it.
type Answer struct {
	Text       string // the one text content
	Kind       string // wiremcp.AnswerFull, AnswerPage, AnswerDelta or AnswerUnchanged
	Format     string // the codec's name
	NextCursor string // on a page that more pages follow
	IsError    bool
}

// ReadResult reads a tools/call result of a wiremcp tool: one text
// content and the _meta wiremcp.MetaKey describes.
func ReadResult(res *mcp.CallToolResult) (Answer, error) {
	if len(res.Content) != 1 {
		return Answer{}, fmt.Errorf("wiremcptest: %d contents, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return Answer{}, fmt.Errorf("wiremcptest: content %T, want text", res.Content[0])
	}
	a := Answer{Text: tc.Text, IsError: res.IsError}
	if m, ok := res.Meta[wiremcp.MetaKey].(map[string]any); ok {
		a.Kind, _ = m["answer"].(string)
		a.Format, _ = m["format"].(string)
		a.NextCursor, _ = m["next_cursor"].(string)
	}
	if !a.IsError && (a.Kind == "" || a.Format == "") {
		return a, errors.New("wiremcptest: the result's _meta names no answer kind or format")
	}
	return a, nil
}

// Reader is the client's side of one conversation: the nodes it was sent
// and the answer it holds for each call.
type Reader struct {
	reg  *wire.Registry
	sess *delta.Session
	held map[string]*wire.GraphResponse // by call
}

// NewReader returns a Reader of a conversation whose service remembers
// nodes within l (wiremcp.SessionLimits.Nodes, with its defaults filled
// in) and reads with reg's codecs (nil: wire.DefaultRegistry()).
func NewReader(reg *wire.Registry, l delta.SessionLimits) (*Reader, error) {
	s, err := delta.NewSession(l)
	if err != nil {
		return nil, err
	}
	return &Reader{reg: reg, sess: s, held: map[string]*wire.GraphResponse{}}, nil
}

// Read returns the response answer a gives its client for the call call
// (any name the caller gives one tool with its arguments): a delta or
// the unchanged marker patched onto the answer held for call, a full
// answer or a page with its references resolved. A full answer is then
// held for call; a page leaves none.
func (r *Reader) Read(call string, a Answer) (*wire.GraphResponse, error) {
	switch a.Kind {
	case wiremcp.AnswerDelta, wiremcp.AnswerUnchanged:
		d, err := delta.DecodeWith(r.reg, a.Format, []byte(a.Text))
		if err != nil {
			return nil, fmt.Errorf("wiremcptest: %s: %w", a.Kind, err)
		}
		base, ok := r.held[call]
		if !ok {
			return nil, fmt.Errorf("wiremcptest: a %s for a call whose answer is not held", a.Kind)
		}
		next, err := delta.Patch(base, d)
		if err != nil {
			return nil, fmt.Errorf("wiremcptest: %s: %w", a.Kind, err)
		}
		if a.Kind == wiremcp.AnswerDelta {
			// A delta delivers its result; the unchanged marker delivers
			// (and so refreshes) no node.
			if _, err := r.sess.Resolve(next, nil, delta.Hash{}); err != nil {
				return nil, err
			}
		}
		r.held[call] = next
		return next, nil
	case wiremcp.AnswerFull, wiremcp.AnswerPage:
		resp, err := r.sess.Decode(r.reg, a.Format, []byte(a.Text))
		if err != nil {
			return nil, fmt.Errorf("wiremcptest: %s: %w", a.Kind, err)
		}
		if a.Kind == wiremcp.AnswerFull {
			r.held[call] = resp
		} else {
			delete(r.held, call)
		}
		return resp, nil
	}
	return nil, fmt.Errorf("wiremcptest: answer kind %q", a.Kind)
}

// Carried returns resp as a client of the codec named format holds it:
// decode(encode(resp)).
func Carried(reg *wire.Registry, format string, resp *wire.GraphResponse) (*wire.GraphResponse, error) {
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	b, err := reg.EncodeWith(format, resp)
	if err != nil {
		return nil, err
	}
	return reg.DecodeWith(format, b)
}
