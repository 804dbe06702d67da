package fit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// setting is what prepare needs, resolved and checked before any work
// proportional to the response.
type setting struct {
	r       *wire.GraphResponse
	reg     *wire.Registry
	codec   wire.Codec
	name    string
	counter tokens.Counter
	plan    *plan        // nil until needed
	fp      *fingerprint // nil until a cursor needs it
	// sess is the session pages are delivered in, nil for none; sc is the
	// codec's session syntax then.
	sess *delta.Session
	sc   delta.DocumentCodec
}

// setup checks the response, the codec and the counter names, and, with
// a session, that the codec has a session syntax.
func setup(r *wire.GraphResponse, reg *wire.Registry, codecName, counterName string, sess *delta.Session) (*setting, error) {
	if r == nil {
		return nil, errors.New("fit: nil response")
	}
	s, err := resolve(reg, codecName, counterName)
	if err != nil {
		return nil, err
	}
	s.r, s.reg = r, reg
	if sess != nil {
		if s.sc, err = sessionCodec(s.codec); err != nil {
			return nil, err
		}
		s.sess = sess
		// Session.Encode writes the response as its reader holds it
		// (delta.Held): the pages are of that response, so that what is
		// priced is what is sent.
		if s.r, err = delta.Held(s.codec, r); err != nil {
			return nil, fmt.Errorf("fit: %w", err)
		}
	}
	return s, nil
}

// resolve looks up the codec and the counter by name, refusing a binary
// codec and an estimating counter.
func resolve(reg *wire.Registry, codecName, counterName string) (*setting, error) {
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	codec, err := reg.Lookup(codecName)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	info := codec.Info()
	if info.Binary {
		return nil, fmt.Errorf("%w: %s", ErrBinaryCodec, info.Name)
	}
	counterName = cmp.Or(counterName, tokens.O200k)
	counter, err := tokens.Get(counterName)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	if counter.Estimate() {
		return nil, fmt.Errorf("fit: counter %s is an estimate; a budget needs a real tokenizer (%s or %s)", counter.Name(), tokens.O200k, tokens.Cl100k)
	}
	return &setting{codec: codec, name: info.Name, counter: counter}, nil
}

// fitter holds what every page of one response, codec and counter shares:
// the unit plan, the fingerprint (once a cursor needs it), the counts of
// every text tokenized so far, and what was learnt of the whole when
// asked for. It is not safe
// for concurrent use (Pager serializes its calls).
type fitter struct {
	r       *wire.GraphResponse
	reg     *wire.Registry
	codec   wire.Codec
	name    string
	counter tokens.Counter
	// sess, sc and refs: the session pages are delivered in (nil for
	// none), the codec's session syntax, and for each node of r whether
	// the session writes it as a reference (as last asked, see refresh).
	sess *delta.Session
	sc   delta.DocumentCodec
	refs []bool
	plan *plan
	// fp is r's fingerprint, once fpDone: taken when a cursor is first
	// read or written (fingerprint), never for a response that fits on
	// one page.
	fp     fingerprint
	fpDone bool
	pr     *pricer
	// rate is the tokens per byte of unit weight (plan.weight) the last
	// search found, the first guess of the next one.
	rate float64
	// emptyTokens is the count of the page with no unit and no
	// pagination, the first anchor of every search.
	emptyTokens countOnce
	// walks remembers, per budget, the pages of a walk from the start
	// (at most maxWalks budgets), made only for Stats.Pages.
	walks map[int]*walk
	// wholeTokens is the whole's count.
	wholeTokens countOnce
	// jsonTokens is the whole's count as compact JSON.
	jsonTokens countOnce
}

// maxWalks bounds how many budgets' walks a fitter remembers; past it the
// oldest are forgotten all at once.
const maxWalks = 16

// walk is the pages of one budget from the start: page i holds units
// [bounds[i], bounds[i+1]). When complete is false, the unit at the last
// bound does not fit the budget alone.
type walk struct {
	bounds   []int32
	complete bool
}

// pages is the number of pages that hold the whole response; 0 when some
// unit alone does not fit.
func (w *walk) pages() int {
	if !w.complete {
		return 0
	}
	return len(w.bounds) - 1
}

// size returns the number of units of the walk's page that starts at
// from, if a page of the walk does.
func (w *walk) size(from int) (int, bool) {
	i := sort.Search(len(w.bounds), func(i int) bool { return int(w.bounds[i]) >= from })
	if i+1 >= len(w.bounds) || int(w.bounds[i]) != from {
		return 0, false
	}
	return int(w.bounds[i+1]) - from, true
}

// prepare readies r for pages in the named codec and counter: the plan,
// one cheap pass over r. Nothing is encoded or counted.
func prepare(ctx context.Context, r *wire.GraphResponse, reg *wire.Registry, codecName, counterName string) (*fitter, error) {
	return prepareIn(ctx, r, reg, codecName, counterName, nil)
}

// prepareIn is prepare within a session (nil: none).
func prepareIn(ctx context.Context, r *wire.GraphResponse, reg *wire.Registry, codecName, counterName string, sess *delta.Session) (*fitter, error) {
	s, err := setup(r, reg, codecName, counterName, sess)
	if err != nil {
		return nil, err
	}
	return s.prepare(ctx)
}

func (s *setting) prepare(ctx context.Context) (*fitter, error) {
	r := s.r
	if s.plan == nil {
		s.plan = newPlan(r)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pr, err := newPricer(s.counter)
	if err != nil {
		return nil, err
	}
	f := &fitter{r: r, reg: s.reg, codec: s.codec, name: s.name, counter: s.counter, plan: s.plan,
		sess: s.sess, sc: s.sc, pr: pr, rate: initialRate}
	if s.fp != nil {
		f.fp, f.fpDone = *s.fp, true
	}
	if f.sess != nil {
		refs, err := sessionRefs(f.sess, r)
		if err != nil {
			return nil, err
		}
		f.refs = refs
	}
	return f, nil
}

// fingerprint returns r's fingerprint, taking it the first time a cursor
// is read or written: a response that fits on one page is read for none.
func (f *fitter) fingerprint() fingerprint {
	if !f.fpDone {
		f.fp, f.fpDone = fingerprintOf(f.r), true
	}
	return f.fp
}

// whole returns the count of the whole response in the codec (within a
// session, with its references as they stood when it was first asked
// for), tokenizing it once. Its segments' counts are remembered, so the
// pages that follow count little more than their headers.
func (f *fitter) whole() (int, error) {
	return f.wholeTokens.get(func() (int, error) {
		enc, err := f.encodeWhole(nil)
		if err != nil {
			return 0, fmt.Errorf("fit: %w", err)
		}
		return f.pr.learn(enc)
	})
}

// empty returns the count of the page with no unit and no pagination.
func (f *fitter) empty() (int, error) {
	return f.emptyTokens.get(func() (int, error) {
		enc, err := f.encodePage(nil, 0, 0, nil)
		if err != nil {
			return 0, fmt.Errorf("fit: %w", err)
		}
		return f.pr.verify(enc)
	})
}

// countOnce is a count computed at most once.
type countOnce struct {
	n    int
	done bool
}

// get returns the count, computed by count the first time.
func (c *countOnce) get(count func() (int, error)) (int, error) {
	if !c.done {
		n, err := count()
		if err != nil {
			return 0, err
		}
		c.n, c.done = n, true
	}
	return c.n, nil
}

// pagination is the pagination of the page of units [from, to): schema
// v5 on every page, with fit's cursor while units follow; the last page
// says what the response's own pagination says (its has_more, and its
// cursor, the upstream server's, which fetches what lies beyond the
// response). A schema v2 total_rows is not carried: v5 has no such field,
// and a page mixing the two schemas is refused by every codec.
func (f *fitter) pagination(from, to int) *wire.Pagination {
	orig := f.r.Pagination
	pg := &wire.Pagination{}
	if to < f.plan.units {
		pg.HasMore = true
		pg.Truncated = wire.Some(true)
		pg.NextCursor = wire.Some(encodeCursor(to, f.fingerprint()))
		return pg
	}
	pg.Truncated = wire.Some(false)
	if orig != nil {
		pg.HasMore = orig.HasMore
		pg.Truncated = wire.Some(orig.HasMore || orig.Truncated.V)
		pg.NextCursor = orig.NextCursor
	}
	return pg
}

// probe is one candidate page, encoded and counted exactly.
type probe struct {
	enc    []byte
	tokens int
}

// encodeProbe encodes the page of units [from, from+k) with its
// pagination and counts it (pricer.verify: only the stretches of lines
// not tokenized before in that order are tokenized).
func (f *fitter) encodeProbe(ctx context.Context, from, k int) (probe, error) {
	if err := ctx.Err(); err != nil {
		return probe{}, err
	}
	enc, err := f.encodePage(nil, from, from+k, f.pagination(from, from+k))
	if err != nil {
		return probe{}, fmt.Errorf("fit: %w", err)
	}
	n, err := f.pr.verify(enc)
	if err != nil {
		return probe{}, err
	}
	// Capacity clipped: a caller's append must not write into a page
	// shared with other callers.
	return probe{enc: enc[:len(enc):len(enc)], tokens: n}, nil
}

func (f *fitter) budgetError(budget, min int) error {
	return &BudgetError{Budget: budget, Min: min, Codec: f.name, Counter: f.counter.Name()}
}

// size returns the number of units of the page of budget from unit from,
// with its encoding and count: the walk's size when a remembered walk
// has a page there, else a search's.
func (f *fitter) size(ctx context.Context, from, budget int) (int, probe, error) {
	if w := f.walks[budget]; w != nil {
		if k, ok := w.size(from); ok {
			p, err := f.encodeProbe(ctx, from, k)
			return k, p, err
		}
	}
	s := &search{ctx: ctx, f: f, from: from, budget: budget, probes: map[int]probe{}, cum: []float64{0}}
	k, err := s.run()
	if err != nil {
		return 0, probe{}, err
	}
	return k, s.probes[k], nil
}

// walk returns the pages of budget from the start, finding them the first
// time a budget is asked for. It costs a search per page: about one
// count of the whole, which whole has made already.
func (f *fitter) walk(ctx context.Context, budget int) (*walk, error) {
	if w := f.walks[budget]; w != nil {
		return w, nil
	}
	w := &walk{bounds: []int32{0}}
	for from := 0; ; {
		k, _, err := f.size(ctx, from, budget)
		var be *BudgetError
		if errors.As(err, &be) {
			break // a later unit alone does not fit
		}
		if err != nil {
			return nil, err
		}
		from += k
		w.bounds = append(w.bounds, int32(from))
		if from >= f.plan.units {
			w.complete = true
			break
		}
	}
	if f.walks == nil || len(f.walks) >= maxWalks {
		f.walks = map[int]*walk{}
	}
	f.walks[budget] = w
	return w, nil
}

// asked is which statistics of the whole a page's caller asked for.
type asked struct {
	wholeStats, jsonBaseline bool
}

// result is the page of budget from unit from (a checked cursor's index).
func (f *fitter) result(ctx context.Context, budget, from int, ask asked) (*Result, error) {
	pl := f.plan
	st := Stats{Codec: f.name, Counter: f.counter.Name(), Budget: budget, FirstUnit: from}
	var err error
	if ask.wholeStats || ask.jsonBaseline {
		// First: the whole's segment counts make every page's count that
		// follows cheap.
		if st.WholeTokens, err = f.whole(); err != nil {
			return nil, err
		}
	}
	if ask.wholeStats {
		w, err := f.walk(ctx, budget)
		if err != nil {
			return nil, err
		}
		st.Pages = w.pages()
	}
	k, p, err := f.size(ctx, from, budget)
	if err != nil {
		return nil, err
	}
	to := from + k
	st.PageTokens = p.tokens
	st.Nodes = Tally{pl.nodes.count(from, to), len(f.r.Nodes)}
	st.Edges = Tally{pl.edges.count(from, to), len(f.r.Edges)}
	st.Rows = Tally{pl.rows.count(from, to), len(f.r.Rows)}
	st.Units = Tally{k, pl.units}
	st.Truncated = to < pl.units
	if ask.jsonBaseline {
		if st.WholeJSONTokens, err = f.jsonBaseline(); err != nil {
			return nil, err
		}
	}
	if st.WholeJSONTokens > 0 && st.WholeTokens > 0 {
		st.Ratio = float64(st.WholeJSONTokens) / float64(st.WholeTokens)
	}
	page := pl.page(from, to, f.pagination(from, to))
	if err := f.deliver(page, p.enc); err != nil {
		return nil, err
	}
	return &Result{Page: page, Encoding: p.enc, Stats: st}, nil
}

// jsonBaseline counts the whole response as compact canonical JSON, once;
// 0 when JSON cannot carry it.
func (f *fitter) jsonBaseline() (int, error) {
	return f.jsonTokens.get(f.countJSON)
}

func (f *fitter) countJSON() (int, error) {
	n, err := f.whole()
	if err != nil {
		return 0, err
	}
	if f.name != "json" {
		b, err := jsoncodec.AppendEncode(nil, f.r)
		var ee *wire.EncodeError
		switch {
		case errors.As(err, &ee):
			n = 0
		case err != nil:
			return 0, err
		default:
			if n, err = f.pr.exact(b); err != nil { // counted once: nothing else shares its segments
				return 0, err
			}
		}
	}
	return n, nil
}
