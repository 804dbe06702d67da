package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

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
	fp      *fingerprint // nil until needed
	// sess is the session pages are delivered in, nil for none; sc is the
	// codec's session syntax then.
	sess *delta.Session
	sc   delta.SessionCodec
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
	if counterName == "" {
		counterName = tokens.O200k
	}
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
// the price of the whole, learnt once, and what pages of each budget were
// found. It is not safe for concurrent use (Pager serializes its calls).
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
	sc   delta.SessionCodec
	refs []bool
	plan *plan
	fp   fingerprint
	pr   *pricer
	// wholeTokens is the whole's count; ratio its tokens per byte, for
	// segments never counted.
	wholeTokens int
	ratio       float64
	// prefix[u] is the estimated cost of units [0, u) beyond a page's
	// fixed part.
	prefix []float64
	// scale turns estimates into tokens: the whole's count over its
	// estimate. emptyTokens is the count of the page with no unit and no
	// pagination: the first anchor of every search.
	scale       float64
	emptyTokens int
	// walks remembers, per budget, the pages of a walk from the start
	// (at most maxWalks budgets).
	walks map[int]*walk
	// exactOnly is set when a page's exact count disagreed with its
	// segment price: from then on every page is counted whole.
	exactOnly bool
	// jsonTokens is the whole's count as compact JSON, once jsonDone.
	jsonTokens int
	jsonDone   bool
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
	// first is the probe of the first page, found by the walk's search:
	// the page asked for most often, served without encoding it again.
	first *probe
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

// prepare prices r in the named codec and counter: the whole response, and
// an estimate of each unit.
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
	r, codec, counter := s.r, s.codec, s.counter
	if s.plan == nil {
		s.plan = newPlan(r)
	}
	if s.fp == nil {
		fp := fingerprintOf(r)
		s.fp = &fp
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := &fitter{r: r, reg: s.reg, codec: codec, name: s.name, counter: counter, plan: s.plan, fp: *s.fp, sess: s.sess, sc: s.sc}
	if f.sess != nil {
		refs, err := sessionRefs(f.sess, r)
		if err != nil {
			return nil, err
		}
		f.refs = refs
	}
	whole, err := f.encodeWhole(nil)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	pr, err := newPricer(counter)
	if err != nil {
		return nil, err
	}
	f.pr = pr
	if f.wholeTokens, err = f.pr.learn(whole); err != nil {
		return nil, err
	}
	f.ratio = 0.25
	if len(whole) > 0 && f.wholeTokens > 0 {
		f.ratio = float64(f.wholeTokens) / float64(len(whole))
	}
	if err := f.estimateUnits(ctx); err != nil {
		return nil, err
	}
	return f, nil
}

// estimateGroups is the most pages of consecutive units estimateUnits
// encodes, and groupUnits the fewest units in each: enough groups that an
// estimate follows the response's changes of make-up (users, then merge
// requests), few enough that their headers add little to one encoding of
// the whole. A response of fewer than 2 × groupUnits units is one group,
// whose estimate is the whole's count, with nothing encoded.
const (
	estimateGroups = 256
	groupUnits     = 16
)

// estimateUnits estimates the cost of every unit, from the segments of
// the whole that its encoding shares, without counting anything new. The
// units are cut into at most estimateGroups groups of consecutive units;
// each group is encoded as a page and priced from the remembered
// segments, and its price is spread over its units in proportion to their
// weights (the lengths of their names, keys and values). So the estimate
// costs about one more encoding of the whole, however many units there
// are.
func (f *fitter) estimateUnits(ctx context.Context) error {
	n := f.plan.units
	f.prefix = make([]float64, n+1)
	empty, err := f.encodePage(nil, 0, 0, nil)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	base := f.pr.estimate(empty, f.ratio)
	weights := f.plan.weights()
	groups := max(1, min(n/groupUnits, estimateGroups))
	var buf []byte
	for g := range groups {
		if err := ctx.Err(); err != nil {
			return err
		}
		from, to := g*n/groups, (g+1)*n/groups
		est := float64(f.wholeTokens) - base
		if groups > 1 {
			buf, err = f.encodePage(buf[:0], from, to, nil)
			if err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			est = f.pr.estimate(buf, f.ratio) - base
		}
		est = max(est, 0)
		total := 0.0
		for _, w := range weights[from:to] {
			total += w
		}
		for u := from; u < to; u++ {
			share := 1 / float64(to-from)
			if total > 0 {
				share = weights[u] / total
			}
			f.prefix[u+1] = f.prefix[u] + est*share
		}
	}
	// One group (a response of a few units): the empty page's estimate
	// stands for its count, as the whole's count stands for the group's;
	// tokenizing it would cost a good part of the whole's count again.
	emptyTokens := int(math.Round(base))
	if groups > 1 {
		if emptyTokens, err = f.pr.price(empty); err != nil {
			return err
		}
	}
	f.emptyTokens = emptyTokens
	f.scale = 1
	if f.prefix[n] > 0 && f.wholeTokens > emptyTokens {
		f.scale = float64(f.wholeTokens-emptyTokens) / f.prefix[n]
	}
	return nil
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
		pg.Truncated = wire.SomeBool(true)
		pg.NextCursor = wire.SomeString(encodeCursor(to, f.fp))
		return pg
	}
	pg.Truncated = wire.SomeBool(false)
	if orig != nil {
		pg.HasMore = orig.HasMore
		pg.Truncated = wire.SomeBool(orig.HasMore || orig.Truncated.Bool)
		pg.NextCursor = orig.NextCursor
	}
	return pg
}

// probe is one priced candidate page.
type probe struct {
	enc    []byte
	tokens int
	// counted says tokens is the encoding's exact count (the whole's).
	counted bool
}

// search finds the largest k such that units [from, from+k) cost at most
// budget, trusting segment prices (or exact counts once exactOnly is set).
type search struct {
	ctx    context.Context
	f      *fitter
	from   int
	budget int
	probes map[int]probe
}

func (s *search) price(k int) (probe, error) {
	if p, ok := s.probes[k]; ok {
		return p, nil
	}
	if err := s.ctx.Err(); err != nil {
		return probe{}, err
	}
	enc, err := s.f.encodePage(nil, s.from, s.from+k, s.f.pagination(s.from, s.from+k))
	if err != nil {
		return probe{}, fmt.Errorf("fit: %w", err)
	}
	var n int
	if s.f.exactOnly {
		n, err = s.f.pr.exact(enc)
	} else {
		n, err = s.f.pr.price(enc)
	}
	if err != nil {
		return probe{}, err
	}
	p := probe{enc: enc, tokens: n}
	s.probes[k] = p
	return p, nil
}

func (s *search) fits(k int) (bool, error) {
	p, err := s.price(k)
	return err == nil && p.tokens <= s.budget, err
}

// run returns the number of units of the page from s.from. With no unit
// left (a response with none), it is 0 when the empty page fits.
//
// The unit estimates guide the probes: the model T(k) ≈ T(a) + scale ×
// (estimate of units [a, k)), anchored at the last exact probe a (at
// first the empty page, priced once per response), proposes
// the next candidate, so that the probes close in on the answer from both
// sides in a few steps; a bisection between the closest probes that fit
// and do not fit ends the search.
func (s *search) run() (int, error) {
	f := s.f
	n := f.plan.units - s.from
	if n == 0 {
		p0, err := s.price(0)
		if err != nil {
			return 0, err
		}
		if p0.tokens > s.budget {
			return 0, f.budgetError(s.budget, p0.tokens)
		}
		return 0, nil
	}
	lo, hi := 0, n+1 // units [0, lo) fit (lo > 0), [0, hi) do not (hi <= n)
	// The first anchor is the empty page without pagination, priced once
	// for all searches: a page's own empty page is never encoded.
	anchor, anchorT := 0, f.emptyTokens
	for range 6 {
		k := s.propose(anchor, anchorT)
		k = min(max(k, lo+1), hi-1)
		ok, err := s.fits(k)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = k
		} else {
			hi = k
		}
		if hi-lo <= 1 || lo == n {
			break
		}
		anchor, anchorT = k, s.probes[k].tokens
	}
	for hi-lo > 1 && lo < n {
		mid := lo + (hi-lo)/2
		ok, err := s.fits(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return 0, f.budgetError(s.budget, s.probes[1].tokens)
	}
	return lo, nil
}

// propose returns the largest k whose estimated cost is within the
// budget, by the model anchored at the exact price anchorT of k = anchor.
func (s *search) propose(anchor, anchorT int) int {
	f := s.f
	n := f.plan.units - s.from
	room := float64(s.budget-anchorT) / f.scale
	ref := f.prefix[s.from+anchor] + room
	return sort.Search(n+1, func(k int) bool { return f.prefix[s.from+k] > ref }) - 1
}

func (f *fitter) budgetError(budget, min int) error {
	return &BudgetError{Budget: budget, Min: min, Codec: f.name, Counter: f.counter.Name()}
}

// size returns the number of units of the page of budget from unit from:
// the walk's when a remembered walk has a page there, else a search's
// (with its chosen probe).
func (f *fitter) size(ctx context.Context, from, budget int) (int, *probe, error) {
	if w := f.walks[budget]; w != nil {
		if k, ok := w.size(from); ok {
			if from == 0 {
				return k, w.first, nil
			}
			return k, nil, nil
		}
	}
	if p := f.wholePage(from, budget); p != nil {
		return f.plan.units, p, nil
	}
	s := &search{ctx: ctx, f: f, from: from, budget: budget, probes: map[int]probe{}}
	k, err := s.run()
	if err != nil {
		return 0, nil, err
	}
	p := s.probes[k]
	return k, &p, nil
}

// walk returns the pages of budget from the start, walking them (priced
// by their segments, exact by the segment property) the first time a
// budget is asked for.
func (f *fitter) walk(ctx context.Context, budget int) (*walk, error) {
	if w := f.walks[budget]; w != nil {
		return w, nil
	}
	w := &walk{bounds: []int32{0}}
	for from := 0; ; {
		k, p, err := f.size(ctx, from, budget)
		if from == 0 {
			w.first = p
		}
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

// result is the page of budget from unit from (a checked cursor's index).
func (f *fitter) result(ctx context.Context, budget, from int, jsonBaseline bool) (*Result, error) {
	w, err := f.walk(ctx, budget)
	if err != nil {
		return nil, err
	}
	exactBefore := f.exactOnly
	k, p, err := f.serve(ctx, from, budget)
	if err != nil {
		return nil, err
	}
	if f.exactOnly != exactBefore { // the walk was priced by wrong segments
		if w, err = f.walk(ctx, budget); err != nil {
			return nil, err
		}
	}
	to := from + k
	pl := f.plan
	st := Stats{
		Codec:       f.name,
		Counter:     f.counter.Name(),
		Budget:      budget,
		WholeTokens: f.wholeTokens,
		PageTokens:  p.tokens,
		Nodes:       Tally{pl.nodes.count(from, to), len(f.r.Nodes)},
		Edges:       Tally{pl.edges.count(from, to), len(f.r.Edges)},
		Rows:        Tally{pl.rows.count(from, to), len(f.r.Rows)},
		Units:       Tally{k, pl.units},
		FirstUnit:   from,
		Truncated:   to < pl.units,
		Pages:       w.pages(),
	}
	if jsonBaseline {
		if st.WholeJSONTokens, err = f.jsonBaseline(); err != nil {
			return nil, err
		}
	}
	if st.WholeJSONTokens > 0 && f.wholeTokens > 0 {
		st.Ratio = float64(st.WholeJSONTokens) / float64(f.wholeTokens)
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
	if f.jsonDone {
		return f.jsonTokens, nil
	}
	n := f.wholeTokens
	if f.name != "json" {
		b, err := wire.AppendJSON(nil, f.r)
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
	f.jsonTokens, f.jsonDone = n, true
	return n, nil
}
