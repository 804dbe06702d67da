package fit

import (
	"context"
	"errors"
	"fmt"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// Options says how to cut one page. The zero value of each field but Codec
// and Budget has a default.
type Options struct {
	// Codec is the name (or alias) of a registered text codec: "goon",
	// "toon", "json", ... Binary codecs have no token count and are refused.
	Codec string
	// Registry holds the codec; nil is wire.DefaultRegistry() (import
	// github.com/graphwire/graphwire/codecs to fill it with the built-ins).
	Registry *wire.Registry
	// Counter is the tokenizer: "o200k" (the default when empty) or
	// "cl100k". The estimates of package tokens are refused: a budget is
	// kept by real counts only.
	Counter string
	// Budget is the most tokens the page's encoding may cost; it must be
	// positive.
	Budget int
	// Cursor resumes after an earlier page: the NextCursor of its
	// pagination, while its Stats.Truncated is true (CheckCursor accepts
	// it). Empty starts at the beginning. The last page's NextCursor is
	// the upstream server's, never fit's: see the package doc.
	Cursor string
	// WholeStats fills Stats.WholeTokens and Stats.Pages, the statistics
	// of the whole response: it tokenizes the whole once and finds every
	// page of the budget from the start, which costs about as much as
	// encoding and counting the whole, where the page alone costs about
	// as much as the page. Without it both stay 0.
	WholeStats bool
	// JSONBaseline fills Stats.WholeJSONTokens, Stats.WholeTokens and
	// Stats.Ratio: it counts the whole response in the codec and as
	// compact JSON, the larger text, which costs more than the page. Without
	// it the JSON baseline and the ratio stay 0.
	JSONBaseline bool
	// Session, when not nil, is the writer's session of the conversation
	// the page is delivered in (see "Sessions" in the package doc): a node
	// the session would write as a reference (delivered before, unchanged
	// since, still remembered) is priced and written as one, in the
	// codec's document syntax (delta.DocumentCodec; a codec without one is
	// an error matching delta.ErrNoSyntax), and the page returned is
	// remembered as delivered. With a lossy codec (GOON) the pages are of
	// the response as its reader holds it, Decode(Encode(r)), which is
	// what Session.Encode writes. Nil pages without a session.
	Session *delta.Session
}

// Result is one page: the response, its encoding in the chosen codec, and
// what it holds.
type Result struct {
	// Page is a prefix of the response's units, a response every codec can
	// encode, with v5 pagination: while units follow, HasMore and Truncated
	// are true and NextCursor is fit's; the last page carries the
	// response's own has_more and next_cursor (the upstream server's). It
	// shares nodes, properties, rows and descriptors with the response
	// given to Page: treat both as read-only.
	Page *wire.GraphResponse
	// Encoding is Page encoded with the codec: the bytes that were counted,
	// ready to be sent as they are (a server need not encode Page again).
	// A Pager may hand the same bytes to several callers: read-only.
	Encoding []byte
	Stats    Stats
}

// Tally is how many items of one kind a page holds, of how many in all.
type Tally struct {
	Kept, Total int
}

// Stats describes a page and the response it came from, in real tokens.
type Stats struct {
	Codec   string // the codec's canonical name
	Counter string // o200k or cl100k
	Budget  int

	// WholeJSONTokens is the token count of the whole response as compact
	// canonical JSON, the baseline; 0 when canonical JSON cannot carry the
	// response (NaN or ±Inf values), and unless asked for
	// (Options.JSONBaseline).
	WholeJSONTokens int
	// WholeTokens is the token count of the whole response in the codec;
	// 0 unless asked for (Options.WholeStats or Options.JSONBaseline).
	WholeTokens int
	// PageTokens is the token count of Encoding: never above Budget.
	PageTokens int

	Nodes, Edges, Rows Tally // kept in this page, in the whole response
	Units              Tally // units in this page, in the whole response
	// FirstUnit is the index of the page's first unit (0 without a cursor).
	FirstUnit int

	// Ratio is WholeJSONTokens / WholeTokens: how many times fewer tokens
	// the codec needs than JSON (0 when there is no JSON baseline).
	Ratio float64
	// Truncated reports whether units of the response follow this page:
	// whether the page's NextCursor is fit's, to pass to Page again. When
	// it is false the page is the last of the response, and its
	// pagination is the response's own: what lies beyond, on the upstream
	// server.
	Truncated bool
	// Pages is the number of pages of this budget that hold the whole
	// response, starting from the beginning; 0 when some unit alone does
	// not fit the budget, and unless asked for (Options.WholeStats).
	Pages int
}

// ErrBinaryCodec is matched (errors.Is) by the error of Page for a codec
// whose encoding is bytes rather than text.
var ErrBinaryCodec = errors.New("fit: binary codecs have no token count")

// Page returns the largest next page of r whose encoding in opts.Codec
// costs at most opts.Budget tokens: the units from opts.Cursor on, as many
// as fit. The whole response is the page when it fits; otherwise the next
// unit would not. r is only read.
//
// Page prices the page from its cursor forward and stops at the budget:
// its cost follows the page's size, not the response's, beside a cheap
// pass or two over r (its units, and its fingerprint when a cursor is
// read or written). A caller serving several pages of one response from
// one process may keep a Pager, which remembers the counts of what it has
// tokenized.
func Page(r *wire.GraphResponse, opts Options) (*Result, error) {
	// Cheap checks first: the budget and the cursor's text, then the
	// codec and counter names, then the cursor against the response
	// (its fingerprint, its unit index), and only then any encoding or
	// counting.
	if err := checkBudget(opts.Budget); err != nil {
		return nil, err
	}
	var cur cursorText
	if opts.Cursor != "" {
		var err error
		if cur, err = parseCursorFor(r, opts.Cursor); err != nil {
			return nil, err
		}
	}
	s, err := setup(r, opts.Registry, opts.Codec, opts.Counter, opts.Session)
	if err != nil {
		return nil, err
	}
	from := 0
	if opts.Cursor != "" {
		// The cursor names a unit of the response as paged: s.r, which
		// within a session of a codec that is not exact is the response
		// as its reader holds it.
		fp := fingerprintOf(s.r)
		if err := cur.matchFingerprint(fp); err != nil {
			return nil, err
		}
		s.fp = &fp
		// Every unit holds a node, an edge or a row, so an index past
		// their number is refused without planning the units.
		if _, err := cur.index(max(1, len(s.r.Nodes)+len(s.r.Edges)+len(s.r.Rows))); err != nil {
			return nil, err
		}
		s.plan = newPlan(s.r)
		if from, err = cur.index(s.plan.units); err != nil {
			return nil, err
		}
	}
	ctx := context.Background()
	f, err := s.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return f.result(ctx, opts.Budget, from, asked{wholeStats: opts.WholeStats, jsonBaseline: opts.JSONBaseline})
}

func checkBudget(budget int) error {
	if budget <= 0 {
		return fmt.Errorf("fit: budget %d: must be a positive number of tokens", budget)
	}
	return nil
}
