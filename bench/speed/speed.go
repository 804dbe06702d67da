package speed

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	_ "github.com/graphwire/graphwire/codecs" // every built-in codec
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// The two operations measured.
const (
	Encode = "encode"
	Decode = "decode"
)

// DefaultBudget is the default time spent measuring one operation of one
// codec on one case. With it, every codec over the whole corpus takes
// about two minutes on two cores.
const DefaultBudget = 150 * time.Millisecond

// Options tune Run. The zero value is usable.
type Options struct {
	// Budget is the time spent on one measurement (default DefaultBudget).
	// A measurement runs at least one iteration whatever the budget.
	Budget time.Duration
	// Codecs restricts the codecs measured (names or aliases); empty means
	// every registered codec. The JSON library rows (the reference among
	// them) are always measured.
	Codecs []string
	// Registry is where Codecs are looked up (default
	// wire.DefaultRegistry()).
	Registry *wire.Registry
	// Rounds is how many times each operation is measured (default 1):
	// every row of a case once, then every row again, and so on, each
	// operation reported by its fastest round, so that a burst of other
	// load or a badly placed collection in one round does not decide a
	// ratio between two rows.
	Rounds int
	// Progress, when not nil, is called before each measurement.
	Progress func(done, total int, what string)
}

// Measurement is one codec's timing of one operation on one case.
type Measurement struct {
	Codec string `json:"codec"`
	Case  string `json:"case"`
	Op    string `json:"op"` // encode or decode
	// Bytes is the size of the codec's encoding of the case: the output of
	// encode, the input of decode.
	Bytes int `json:"bytes"`
	// CanonicalBytes is the size of the case's canonical JSON, the one
	// yardstick of MBPerSec for every row.
	CanonicalBytes int     `json:"canonical_bytes"`
	Iterations     int     `json:"iterations"`
	NsPerOp        float64 `json:"ns_per_op"`
	// MBPerSec is CanonicalBytes ÷ time per op, in 10^6 bytes per second:
	// the same work measured with the same yardstick in every row, whatever
	// the size of the row's own encoding.
	MBPerSec    float64 `json:"mb_per_s"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	BytesPerOp  float64 `json:"alloc_bytes_per_op"`
	// Speedup is the reference's ns/op (encoding/json on typed structs) for
	// the same case and operation divided by this one's: above 1 is faster.
	Speedup float64 `json:"speedup_vs_encoding_json"`
	// VsSonic is bytedance/sonic's ns/op for the same case and operation
	// divided by this one's: this row's MB/s ÷ sonic's MB/s on the same
	// case (1 for sonic; 0 when sonic was not measured on the case).
	VsSonic float64 `json:"ratio_vs_sonic"`
}

// Report is the result of Run.
type Report struct {
	GoVersion    string        `json:"go_version"`
	GOOS         string        `json:"goos"`
	GOARCH       string        `json:"goarch"`
	CPUs         int           `json:"cpus"`
	Budget       time.Duration `json:"budget_ns"`
	Rounds       int           `json:"rounds"` // each measurement the fastest of as many
	Measurements []Measurement `json:"measurements"`
	// Medians summarises Measurements per row, in the order rows were
	// measured: the table's last part (see Median).
	Medians []Median `json:"medians"`
	// Failures lists the decodes that could not be measured because the
	// codec's decoder rejects its own encoder's output; the run goes on
	// without them, and the table lists them.
	Failures []Failure `json:"failures,omitempty"`
}

// Failure is an operation Run could not measure, and why.
type Failure struct {
	Codec string `json:"codec"`
	Case  string `json:"case"`
	Op    string `json:"op"`
	Err   string `json:"error"`
}

type subject struct {
	name   string
	encode func() ([]byte, error)
	decode func([]byte) error
}

// Run measures encode and decode of every case with the JSON libraries
// (the reference first) and every selected codec, one case at a time, in
// case then row order.
func Run(cases []corpus.Case, opts Options) (*Report, error) {
	if len(cases) == 0 {
		return nil, ErrNoCases
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	reg := opts.Registry
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	codecs, err := selectCodecs(reg, opts.Codecs)
	if err != nil {
		return nil, err
	}
	rep := &Report{
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		CPUs: runtime.GOMAXPROCS(0), Budget: opts.Budget, Rounds: max(opts.Rounds, 1),
	}
	rounds := rep.Rounds
	total := len(cases) * (len(codecs) + len(jsonLibs)) * 2 * rounds
	done := 0
	for _, c := range cases {
		subjects, canonical, err := subjectsFor(c, codecs)
		if err != nil {
			return nil, err
		}
		texts := make([][]byte, len(subjects))
		for si, s := range subjects {
			if texts[si], err = s.encode(); err != nil {
				return nil, fmt.Errorf("speed: %s: %s: encode: %w", c.ID(), s.name, err)
			}
		}
		best := make([][2]*Measurement, len(subjects)) // each operation's fastest round
		failed := make([][2]bool, len(subjects))
		for range rounds {
			for si, s := range subjects {
				for oi, op := range []string{Encode, Decode} {
					if opts.Progress != nil {
						opts.Progress(done, total, c.ID()+" "+s.name+" "+op)
					}
					done++
					if failed[si][oi] {
						continue
					}
					fn := func() error { _, err := s.encode(); return err }
					if op == Decode {
						fn = func() error { return s.decode(texts[si]) }
					}
					m, err := measure(fn, opts.Budget)
					if err != nil && op == Decode && si >= len(jsonLibs) {
						failed[si][oi] = true
						rep.Failures = append(rep.Failures, Failure{Codec: s.name, Case: c.ID(), Op: op, Err: err.Error()})
						continue
					}
					if err != nil {
						return nil, fmt.Errorf("speed: %s: %s: %s: %w", c.ID(), s.name, op, err)
					}
					if b := best[si][oi]; b == nil || m.NsPerOp < b.NsPerOp {
						best[si][oi] = &m
					}
				}
			}
		}
		var refNs [2]float64
		for si, s := range subjects {
			for oi, op := range []string{Encode, Decode} {
				m := best[si][oi]
				if m == nil {
					continue
				}
				m.Codec, m.Case, m.Op, m.Bytes, m.CanonicalBytes = s.name, c.ID(), op, len(texts[si]), canonical
				if m.NsPerOp > 0 {
					m.MBPerSec = float64(canonical) / m.NsPerOp * 1e3
				}
				if si == 0 {
					refNs[oi] = m.NsPerOp
				}
				if m.NsPerOp > 0 {
					m.Speedup = refNs[oi] / m.NsPerOp
				}
				rep.Measurements = append(rep.Measurements, *m)
			}
		}
	}
	rep.fillVsSonic()
	rep.Medians = rep.medians()
	return rep, nil
}

func selectCodecs(reg *wire.Registry, names []string) ([]wire.Codec, error) {
	if len(names) == 0 {
		for _, info := range reg.List() {
			names = append(names, info.Name)
		}
	}
	var out []wire.Codec
	seen := map[string]bool{}
	for _, n := range names {
		c, err := reg.Lookup(n)
		if err != nil {
			return nil, fmt.Errorf("speed: %w", err)
		}
		if name := c.Info().Name; !seen[name] {
			seen[name] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// subjectsFor returns the JSON libraries (the reference first) and then
// each codec, bound to case c, and the size of c's canonical JSON.
func subjectsFor(c corpus.Case, codecs []wire.Codec) ([]subject, int, error) {
	canonical, err := cjson.Encode(c.Response)
	if err != nil {
		return nil, 0, fmt.Errorf("speed: %s: %w", c.ID(), err)
	}
	var out []subject
	for _, lib := range jsonLibs {
		s, err := lib.subject(canonical)
		if err != nil {
			return nil, 0, fmt.Errorf("speed: %s: %w", c.ID(), err)
		}
		out = append(out, s)
	}
	r := c.Response
	for _, codec := range codecs {
		out = append(out, subject{
			name:   codec.Info().Name,
			encode: func() ([]byte, error) { return codec.AppendEncode(nil, r) },
			decode: func(data []byte) error { _, err := codec.Decode(data); return err },
		})
	}
	return out, len(canonical), nil
}

// maxIterations bounds one round, as testing.B does.
const maxIterations = 1_000_000_000

// measure runs fn in rounds of growing length until a round lasts at least
// budget, like testing.B, and reports the last round.
func measure(fn func() error, budget time.Duration) (Measurement, error) {
	if err := fn(); err != nil { // warm up, and fail fast
		return Measurement{}, err
	}
	runtime.GC()
	n := 1
	for {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		for i := 0; i < n; i++ {
			if err := fn(); err != nil {
				return Measurement{}, err
			}
		}
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		if elapsed >= budget || n >= maxIterations {
			return Measurement{
				Iterations:  n,
				NsPerOp:     float64(elapsed.Nanoseconds()) / float64(n),
				AllocsPerOp: float64(after.Mallocs-before.Mallocs) / float64(n),
				BytesPerOp:  float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
			}, nil
		}
		n = nextN(n, elapsed, budget)
	}
}

// nextN predicts the iterations for the next round: enough to fill the
// budget with 20% to spare, growing at most 100-fold and at least by one.
func nextN(n int, elapsed, budget time.Duration) int {
	var next int
	if ns := elapsed.Nanoseconds(); ns <= 0 {
		next = n * 100
	} else {
		next = int(float64(budget.Nanoseconds()) * 1.2 * float64(n) / float64(ns))
	}
	next = min(next, n*100, maxIterations)
	return max(next, n+1)
}

// ErrNoCases is Run's error when it is given no case.
var ErrNoCases = errors.New("speed: no cases to measure")
