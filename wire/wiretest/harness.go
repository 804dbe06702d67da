package wiretest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
)

// The fidelities, as wire names them; for FixedPoint (wire.Lossy) the
// harness checks Kept and Encode(Decode(Encode(r))) == Encode(r).
const (
	Exact          = wire.Exact
	NumbersByValue = wire.NumbersByValue
	FixedPoint     = wire.Lossy
)

// Checks selects the harness's checks; the zero value means all of them.
type Checks uint

// The checks Run performs.
const (
	CheckRoundTrip   Checks = 1 << iota // the round trip under the declared fidelity
	CheckDeterminism                    // same bytes every time, from a copy, after Append
	CheckConcurrency                    // 8 goroutines give the sequential bytes
	CheckHostile                        // bad input ends in an error or a valid value, within bounds
	CheckRefusals                       // each shape the model refuses gives an *wire.EncodeError

	CheckAll = CheckRoundTrip | CheckDeterminism | CheckConcurrency | CheckHostile | CheckRefusals
)

// Goroutines is how many goroutines the concurrency check runs.
const Goroutines = 8

// Config is the full set of choices for a harness run.
type Config struct {
	Fidelity wire.Fidelity
	Gen      Options // shapes the generated responses
	N        int     // generated responses per check (default 500)
	Checks   Checks  // default: all
	// Responses are checked besides the generated ones, and hostile inputs
	// are made from them.
	Responses []*wire.GraphResponse
	Bounds    Bounds
	BigInput  int // size of the ClassBig inputs (default 64 MiB)
}

// positiveOr is v, or def when v is not positive: a setting's default.
func positiveOr[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

func (c Config) withDefaults() Config {
	c.N = positiveOr(c.N, 500)
	if c.Checks == 0 {
		c.Checks = CheckAll
	}
	c.BigInput = positiveOr(c.BigInput, 64<<20)
	c.Bounds = c.Bounds.withDefaults()
	return c
}

// Run runs the checks selected by c (see Checks) on the codec registered
// under name in the default registry, as subtests of t:
//
//	func TestConformance(t *testing.T) { wiretest.Config{Fidelity: wiretest.Exact}.Run(t, "mycodec") }
//
// The fidelity c declares must be the codec's Info().Fidelity.
func (c Config) Run(t *testing.T, name string) {
	t.Helper()
	codec, err := wire.Lookup(name)
	if err != nil {
		t.Fatalf("wiretest: %v", err)
	}
	c.RunCodec(t, codec)
}

// RunCodec runs the checks of Run on codec, registered or not.
func (c Config) RunCodec(t *testing.T, codec wire.Codec) {
	t.Helper()
	c.runCodec(testingT{t}, codec)
}

func (c Config) runCodec(t reporter, codec wire.Codec) {
	t.Helper()
	c = c.withDefaults()
	if got := codec.Info().Fidelity; got != c.Fidelity {
		t.Errorf("wiretest: the test declares fidelity %v, the codec's Info().Fidelity is %v", c.Fidelity, got)
	}
	for _, k := range []struct {
		check Checks
		name  string
		run   func(reporter, wire.Codec)
	}{
		{CheckRoundTrip, "roundtrip", func(t reporter, codec wire.Codec) {
			c.checkEach(t, func(r *wire.GraphResponse) error { return RoundTrip(codec, c.Fidelity, r) })
		}},
		{CheckDeterminism, "determinism", func(t reporter, codec wire.Codec) {
			c.checkEach(t, func(r *wire.GraphResponse) error { return Determinism(codec, r) })
		}},
		{CheckConcurrency, "concurrency", c.checkConcurrency},
		{CheckHostile, "hostile", c.checkHostile},
		{CheckRefusals, "refusals", c.checkRefusals},
	} {
		if c.Checks&k.check != 0 {
			t.run(k.name, func(t reporter) { k.run(t, codec) })
		}
	}
}

// reporter is a *testing.T, or the harness's own tests' recorder.
type reporter interface {
	rapid.TB
	run(name string, f func(reporter)) bool
}

type testingT struct{ *testing.T }

func (t testingT) run(name string, f func(reporter)) bool {
	t.Helper()
	return t.T.Run(name, func(t *testing.T) { f(testingT{t}) })
}

// PerCase returns how many values each rapid test case must draw so that a
// rapid.Check runs at least n of them, given -rapid.checks and -short.
func PerCase(n int) int {
	checks := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if i, ok := f.Value.(flag.Getter).Get().(int); ok && i > 0 {
			checks = i
		}
	}
	if testing.Testing() && testing.Short() {
		checks /= 5
	}
	checks = max(checks, 1)
	return (n + checks - 1) / checks
}

func (c Config) checkRefusals(t reporter, codec wire.Codec) {
	t.Helper()
	n := max(c.N/10, 20)
	for _, shape := range Refusals() {
		if shape.Limit() != "" {
			continue
		}
		o := c.Gen
		o.Refuse = shape
		gen := ResponseWith(o)
		for seed := range n {
			r := gen.Example(seed)
			if err := Refused(codec, r); err != nil {
				t.Errorf("%s, seed %d: %v\nresponse:\n%s", shape, seed, err, Describe(r))
				break
			}
		}
	}
}

// Refused checks that codec refuses r: AppendEncode returns an
// *wire.EncodeError and dst as given. A panic is returned as an error.
func Refused(codec wire.Codec, r *wire.GraphResponse) (err error) {
	defer recoverTo(&err)
	dst := []byte("dst")
	out, err := codec.AppendEncode(dst[:3:3], r)
	var ee *wire.EncodeError
	switch {
	case err == nil:
		return fmt.Errorf("encoded a response every decoder refuses (%d bytes)", len(out)-3)
	case !errors.As(err, &ee):
		return fmt.Errorf("error %v is not a *wire.EncodeError", err)
	case string(out) != "dst":
		return fmt.Errorf("wrote %q before the error %v", out, err)
	}
	return nil
}

// checkEach runs check on c.Responses and on c.N responses drawn by rapid.
func (c Config) checkEach(t reporter, check func(*wire.GraphResponse) error) {
	t.Helper()
	for i, r := range c.Responses {
		if err := check(r); err != nil {
			t.Errorf("Config.Responses[%d]: %v\nresponse:\n%s", i, err, Describe(r))
		}
	}
	gen := ResponseWith(c.Gen)
	per := PerCase(c.N)
	rapid.Check(t, func(rt *rapid.T) {
		for i := 0; i < per; i++ {
			r := gen.Draw(rt, "response")
			if err := check(r); err != nil {
				rt.Fatalf("%v\nresponse:\n%s", err, Describe(r))
			}
		}
	})
}

// RoundTrip checks one response: Encode does not modify r,
// Decode(Encode(r)) is r under f's equality (Kept, for FixedPoint), and
// Encode(Decode(Encode(r))) == Encode(r). A panic is returned as an error.
func RoundTrip(c wire.Codec, f wire.Fidelity, r *wire.GraphResponse) (err error) {
	defer recoverTo(&err)
	before := Clone(r)
	b1, got, err := encodeDecode(c, r)
	if err != nil {
		return err
	}
	if d := Diff(before, r, wire.Exact); d != "" {
		return fmt.Errorf("encode modified its input (-before +after):\n%s", d)
	}
	if f != FixedPoint {
		if d := Diff(r, got, f); d != "" {
			return fmt.Errorf("round trip under %v equality (-want +got):\n%s\nencoding: %s", f, d, Quote(b1))
		}
	} else if err := Kept(r, got); err != nil {
		return fmt.Errorf("lossy round trip: %v\nencoding: %s", err, Quote(b1))
	}
	return encodesAgain(c, got, b1)
}

// encodeDecode encodes r and decodes its encoding.
func encodeDecode(c wire.Codec, r *wire.GraphResponse) ([]byte, *wire.GraphResponse, error) {
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		return nil, nil, fmt.Errorf("encode: %v", err)
	}
	got, err := c.Decode(b)
	if err != nil {
		return nil, nil, fmt.Errorf("decode of its own encoding: %v\nencoding: %s", err, Quote(b))
	}
	if got == nil {
		return nil, nil, fmt.Errorf("decode returned a nil response and no error\nencoding: %s", Quote(b))
	}
	return b, got, nil
}

// encodesAgain checks that got, decoded from b1, encodes to b1 again.
func encodesAgain(c wire.Codec, got *wire.GraphResponse, b1 []byte) error {
	b2, err := c.AppendEncode(nil, got)
	if err != nil {
		return fmt.Errorf("encode of the decoded response: %v\nencoding: %s", err, Quote(b1))
	}
	if !bytes.Equal(b1, b2) {
		return fmt.Errorf("Encode(Decode(Encode(r))) differs from Encode(r) %s", ByteDiff(b1, b2))
	}
	return nil
}

// Determinism checks that r, a copy of it, and r after a non-empty dst
// encode to the same bytes, and that Decode does not retain its input.
func Determinism(c wire.Codec, r *wire.GraphResponse) (err error) {
	defer recoverTo(&err)
	b1, err := c.AppendEncode(nil, r)
	if err != nil {
		return fmt.Errorf("encode: %v", err)
	}
	for i, r := range []*wire.GraphResponse{r, Clone(r)} {
		what := [...]string{"two encodings of one response differ", "the encoding of a deep copy differs"}[i]
		if b, err := c.AppendEncode(nil, r); err != nil || !bytes.Equal(b1, b) {
			return fmt.Errorf("%s: error %v %s", what, err, ByteDiff(b1, b))
		}
	}
	prefix := []byte("prefix\x00\xff")
	b4, err := c.AppendEncode(append(make([]byte, 0, len(prefix)+3), prefix...), r)
	if err != nil || !bytes.Equal(b4, append(prefix, b1...)) {
		return fmt.Errorf("AppendEncode(dst, r) is not dst followed by Encode(r): error %v, got %s", err, Quote(b4))
	}
	// Decode must not retain its input: scribble over it and re-encode.
	in, got, err := encodeDecode(c, r)
	if err != nil {
		return err
	}
	want, err := c.AppendEncode(nil, got)
	if err != nil {
		return fmt.Errorf("encode of the decoded response: %v", err)
	}
	for i := range in {
		in[i] = 'X'
	}
	if err := encodesAgain(c, got, want); err != nil {
		return fmt.Errorf("after its input was overwritten (Decode retains its input): %v", err)
	}
	return nil
}

// concurrencyResponses returns the fixed responses, c.Responses, 64
// generated ones and two large ones.
func (c Config) concurrencyResponses() []*wire.GraphResponse {
	rs := append(FixedResponses(), c.Responses...)
	gen := ResponseWith(c.Gen)
	for seed := 1; seed <= 64; seed++ {
		rs = append(rs, gen.Example(seed))
	}
	big := c.Gen
	big.MaxNodes, big.MaxEdges, big.MaxRows = 2000, 2000, 500
	bigGen := ResponseWith(big)
	for seed := 1; seed <= 2; seed++ {
		rs = append(rs, bigGen.Example(seed))
	}
	return rs
}

// encodings returns the responses of rs that codec encodes and their
// encodings, and says why each other one is left out.
func encodings(codec wire.Codec, rs []*wire.GraphResponse) (kept []*wire.GraphResponse, encs [][]byte, skipped []string) {
	for i, r := range rs {
		b, err := encodeSafe(codec, r)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("response %d: %v", i, err))
			continue
		}
		kept, encs = append(kept, r), append(encs, b)
	}
	return kept, encs, skipped
}

func (c Config) checkConcurrency(t reporter, codec wire.Codec) {
	t.Helper()
	kept, encs, _ := encodings(codec, c.concurrencyResponses())
	if len(kept) == 0 {
		t.Fatalf("no response encodes; nothing to check")
		return
	}
	reencode := func(b []byte) ([]byte, error) {
		got, err := decodeSafe(codec, b)
		if err != nil {
			return nil, fmt.Errorf("decode of its own encoding: %v\nencoding: %s", err, Quote(b))
		}
		return encodeSafe(codec, got)
	}
	reenc := make([][]byte, len(kept))
	for i, b := range encs {
		var err error
		if reenc[i], err = reencode(b); err != nil {
			t.Fatalf("%v", err)
			return
		}
	}
	errs := ConcurrentRun(Goroutines, len(kept), func(i int) error {
		b, err := encodeSafe(codec, kept[i])
		if err != nil || !bytes.Equal(b, encs[i]) {
			return fmt.Errorf("response %d: concurrent encode (error %v) differs from the sequential one %s", i, err, ByteDiff(encs[i], b))
		}
		if b, err = reencode(encs[i]); err != nil {
			return fmt.Errorf("response %d: concurrent: %v", i, err)
		}
		if !bytes.Equal(b, reenc[i]) {
			return fmt.Errorf("response %d: concurrent decode then encode differs from the sequential one %s", i, ByteDiff(reenc[i], b))
		}
		return nil
	})
	for _, err := range errs {
		t.Error(err)
	}
}

// ConcurrentRun runs work(i) for every i in [0, n) on each of g goroutines
// at once, goroutine k starting at k*n/g, and returns at most 10 errors.
func ConcurrentRun(g, n int, work func(i int) error) []error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		gate = make(chan struct{})
	)
	for k := 0; k < g; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			<-gate
			for j := 0; j < n; j++ {
				i := (k*n/g + j) % n
				if err := work(i); err != nil {
					mu.Lock()
					if len(errs) < 10 {
						errs = append(errs, fmt.Errorf("goroutine %d: %w", k, err))
					}
					mu.Unlock()
				}
			}
		}(k)
	}
	close(gate)
	wg.Wait()
	return errs
}

func encodeSafe(c wire.Codec, r *wire.GraphResponse) (b []byte, err error) {
	defer recoverTo(&err)
	return c.AppendEncode(nil, r)
}

func decodeSafe(c wire.Codec, data []byte) (r *wire.GraphResponse, err error) {
	defer recoverTo(&err)
	return c.Decode(data)
}

// errPanic marks an error made from a recovered panic.
var errPanic = errors.New("panic")

func recoverTo(err *error) {
	if p := recover(); p != nil {
		buf := make([]byte, 8<<10)
		buf = buf[:runtime.Stack(buf, false)]
		*err = fmt.Errorf("%w: %v\n%s", errPanic, p, buf)
	}
}
