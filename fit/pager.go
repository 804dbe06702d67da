package fit

import (
	"context"
	"sync"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// PagerOptions says what a Pager prices in; the zero value of each field
// but Codec has a default, as in Options.
type PagerOptions struct {
	// Codec is the name (or alias) of a registered text codec.
	Codec string
	// Registry holds the codec; nil is wire.DefaultRegistry().
	Registry *wire.Registry
	// Counter is the tokenizer: "o200k" (the default when empty) or
	// "cl100k".
	Counter string
	// JSONBaseline fills Stats.WholeJSONTokens and Stats.Ratio of every
	// page; the whole is counted as compact JSON once, on the first page
	// served.
	JSONBaseline bool
	// Session, when not nil, is the writer's session of the conversation
	// the pages are delivered in, as Options.Session: every page is priced
	// and written with the references the session has at the time of the
	// call, and remembered as delivered.
	Session *delta.Session
}

// Pager serves the pages of one response in one codec and counter, having
// priced the response once: NewPager encodes the whole and tokenizes it,
// learning the count of every segment, and each page is then found from
// those counts and its count checked by the tokenizer (only its lines the
// whole did not hold in that order are tokenized) before it is served.
// The first page of a budget also walks the pages of that budget from the
// start (Stats.Pages), priced by their segments; the walk is remembered,
// so the pages that follow cost about one encoding of the page itself.
//
// Budgets and cursors may change from call to call: a cursor resumes at a
// unit, whatever budget the page that issued it had. A Pager is safe for
// concurrent use; calls on one Pager run one at a time. It keeps the
// response (read, never written), its unit plan and the segment counts,
// about the size of the response's encoding; drop the Pager to free them.
type Pager struct {
	mu           sync.Mutex
	f            *fitter
	jsonBaseline bool
}

// NewPager checks the codec and counter names, then prices r: one
// encoding and one tokenization of the whole, and an estimate of each
// unit. ctx is checked between units; a done ctx returns ctx.Err(). r is
// only read, and must not change while the Pager is in use.
func NewPager(ctx context.Context, r *wire.GraphResponse, opts PagerOptions) (*Pager, error) {
	f, err := prepareIn(ctx, r, opts.Registry, opts.Codec, opts.Counter, opts.Session)
	if err != nil {
		return nil, err
	}
	return &Pager{f: f, jsonBaseline: opts.JSONBaseline}, nil
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
	from := 0
	if cursor != "" {
		cur, err := parseCursorFor(p.f.r, cursor)
		if err != nil {
			return nil, err
		}
		if err := cur.matchFingerprint(p.f.fp); err != nil {
			return nil, err
		}
		if from, err = cur.index(p.f.plan.units); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.f.refresh(from); err != nil {
		return nil, err
	}
	return p.f.result(ctx, budget, from, p.jsonBaseline)
}

// WholeTokens returns the count of the whole response in the Pager's
// codec and counter, known since NewPager.
func (p *Pager) WholeTokens() int { return p.f.wholeTokens }
