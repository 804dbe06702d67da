package scorecard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unicode/utf8"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// counterNames are the token counters of the scorecard, in column order: the
// real tokenizers o200k and cl100k, then the estimates chars and words.
var counterNames = tokens.Names()

// Fidelity says how much of a response survives a format's round trip.
type Fidelity int

const (
	// NotChecked: the format is not read back.
	NotChecked Fidelity = iota
	// Exact: decode(encode(r)) equals r under wire.Exact.
	Exact
	// ByValue: equal only under wire.NumbersByValue.
	ByValue
	// Lossy: something differs.
	Lossy
	// Unreadable: the format's decoder rejects its own encoder's output.
	// The scorecard shows it rather than failing, so that the other
	// measurements of the case stay visible.
	Unreadable
)

func (f Fidelity) String() string {
	switch f {
	case Exact:
		return "exact"
	case ByValue:
		return "numbers by value"
	case Lossy:
		return "lossy"
	case Unreadable:
		return "does not read back"
	}
	return "not checked"
}

// Result is one format's measurement of one case.
type Result struct {
	Bytes int
	// Tokens holds the counts in the order of counterNames; zero for a binary
	// format.
	Tokens    []int
	RoundTrip Fidelity
	// Values is the token anatomy's value part: the o200k tokens of the
	// values as the format writes them, each counted alone (see the package
	// documentation). HasValues is false for a binary format and for a text
	// format whose way of writing values the anatomy does not know.
	Values    int
	HasValues bool
	// Survival is what of the case survives the round trip of a lossy
	// text format, nil for the others.
	Survival *Survival
	// Budgets is the token-budget survey of a registered text codec: one
	// entry per budget of BudgetSizes, in that order; nil for the other
	// formats.
	Budgets []Budget
}

// BudgetSizes are the o200k budgets of the token-budget section: 2K, 8K
// and 32K.
var BudgetSizes = []int{2000, 8000, 32000}

// Budget is what a format's first page of one budget delivers of a case
// (package fit cuts the pages).
type Budget struct {
	// Tokens is the budget, in o200k tokens.
	Tokens int
	// Items is the case's nodes + edges + rows; FirstPage how many of them
	// the first page holds, 0 when not even the first unit fits.
	Items, FirstPage int
	// FirstPageTokens is the first page's o200k count (at most Tokens).
	FirstPageTokens int
	// Pages is the number of pages of the budget that hold the whole case;
	// 0 when some unit alone does not fit the budget.
	Pages int
}

// Share is the percentage of the case's items the first page delivers;
// NaN for a case with no items.
func (b Budget) Share() float64 { return share(b.FirstPage, b.Items) }

// Structure is the anatomy's other part: the o200k total minus Values.
func (r Result) Structure() int { return r.Tokens[0] - r.Values }

// Case is one corpus case's row set.
type Case struct {
	Profile string
	Name    string
	Summary string
	// Nodes is the response's node count, or its row count for an
	// aggregation: the size the charts plot tokens against.
	Nodes int
	// Results is parallel to Card.Formats.
	Results []Result
}

// Card is a computed scorecard.
type Card struct {
	Formats []Format
	Cases   []Case
	// Sessions and ADRSessions are the session section's figures, for the
	// generated corpus only (see sessionSection).
	Sessions    []SessionRow
	ADRSessions []ADRSessionRow
	// Spread is the spread section's figures, for the generated corpus
	// only: each profile's median savings on every seed (BuildCorpus
	// measures them; Build does not).
	Spread []SpreadRow
	// Omitted names the cases left out because not every profile has
	// them (see Generate).
	Omitted []string
	// Stdlib is the provenance of the real-data profile, corpus.Stdlib,
	// when the card has it (BuildWithStdlib); nil otherwise.
	Stdlib *StdlibInfo
}

// Text is one text a scorecard counts: a case in one text format.
type Text struct {
	Case, Format string
	Data         []byte
}

// Texts returns every text the scorecard of cases counts tokens of: each
// case in each text format, in case then format order. The differential
// tokenizer test feeds the same texts to an independent implementation.
func Texts(cases []corpus.Case) ([]Text, error) {
	var out []Text
	formats := Formats()
	for _, c := range cases {
		canonical, err := cjson.Encode(c.Response)
		if err != nil {
			return nil, fmt.Errorf("scorecard: %s: %w", c.ID(), err)
		}
		for _, f := range formats {
			if !f.Text {
				continue
			}
			b, err := f.encode(c.Response, canonical)
			if err != nil {
				return nil, fmt.Errorf("scorecard: %s: %s: %w", c.ID(), f.Name, err)
			}
			out = append(out, Text{Case: c.ID(), Format: f.Name, Data: b})
			if f.decode == nil {
				continue
			}
			// A lossy format's read-back, as JSON: the equal-information
			// baseline (Survival.JSON).
			if back, err := f.decode(b); err == nil && fidelity(c.Response, canonical, back) == Lossy {
				j, err := cjson.Encode(back)
				if err != nil {
					return nil, fmt.Errorf("scorecard: %s: %s read back: %w", c.ID(), f.Name, err)
				}
				out = append(out, Text{Case: c.ID(), Format: f.Name + " read back as json", Data: j})
			}
		}
	}
	return out, nil
}

// Build measures every case in every format. It works on all CPUs; the
// result does not depend on how many there are.
func Build(cases []corpus.Case) (*Card, error) {
	card := &Card{Formats: Formats(), Cases: make([]Case, len(cases))}
	if len(card.Formats) == 0 || card.Formats[0].Name != Baseline {
		return nil, fmt.Errorf("scorecard: the %s codec is not registered", Baseline)
	}
	type job struct{ c, f int }
	var jobs []job
	canon := make([][]byte, len(cases))
	for i, c := range cases {
		b, err := cjson.Encode(c.Response)
		if err != nil {
			return nil, fmt.Errorf("scorecard: %s: %w", c.ID(), err)
		}
		canon[i] = b
		n := len(c.Response.Nodes)
		if c.Response.QueryType == wire.Aggregation {
			n = len(c.Response.Rows)
		}
		card.Cases[i] = Case{Profile: c.Profile, Name: c.Name, Summary: corpus.Summary(c.Response), Nodes: n, Results: make([]Result, len(card.Formats))}
		for j := range card.Formats {
			jobs = append(jobs, job{i, j})
		}
	}
	err := parallel(len(jobs), func(k int) error {
		j := jobs[k]
		res, err := measureCached(card.Formats[j.f], cases[j.c].Response, canon[j.c])
		if err != nil {
			return fmt.Errorf("scorecard: %s: %s: %w", cases[j.c].ID(), card.Formats[j.f].Name, err)
		}
		card.Cases[j.c].Results[j.f] = res
		return nil
	})
	if err != nil {
		return nil, err
	}
	if card.generated() {
		if card.Sessions, card.ADRSessions, err = buildSessions(cases); err != nil {
			return nil, err
		}
	}
	return card, nil
}

// parallel calls fn(k) for every k below n on all CPUs, and returns the
// error of the least k that failed.
func parallel(n int, fn func(k int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				errs[k] = fn(k)
			}
		}()
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// measureCache memoizes measurements by format and the SHA-256 of the
// case's canonical JSON, which determines the response exactly (canonical
// JSON is lossless), so that rebuilding after a change to one case
// measures only that case.
var measureCache sync.Map // measureKey → Result

type measureKey struct {
	format string
	sum    [32]byte
}

func measureCached(f Format, r *wire.GraphResponse, canonical []byte) (Result, error) {
	key := measureKey{f.Name, sha256.Sum256(canonical)}
	if v, ok := measureCache.Load(key); ok {
		return v.(Result), nil
	}
	res, err := measure(f, r, canonical)
	if err != nil {
		return Result{}, err
	}
	measureCache.Store(key, res)
	return res, nil
}

func measure(f Format, r *wire.GraphResponse, canonical []byte) (Result, error) {
	out, err := f.encode(r, canonical)
	if err != nil {
		return Result{}, err
	}
	res := Result{Bytes: len(out), Tokens: make([]int, len(counterNames))}
	if f.Text {
		if !utf8.Valid(out) {
			return Result{}, fmt.Errorf("output of a text format is not valid UTF-8")
		}
		counts, err := countAll(out)
		if err != nil {
			return Result{}, err
		}
		copy(res.Tokens, counts)
		if f.values != nil {
			texts, err := f.values(r)
			if err != nil {
				return Result{}, fmt.Errorf("values: %w", err)
			}
			if res.Values, err = countValues(texts); err != nil {
				return Result{}, err
			}
			res.HasValues = true
		}
	}
	if f.budgets {
		if res.Budgets, err = survey(f.Name, r); err != nil {
			return Result{}, fmt.Errorf("token budgets: %w", err)
		}
	}
	if f.decode != nil {
		if back, err := f.decode(out); err != nil {
			res.RoundTrip = Unreadable
		} else if res.RoundTrip = fidelity(r, canonical, back); res.RoundTrip == Lossy && f.Text {
			if res.Survival, err = survive(r, back); err != nil {
				return Result{}, fmt.Errorf("read back: %w", err)
			}
		}
	}
	return res, nil
}

// survey pages r with the registered codec at each of BudgetSizes, in
// o200k tokens: the first page and the number of pages. One fit.Pager
// prices r once for all budgets.
func survey(codec string, r *wire.GraphResponse) ([]Budget, error) {
	ctx := context.Background()
	p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: codec, Counter: tokens.O200k, WholeStats: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", codec, err)
	}
	out := make([]Budget, len(BudgetSizes))
	for i, b := range BudgetSizes {
		out[i] = Budget{Tokens: b, Items: len(r.Nodes) + len(r.Edges) + len(r.Rows)}
		res, err := p.Page(ctx, b, "")
		var be *fit.BudgetError
		switch {
		case errors.As(err, &be): // not even the first unit fits: no page
		case err != nil:
			return nil, fmt.Errorf("%s at %d tokens: %w", codec, b, err)
		default:
			st := res.Stats
			out[i].FirstPage = st.Nodes.Kept + st.Edges.Kept + st.Rows.Kept
			out[i].FirstPageTokens, out[i].Pages = st.PageTokens, st.Pages
		}
	}
	return out, nil
}

// countCache memoizes counts by the SHA-256 of the text, so that
// rebuilding a scorecard after a change recounts only what changed.
var countCache sync.Map // [32]byte → []int

func countAll(text []byte) ([]int, error) {
	key := sha256.Sum256(text)
	if v, ok := countCache.Load(key); ok {
		return v.([]int), nil
	}
	counts := make([]int, len(counterNames))
	for i, name := range counterNames {
		c, err := tokens.Get(name)
		if err != nil {
			return nil, err
		}
		n, err := c.Count(text)
		if err != nil {
			return nil, err
		}
		counts[i] = n
	}
	countCache.Store(key, counts)
	return counts, nil
}

// fidelity classifies a round trip: back, read from the format, against
// the original r whose canonical JSON is canonical.
//
// Canonical JSON is a function of the response that is exact (kinds, float
// bits, absent against empty) and injective on valid UTF-8, so equal bytes
// mean equal under wire.Exact, and different bytes mean not. Only when they
// differ but the two responses have the same shape is wire.Equal asked
// whether numbers by value make them equal; go-cmp on two responses that
// differ in shape would spend its time aligning slices for a diff nobody
// reads.
func fidelity(r *wire.GraphResponse, canonical []byte, back *wire.GraphResponse) Fidelity {
	if b, err := cjson.Encode(back); err == nil && bytes.Equal(b, canonical) && validStrings(back) {
		return Exact
	}
	if sameShape(r, back) && wire.Equal(r, back, wire.NumbersByValue) {
		return ByValue
	}
	return Lossy
}

// sameShape reports whether a and b agree on everything but values: query
// metadata, which optional parts are present, every length, node types,
// ids and property keys, edge endpoints.
func sameShape(a, b *wire.GraphResponse) bool {
	if a.FormatVersion != b.FormatVersion || a.QueryType != b.QueryType ||
		len(a.Nodes) != len(b.Nodes) || len(a.Edges) != len(b.Edges) ||
		len(a.Columns) != len(b.Columns) || (a.Columns == nil) != (b.Columns == nil) ||
		len(a.GroupColumns) != len(b.GroupColumns) || (a.GroupColumns == nil) != (b.GroupColumns == nil) ||
		len(a.Rows) != len(b.Rows) || (a.Rows == nil) != (b.Rows == nil) ||
		(a.Pagination == nil) != (b.Pagination == nil) {
		return false
	}
	for i := range a.Nodes {
		if !sameNodeShape(&a.Nodes[i], &b.Nodes[i]) {
			return false
		}
	}
	for i := range a.Edges {
		x, y := a.Edges[i], b.Edges[i]
		if x.From != y.From || x.FromID != y.FromID || x.To != y.To || x.ToID != y.ToID || x.Type != y.Type {
			return false
		}
	}
	for i := range a.Rows {
		if len(a.Rows[i]) != len(b.Rows[i]) {
			return false
		}
		for j := range a.Rows[i] {
			x, y := a.Rows[i][j], b.Rows[i][j]
			if x.Name != y.Name || (x.Node == nil) != (y.Node == nil) || x.Node != nil && !sameNodeShape(x.Node, y.Node) {
				return false
			}
		}
	}
	return true
}

func sameNodeShape(a, b *wire.Node) bool {
	if a.Type != b.Type || a.ID != b.ID || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i].Key != b.Properties[i].Key {
			return false
		}
	}
	return true
}

// validStrings reports whether every string of r is valid UTF-8 (where
// canonical JSON is injective).
func validStrings(r *wire.GraphResponse) bool {
	ok := utf8.ValidString(r.FormatVersion)
	node := func(n *wire.Node) {
		ok = ok && utf8.ValidString(n.Type)
		for _, p := range n.Properties {
			ok = ok && utf8.ValidString(p.Key) && validValue(p.Value)
		}
	}
	for i := range r.Nodes {
		node(&r.Nodes[i])
	}
	for _, e := range r.Edges {
		ok = ok && utf8.ValidString(e.From) && utf8.ValidString(e.To) && utf8.ValidString(e.Type)
	}
	for _, c := range r.Columns {
		ok = ok && utf8.ValidString(c.Name) && utf8.ValidString(c.Function) && utf8.ValidString(c.Target.V) && utf8.ValidString(c.Property.V)
	}
	for _, g := range r.GroupColumns {
		ok = ok && utf8.ValidString(g.Name) && utf8.ValidString(string(g.Kind)) && utf8.ValidString(g.Node) &&
			utf8.ValidString(g.Property.V) && utf8.ValidString(g.Entity.V)
	}
	for _, row := range r.Rows {
		for _, c := range row {
			ok = ok && utf8.ValidString(c.Name) && validValue(c.Value)
			if c.Node != nil {
				node(c.Node)
			}
		}
	}
	return ok
}

func validValue(v wire.Value) bool {
	switch v.Kind() {
	case wire.KindString:
		return utf8.ValidString(v.Text())
	case wire.KindList:
		for _, e := range v.List() {
			if !validValue(e) {
				return false
			}
		}
	}
	return true
}
