package fit

import (
	"context"
	"sync"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// PagerOptions says what a Pager pages in; the zero value of each field
// but Codec has a default, as in Options.
type PagerOptions struct {
	// Codec is the name (or alias) of a registered text codec.
	Codec string
	// Registry holds the codec; nil is wire.DefaultRegistry().
	Registry *wire.Registry
	// Counter is the tokenizer: "o200k" (the default when empty) or
	// "cl100k".
	Counter string
	// WholeStats fills Stats.WholeTokens and Stats.Pages of every page,
	// as Options.WholeStats: the whole is tokenized once, on the first
	// page, and the pages of each budget walked once, on its first page.
	WholeStats bool
	// JSONBaseline fills Stats.WholeJSONTokens and Stats.Ratio of every
	// page; the whole is counted as compact JSON once, on the first page
	// that asks.
	JSONBaseline bool
	// Session, when not nil, is the writer's session of the conversation
	// the pages are delivered in, as Options.Session: every page is priced
	// and written with the references the session has at the time of the
	// call, and remembered as delivered.
	Session *delta.Session
}

// Pager serves the pages of one response in one codec and counter,
// remembering across pages the counts of every text it has tokenized:
// each page is found as Page finds it, from its cursor forward, and the
// units a page's search read beyond its page (to learn where it ends)
// cost the next page nothing to count again. Walking every page so
// costs about one count of the whole and a few encodings of it.
//
// Budgets and cursors may change from call to call: a cursor resumes at a
// unit, whatever budget the page that issued it had. A Pager is safe for
// concurrent use; calls on one Pager run one at a time. It keeps the
// response (read, never written), its unit plan and the counts of what
// it has tokenized, at most about the size of the response's encoding;
// drop the Pager to free them.
type Pager struct {
	mu  sync.Mutex
	f   *fitter
	ask asked
}

// NewPager checks the codec and counter names, then plans r's units, one
// pass over r; it encodes and counts nothing. r's fingerprint, another
// pass, is taken when a cursor is first read or written, so a response
// that fits on one page needs none. ctx is checked before it returns; a done ctx returns
// ctx.Err(). r is only read, and must not change while the Pager is in
// use.
func NewPager(ctx context.Context, r *wire.GraphResponse, opts PagerOptions) (*Pager, error) {
	f, err := prepareIn(ctx, r, opts.Registry, opts.Codec, opts.Counter, opts.Session)
	if err != nil {
		return nil, err
	}
	return &Pager{f: f, ask: asked{wholeStats: opts.WholeStats, jsonBaseline: opts.JSONBaseline}}, nil
}

// Page returns the largest page from cursor (empty: the start) whose
// encoding costs at most budget tokens, as Page does. The budget and the
// cursor's text are checked first, then the cursor against the response,
// before anything is encoded or counted. ctx is checked between probes
// and pages; a done ctx returns ctx.Err().
func (p *Pager) Page(ctx context.Context, budget int, cursor string) (*Result, error) {
	if err := checkBudget(budget); err != nil {
		return nil, err
	}
	var cur cursorText
	if cursor != "" {
		var err error
		if cur, err = parseCursorFor(p.f.r, cursor); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	from := 0
	if cursor != "" {
		if err := cur.matchFingerprint(p.f.fingerprint()); err != nil {
			return nil, err
		}
		var err error
		if from, err = cur.index(p.f.plan.units); err != nil {
			return nil, err
		}
	}
	if err := p.f.refresh(from); err != nil {
		return nil, err
	}
	return p.f.result(ctx, budget, from, p.ask)
}

// WholeTokens returns the count of the whole response in the Pager's
// codec and counter, tokenizing the whole the first time it is asked for
// (or a page asked for whole statistics).
func (p *Pager) WholeTokens() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.f.whole()
}
