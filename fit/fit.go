package fit

import (
	"errors"
	"fmt"
	"sort"

	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// Options says how to cut a page. The zero value of each field but Codec
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
	// pagination. Empty starts at the beginning.
	Cursor string
	// JSONBaseline fills Stats.WholeJSONTokens and Stats.Ratio: it counts
	// the whole response as compact JSON, a second full count of a text
	// larger than the codec's own, which costs more than fitting the page
	// does. Without it both stay 0. wirebench fit sets it.
	JSONBaseline bool
}

// Result is one page: the response, its encoding in the chosen codec, and
// what it holds.
type Result struct {
	// Page is a prefix of the response's units, a response every codec can
	// encode, with v5 pagination: HasMore and Truncated say whether more
	// units follow, NextCursor resumes after them. It shares nodes,
	// properties, rows and descriptors with the response given to Page:
	// treat both as read-only.
	Page *wire.GraphResponse
	// Encoding is Page encoded with the codec: the bytes that were counted.
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
	// response (NaN or ±Inf values).
	WholeJSONTokens int
	// WholeTokens is the token count of the whole response in the codec.
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
	// Truncated reports whether units follow this page: whether to call
	// Page again with the page's NextCursor. (The last page's pagination is
	// the response's own, whose has_more concerns the server.)
	Truncated bool
	// Pages is the number of pages of this budget that hold the whole
	// response, starting from the beginning; 0 when some unit alone does
	// not fit the budget.
	Pages int
}

// ErrBinaryCodec is matched (errors.Is) by the error of Page for a codec
// whose encoding is bytes rather than text.
var ErrBinaryCodec = errors.New("fit: binary codecs have no token count")

// Page returns the largest next page of r whose encoding in opts.Codec
// costs at most opts.Budget tokens: the units from opts.Cursor on, as many
// as fit. The whole response is the page when it fits; otherwise the next
// unit would not. r is only read.
func Page(r *wire.GraphResponse, opts Options) (*Result, error) {
	// Cheap checks first: the budget and the cursor's text, then the
	// codec and counter names, then the cursor against the response
	// (its fingerprint, its unit index), and only then any encoding or
	// counting.
	if opts.Budget <= 0 {
		return nil, fmt.Errorf("fit: budget %d: must be a positive number of tokens", opts.Budget)
	}
	var cur cursorText
	if opts.Cursor != "" {
		var err error
		if cur, err = parseCursor(opts.Cursor); err != nil {
			return nil, err
		}
	}
	s, err := setup(r, opts.Registry, opts.Codec, opts.Counter)
	if err != nil {
		return nil, err
	}
	from := 0
	if opts.Cursor != "" {
		fp := fingerprintOf(r)
		if err := cur.matchFingerprint(fp); err != nil {
			return nil, err
		}
		s.fp = &fp
		// Every unit holds a node, an edge or a row, so an index past
		// their number is refused without planning the units.
		if _, err := cur.index(max(1, len(r.Nodes)+len(r.Edges)+len(r.Rows))); err != nil {
			return nil, err
		}
		s.plan = newPlan(r)
		if from, err = cur.index(s.plan.units); err != nil {
			return nil, err
		}
	}
	f, err := s.prepare()
	if err != nil {
		return nil, err
	}
	return f.result(opts.Budget, from, opts.JSONBaseline)
}

// setting is what prepare needs, resolved and checked before any work
// proportional to the response.
type setting struct {
	r       *wire.GraphResponse
	codec   wire.Codec
	name    string
	counter tokens.Counter
	plan    *plan        // nil until needed
	fp      *fingerprint // nil until needed
}

// setup checks the response, the codec and the counter names.
func setup(r *wire.GraphResponse, reg *wire.Registry, codecName, counterName string) (*setting, error) {
	if r == nil {
		return nil, errors.New("fit: nil response")
	}
	s, err := resolve(reg, codecName, counterName)
	if err != nil {
		return nil, err
	}
	s.r = r
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

// fitter holds what every page of one response, codec and counter shares.
type fitter struct {
	r       *wire.GraphResponse
	codec   wire.Codec
	name    string
	counter tokens.Counter
	plan    *plan
	fp      fingerprint
	pr      *pricer
	// wholeTokens is the whole's count; ratio its tokens per byte, for
	// segments never counted.
	wholeTokens int
	ratio       float64
	// prefix[u] is the estimated cost of units [0, u) beyond a page's
	// fixed part.
	prefix []float64
	// scale turns estimates into tokens: the whole's count over its
	// estimate.
	scale float64
	// pageSize remembers, per first unit, the size of the page found for
	// one budget, so that counting the pages reuses the page asked for.
	pageSize   map[int]int
	sizeBudget int
	// exactOnly is set when a page's exact count disagreed with its
	// segment price: from then on every page is counted whole.
	exactOnly bool
}

// prepare prices r in the named codec and counter: the whole response, and
// an estimate of each unit.
func prepare(r *wire.GraphResponse, reg *wire.Registry, codecName, counterName string) (*fitter, error) {
	s, err := setup(r, reg, codecName, counterName)
	if err != nil {
		return nil, err
	}
	return s.prepare()
}

func (s *setting) prepare() (*fitter, error) {
	r, codec, counter := s.r, s.codec, s.counter
	if s.plan == nil {
		s.plan = newPlan(r)
	}
	if s.fp == nil {
		fp := fingerprintOf(r)
		s.fp = &fp
	}
	whole, err := codec.AppendEncode(nil, r)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	pr, err := newPricer(counter)
	if err != nil {
		return nil, err
	}
	f := &fitter{r: r, codec: codec, name: s.name, counter: counter, plan: s.plan, fp: *s.fp, pr: pr}
	if f.wholeTokens, err = f.pr.learn(whole); err != nil {
		return nil, err
	}
	f.ratio = 0.25
	if len(whole) > 0 && f.wholeTokens > 0 {
		f.ratio = float64(f.wholeTokens) / float64(len(whole))
	}
	if err := f.estimateUnits(); err != nil {
		return nil, err
	}
	return f, nil
}

// estimateUnits prices each unit alone, from the segments of the whole
// the unit's own encoding shares, without counting anything new.
func (f *fitter) estimateUnits() error {
	n := f.plan.units
	f.prefix = make([]float64, n+1)
	empty, err := f.codec.AppendEncode(nil, f.plan.page(0, 0, nil))
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	base := f.pr.estimate(empty, f.ratio)
	var buf []byte
	for u := 0; u < n; u++ {
		buf, err = f.codec.AppendEncode(buf[:0], f.plan.page(u, u+1, nil))
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		f.prefix[u+1] = f.prefix[u] + max(f.pr.estimate(buf, f.ratio)-base, 0)
	}
	emptyTokens, err := f.pr.price(empty)
	if err != nil {
		return err
	}
	f.scale = 1
	if f.prefix[n] > 0 && f.wholeTokens > emptyTokens {
		f.scale = float64(f.wholeTokens-emptyTokens) / f.prefix[n]
	}
	return nil
}

// pagination is the pagination of the page of units [from, to): schema
// v5 on every page, with a cursor while units follow; the last page says
// what the response's own pagination says (its has_more, and its cursor,
// which fetches what lies beyond the response). A schema v2 total_rows is
// not carried: v5 has no such field, and a page mixing the two schemas is
// refused by every codec.
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
}

// search finds the largest k such that units [from, from+k) cost at most
// budget, trusting segment prices (or exact counts once exactOnly is set).
type search struct {
	f      *fitter
	from   int
	budget int
	probes map[int]probe
}

func (s *search) price(k int) (probe, error) {
	if p, ok := s.probes[k]; ok {
		return p, nil
	}
	pg := s.f.plan.page(s.from, s.from+k, s.f.pagination(s.from, s.from+k))
	enc, err := s.f.codec.AppendEncode(nil, pg)
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
// (estimate of units [a, k)), anchored at the last exact probe a, proposes
// the next candidate, so that the probes close in on the answer from both
// sides in a few steps; a bisection between the closest probes that fit
// and do not fit ends the search.
func (s *search) run() (int, error) {
	f := s.f
	n := f.plan.units - s.from
	p0, err := s.price(0)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		if p0.tokens > s.budget {
			return 0, f.budgetError(s.budget, p0.tokens)
		}
		return 0, nil
	}
	lo, hi := 0, n+1 // units [0, lo) fit (lo > 0), [0, hi) do not (hi <= n)
	anchor, anchorT := 0, p0.tokens
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

// next returns the page from unit from: its size in units and its probe,
// verified by counting its bytes whole.
func (f *fitter) next(from, budget int, verify bool) (int, probe, error) {
	if f.sizeBudget != budget || f.pageSize == nil {
		f.pageSize, f.sizeBudget = map[int]int{}, budget
	}
	if k, ok := f.pageSize[from]; ok && !verify {
		return k, probe{}, nil
	}
	for {
		s := &search{f: f, from: from, budget: budget, probes: map[int]probe{}}
		k, err := s.run()
		if err != nil {
			return 0, probe{}, err
		}
		p := s.probes[k]
		f.pageSize[from] = k
		if !verify {
			return k, p, nil
		}
		exact, err := f.pr.exact(p.enc)
		if err != nil {
			return 0, probe{}, err
		}
		if exact == p.tokens {
			return k, p, nil
		}
		if f.exactOnly { // cannot happen: an exact price is the count
			return 0, probe{}, fmt.Errorf("fit: %s counts the same text as %d and %d tokens", f.counter.Name(), p.tokens, exact)
		}
		f.exactOnly = true
	}
}

// result is the page of budget from unit from (a checked cursor's index).
func (f *fitter) result(budget, from int, jsonBaseline bool) (*Result, error) {
	k, p, err := f.next(from, budget, true)
	if err != nil {
		return nil, err
	}
	pages, err := f.pages(budget)
	if err != nil {
		return nil, err
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
		Pages:       pages,
	}
	if jsonBaseline {
		if st.WholeJSONTokens, err = f.jsonTokens(); err != nil {
			return nil, err
		}
	}
	if st.WholeJSONTokens > 0 && f.wholeTokens > 0 {
		st.Ratio = float64(st.WholeJSONTokens) / float64(f.wholeTokens)
	}
	return &Result{Page: pl.page(from, to, f.pagination(from, to)), Encoding: p.enc, Stats: st}, nil
}

// jsonTokens counts the whole response as compact canonical JSON; 0 when
// JSON cannot carry it.
func (f *fitter) jsonTokens() (int, error) {
	if f.name == "json" {
		return f.wholeTokens, nil
	}
	b, err := wire.AppendJSON(nil, f.r)
	if err != nil {
		var ee *wire.EncodeError
		if errors.As(err, &ee) {
			return 0, nil
		}
		return 0, err
	}
	return f.pr.exact(b) // counted once: nothing else shares its segments
}

// pages walks the response page by page from the start and returns how
// many pages of budget hold it. Pages are priced by their segments (exact
// by the segment property; the page returned to the caller is counted
// whole).
func (f *fitter) pages(budget int) (int, error) {
	n := 0
	for from := 0; ; {
		k, _, err := f.next(from, budget, false)
		var be *BudgetError
		if errors.As(err, &be) {
			return 0, nil // a later unit alone does not fit
		}
		if err != nil {
			return 0, err
		}
		n++
		from += k
		if from >= f.plan.units {
			return n, nil
		}
	}
}
