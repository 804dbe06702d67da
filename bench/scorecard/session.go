package scorecard

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// SessionFormats are the text codecs the session section prices, in
// column order: each response whole, with session references and with
// deltas.
var SessionFormats = []string{"json", "gcf", "goon", "toon"}

// ADRSessionFormats are the codecs of the ADR session table.
var ADRSessionFormats = []string{"goon", "toon", "json"}

// Unavailable is the token count recorded for what a codec cannot write:
// references and deltas from a codec that writes no documents
// (delta.DocumentCodec).
const Unavailable = -1

// SessionResult is one simulated session priced in one codec, in o200k
// tokens.
type SessionResult struct {
	// Whole is every response of the session encoded alone; Referenced
	// the same responses encoded in one delta.Session, so a node
	// delivered before and unchanged since is a reference (Unavailable
	// without a session syntax).
	Whole, Referenced int
	// Requeries has one entry per corpus.RequeryRates.
	Requeries []Requery
}

// Requery is a session's queries asked again after the data changed,
// priced in one codec.
type Requery struct {
	// Whole is every re-query's response encoded alone. Delta is what the
	// agent receives when each re-query is answered with its delta
	// against the earlier response (delta.Diff, written by delta.EncodeWith)
	// when delta.Worth says it costs under 60% of the full response, and
	// with the full response otherwise; Deltas counts the re-queries
	// answered with a delta. Referenced is the re-queries encoded in the
	// session that delivered the first answers. Delta and Referenced are
	// Unavailable without the syntax.
	Whole, Delta, Referenced int
	Deltas, Queries          int
	// Refused counts the re-queries whose delta the codec's delta syntax
	// refused to write (answered with the full response).
	Refused int
	// BySize splits the re-queries by the size of the response asked
	// again, in SizeClasses.
	BySize [sizeClassCount]SizeFigures
}

// SizeFigures is a share of a session's re-queries, one size class of
// SizeClasses, priced in one codec: the re-queries' responses whole, what
// the agent receives with deltas (the 60% rule), and how many were sent
// as a delta. Zero without a delta syntax.
type SizeFigures struct {
	Whole, Sent     int
	Deltas, Queries int
}

// SizeClasses are the response sizes the re-queries are split by: the
// nodes of the response asked again (its rows, for an aggregation), up to
// and including Max.
var SizeClasses = [sizeClassCount]struct {
	Name string
	Max  int
}{
	{"small (≤ 10 nodes)", 10},
	{"medium (11–50)", 50},
	{"large (> 50)", math.MaxInt},
}

const sizeClassCount = 3

// sizeClass returns the index in SizeClasses of r's size.
func sizeClass(r *wire.GraphResponse) int {
	n := len(r.Nodes)
	if r.QueryType == wire.Aggregation {
		n = len(r.Rows)
	}
	for i, c := range SizeClasses {
		if n <= c.Max {
			return i
		}
	}
	return len(SizeClasses) - 1
}

// How a re-query is answered.
const (
	answeredWhole = iota
	answeredDelta
	deltaRefused // the codec's delta syntax refused the delta: whole
)

// SessionRow is one simulated session's results, parallel to
// SessionFormats.
type SessionRow struct {
	Profile, Name string
	Queries       int
	Results       []SessionResult
}

// ADRSessionRow is ADR 012's example as a 10-query session
// (corpus.ADRSession) in one profile and codec, in o200k tokens: the
// responses whole, with references, and with deltas on its re-queries.
type ADRSessionRow struct {
	Profile, Format               string
	Whole, Referenced, WithDeltas int
}

// sessions returns the generated sessions, once.
var sessions = sync.OnceValue(corpus.Sessions)

// sessionCache memoizes a session's results by session and codec: the
// sessions are a pure function of the seed.
var sessionCache sync.Map // [2]string{session ID, codec} → SessionResult

// buildSessions prices every generated session in every SessionFormats
// codec, and the ADR session of every ADRCase of cases, on all CPUs. The
// result does not depend on how many there are.
func buildSessions(cases []corpus.Case) ([]SessionRow, []ADRSessionRow, error) {
	ss := sessions()
	rows := make([]SessionRow, len(ss))
	type job struct{ s, f int }
	var jobs []job
	for i, s := range ss {
		rows[i] = SessionRow{Profile: s.Profile, Name: s.Name, Queries: len(s.Queries), Results: make([]SessionResult, len(SessionFormats))}
		for f := range SessionFormats {
			jobs = append(jobs, job{i, f})
		}
	}
	var adrCases []corpus.Case
	for _, c := range cases {
		if c.Name == corpus.ADRCase {
			adrCases = append(adrCases, c)
		}
	}
	adr := make([]ADRSessionRow, len(adrCases)*len(ADRSessionFormats))
	err := parallel(len(jobs)+len(adr), func(k int) error {
		if k < len(jobs) {
			j := jobs[k]
			s, f := ss[j.s], SessionFormats[j.f]
			res, err := priceSessionCached(s, f)
			if err != nil {
				return fmt.Errorf("scorecard: %s in %s: %w", s.ID(), f, err)
			}
			rows[j.s].Results[j.f] = res
			return nil
		}
		a := k - len(jobs)
		c, f := adrCases[a/len(ADRSessionFormats)], ADRSessionFormats[a%len(ADRSessionFormats)]
		row, err := priceADRSession(nil, c, f, nil)
		if err != nil {
			return fmt.Errorf("scorecard: the ADR session of %s in %s: %w", c.ID(), f, err)
		}
		adr[a] = row
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return rows, adr, nil
}

func priceSessionCached(s corpus.Session, format string) (SessionResult, error) {
	key := [2]string{s.ID(), format}
	if v, ok := sessionCache.Load(key); ok {
		return v.(SessionResult), nil
	}
	res, err := priceSession(nil, s, format, nil)
	if err == nil {
		sessionCache.Store(key, res)
	}
	return res, err
}

// recorder, when not nil, is given every text the session section counts
// (for the differential tokenizer test).
type recorder func(label, format string, text []byte)

// sessionPricer counts texts in o200k tokens and hands them to the recorder.
type sessionPricer struct {
	reg    *wire.Registry // nil: the default registry
	format string
	record recorder
}

func (p sessionPricer) registry() *wire.Registry {
	if p.reg == nil {
		return wire.DefaultRegistry()
	}
	return p.reg
}

// count returns the o200k count of text, recording it under label.
func (p sessionPricer) count(label string, text []byte) (int, error) {
	if p.record != nil {
		p.record(label, p.format, text)
	}
	return countO200k(text)
}

// whole encodes r in the codec and counts it.
func (p sessionPricer) whole(label string, r *wire.GraphResponse) (int, error) {
	b, err := p.registry().EncodeWith(p.format, r)
	if err != nil {
		return 0, err
	}
	return p.count(label, b)
}

// referenced encodes r in the writer's session s and counts it;
// Unavailable when the codec has no session syntax.
func (p sessionPricer) referenced(label string, s *delta.Session, r *wire.GraphResponse) (int, error) {
	b, _, err := s.Encode(p.reg, p.format, r)
	if errors.Is(err, delta.ErrNoSyntax) {
		return Unavailable, nil
	}
	if err != nil {
		return 0, err
	}
	return p.count(label+", with references", b)
}

// both prices r whole and with references in the writer's session s,
// adds each to its total, and returns the whole's count.
func (p sessionPricer) both(label string, s *delta.Session, r *wire.GraphResponse, whole, referenced *int) (int, error) {
	n, err := p.whole(label, r)
	if err != nil {
		return 0, err
	}
	*whole += n
	m, err := p.referenced(label, s, r)
	if err != nil {
		return 0, err
	}
	add(referenced, m)
	return n, nil
}

// carried returns r as a client of the codec holds it: r encoded and
// decoded again (a lossy codec's client holds what it read, not what the
// server had).
func (p sessionPricer) carried(r *wire.GraphResponse) (*wire.GraphResponse, error) {
	b, err := p.registry().EncodeWith(p.format, r)
	if err != nil {
		return nil, err
	}
	return p.registry().DecodeWith(p.format, b)
}

// delta returns what answering a client holding base costs when next is
// current: the delta when it is worth it (delta.Worth), the full response
// (of cost full) otherwise, and whether the delta was sent; Unavailable
// when the codec has no delta syntax. The delta is between the two
// responses as the codec carries them (carried), what its client holds
// and gets; one the codec's syntax still refuses (a *wire.EncodeError) is
// answered in full.
func (p sessionPricer) delta(label string, base, next *wire.GraphResponse, full int) (int, int, error) {
	base, err := p.carried(base)
	if err != nil {
		return 0, 0, err
	}
	if next, err = p.carried(next); err != nil {
		return 0, 0, err
	}
	d, err := delta.Diff(base, next)
	if err != nil {
		return 0, 0, err
	}
	b, err := delta.EncodeWith(p.reg, p.format, d)
	var ee *wire.EncodeError
	switch {
	case errors.Is(err, delta.ErrNoSyntax):
		return Unavailable, answeredWhole, nil
	case errors.As(err, &ee):
		return full, deltaRefused, nil
	case err != nil:
		return 0, 0, err
	}
	n, err := p.count(label+", delta", b)
	if err != nil {
		return 0, 0, err
	}
	if delta.Worth(n, full, delta.DefaultThreshold) {
		return n, answeredDelta, nil
	}
	return full, answeredWhole, nil
}

// add adds n to *sum, keeping Unavailable once any part is.
func add(sum *int, n int) {
	if *sum == Unavailable || n == Unavailable {
		*sum = Unavailable
		return
	}
	*sum += n
}

// newWriter returns a writer's session with the default limits.
func newWriter() *delta.Session {
	s, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		panic(err) // the default limits are valid
	}
	return s
}

// priceSession prices one session in one codec (see SessionResult).
func priceSession(reg *wire.Registry, s corpus.Session, format string, record recorder) (SessionResult, error) {
	p := sessionPricer{reg: reg, format: format, record: record}
	res := SessionResult{Requeries: make([]Requery, len(corpus.RequeryRates))}
	ws := newWriter()
	for qi, q := range s.Queries {
		label := fmt.Sprintf("%s query %d", s.ID(), qi)
		if _, err := p.both(label, ws, q.Response, &res.Whole, &res.Referenced); err != nil {
			return res, fmt.Errorf("query %d: %w", qi, err)
		}
	}
	for ri, pct := range corpus.RequeryRates {
		rq := &res.Requeries[ri]
		rq.Queries = len(s.Queries)
		// The session of the first answers, replayed, goes on with the
		// re-queries.
		rs := newWriter()
		for _, q := range s.Queries {
			if _, _, err := rs.Encode(reg, format, q.Response); err != nil && !errors.Is(err, delta.ErrNoSyntax) {
				return res, err
			}
		}
		for qi, q := range s.Queries {
			label := fmt.Sprintf("%s query %d re-queried after %d%% changed", s.ID(), qi, pct)
			next := q.Requeries[ri]
			full, err := p.whole(label, next)
			if err != nil {
				return res, fmt.Errorf("%s: %w", label, err)
			}
			rq.Whole += full
			n, how, err := p.delta(label, q.Response, next, full)
			if err != nil {
				return res, fmt.Errorf("%s: %w", label, err)
			}
			add(&rq.Delta, n)
			sz := &rq.BySize[sizeClass(q.Response)]
			if n != Unavailable {
				sz.Whole += full
				sz.Sent += n
				sz.Queries++
			}
			switch how {
			case answeredDelta:
				rq.Deltas++
				sz.Deltas++
			case deltaRefused:
				rq.Refused++
			}
			m, err := p.referenced(label, rs, next)
			if err != nil {
				return res, fmt.Errorf("%s: %w", label, err)
			}
			add(&rq.Referenced, m)
		}
	}
	return res, nil
}

// priceADRSession prices the ADR session of the ADRCase c in one codec.
func priceADRSession(reg *wire.Registry, c corpus.Case, format string, record recorder) (ADRSessionRow, error) {
	row := ADRSessionRow{Profile: c.Profile, Format: format}
	steps, err := corpus.ADRSession(c.Response)
	if err != nil {
		return row, err
	}
	p := sessionPricer{reg: reg, format: format, record: record}
	ws := newWriter()
	for i, st := range steps {
		label := fmt.Sprintf("%s ADR session step %d", c.ID(), i)
		full, err := p.both(label, ws, st.Response, &row.Whole, &row.Referenced)
		if err != nil {
			return row, fmt.Errorf("step %d: %w", i, err)
		}
		n := full
		if st.Of >= 0 {
			if n, _, err = p.delta(label, steps[st.Of].Response, st.Response, full); err != nil {
				return row, fmt.Errorf("step %d: %w", i, err)
			}
		}
		add(&row.WithDeltas, n)
	}
	return row, nil
}

// o200kCache memoizes o200k counts by the SHA-256 of the text.
var o200kCache sync.Map // [32]byte → int

func countO200k(text []byte) (int, error) {
	key := sha256.Sum256(text)
	if v, ok := o200kCache.Load(key); ok {
		return v.(int), nil
	}
	c, err := tokens.Get(tokens.O200k)
	if err != nil {
		return 0, err
	}
	n, err := c.Count(text)
	if err != nil {
		return 0, err
	}
	o200kCache.Store(key, n)
	return n, nil
}

// SessionTexts returns every text the session section of the generated
// corpus counts, the ADR sessions of the ADRCase cases among cases
// included: each response whole, with references, each delta, labelled.
// The differential tokenizer test feeds them to an independent
// implementation.
func SessionTexts(cases []corpus.Case) ([]Text, error) {
	var out []Text
	seen := map[[32]byte]bool{}
	record := func(label, format string, text []byte) {
		if k := sha256.Sum256(text); !seen[k] {
			seen[k] = true
			out = append(out, Text{Case: label, Format: format, Data: text})
		}
	}
	for _, s := range sessions() {
		for _, f := range SessionFormats {
			if _, err := priceSession(nil, s, f, record); err != nil {
				return nil, fmt.Errorf("scorecard: %s in %s: %w", s.ID(), f, err)
			}
		}
	}
	for _, c := range cases {
		if c.Name != corpus.ADRCase {
			continue
		}
		for _, f := range ADRSessionFormats {
			if _, err := priceADRSession(nil, c, f, record); err != nil {
				return nil, fmt.Errorf("scorecard: the ADR session of %s in %s: %w", c.ID(), f, err)
			}
		}
	}
	return out, nil
}
