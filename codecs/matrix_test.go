package codecs_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

var matrixN = flag.Int("matrix.n", defaultMatrixN(), "generated responses per codec pair in TestMatrix (env MATRIX_N sets the default)")

// defaultMatrixN is MATRIX_N, or 500 responses per pair; 100 under the
// race detector, which slows every trip severalfold and has, beyond the
// first hundred, only more of the same single-goroutine work to watch
// (.ci/run runs TestMatrix again without -race, at 500).
func defaultMatrixN() int {
	n := 500
	if raceEnabled {
		n = 100
	}
	if s := os.Getenv("MATRIX_N"); s != "" {
		if v, err := strconv.Atoi(s); err == nil && v > 0 {
			return v
		}
		fmt.Fprintf(os.Stderr, "MATRIX_N=%q is not a positive integer; using %d\n", s, n)
	}
	return n
}

// keep is what a json → A → B → json trip must preserve.
type keep struct {
	// eq is the equality the final response must have with the first
	// (the response JSON decoded to), when fixed is "".
	eq wire.Fidelity
	// fixed names a lossy codec whose encoding the trip must preserve:
	// fixed(final) == fixed(first), byte for byte. GOON drops and rewrites
	// by design (truncation, nulls, datetimes, digit strings), so what
	// survives a trip through it is its own rendering (SPEC §5).
	fixed string
	// via, with fixed, names a codec that loses what the fixed one keeps:
	// GOON keeps -0.0 apart from 0 and 2.0 apart from 2, TOON does not
	// (numbers by value). The expected rendering is then fixed's encoding
	// of the first response passed through A and B directly (no JSON in
	// between), so the trip must lose nothing beyond what A and B lose.
	via string
}

var (
	exact   = keep{eq: wire.Exact}
	byValue = keep{eq: wire.NumbersByValue} // TOON and GCF have one number type (SPEC §6)
	goonFP  = keep{fixed: "goon"}
	// goonFPByValue and goonFPByValueGCF are the weaker of goonFP and
	// byValue, through toon and through gcf.
	goonFPByValue    = keep{fixed: "goon", via: "toon"}
	goonFPByValueGCF = keep{fixed: "goon", via: "gcf"}
)

// pair is one entry of the matrix: what the trip keeps, and whether the
// generated responses may have awkward names (any UTF-8 in entity types,
// edge types, property keys and column names). Responses never hold NaN or
// ±Inf: the trip starts and ends in JSON, which cannot carry them. Pairs
// with goon use identifier names, which GOON's line format requires.
type pair struct {
	keep    keep
	awkward bool
	// noGT keeps '>' out of property and cell names: GCF cannot make
	// such a name a table column, so the member travels after its row's
	// others and reads back after them (codecs/gcf's Fidelity; its
	// TestAwkwardNames checks those names apart from the order).
	noGT bool
}

// matrix is the expected fidelity of every ordered pair (A, B) of built-in
// codecs: the weaker of A's and B's. Written out, not inferred; a
// registered pair missing here fails TestTablesCoverRegistry.
var matrix = map[[2]string]pair{
	{"json", "json"}:    {exact, true, false},
	{"json", "goon"}:    {goonFP, false, false},
	{"json", "toon"}:    {byValue, true, false},
	{"json", "gcf"}:     {byValue, true, true},
	{"json", "msgpack"}: {exact, true, false},
	{"json", "cbor"}:    {exact, true, false},

	{"goon", "json"}:    {goonFP, false, false},
	{"goon", "goon"}:    {goonFP, false, false},
	{"goon", "toon"}:    {goonFPByValue, false, false},
	{"goon", "gcf"}:     {goonFPByValueGCF, false, false},
	{"goon", "msgpack"}: {goonFP, false, false},
	{"goon", "cbor"}:    {goonFP, false, false},

	{"toon", "json"}:    {byValue, true, false},
	{"toon", "goon"}:    {goonFPByValue, false, false},
	{"toon", "toon"}:    {byValue, true, false},
	{"toon", "gcf"}:     {byValue, true, true},
	{"toon", "msgpack"}: {byValue, true, false},
	{"toon", "cbor"}:    {byValue, true, false},

	{"gcf", "json"}:    {byValue, true, true},
	{"gcf", "goon"}:    {goonFPByValueGCF, false, false},
	{"gcf", "toon"}:    {byValue, true, true},
	{"gcf", "gcf"}:     {byValue, true, true},
	{"gcf", "msgpack"}: {byValue, true, true},
	{"gcf", "cbor"}:    {byValue, true, true},

	{"msgpack", "json"}:    {exact, true, false},
	{"msgpack", "goon"}:    {goonFP, false, false},
	{"msgpack", "toon"}:    {byValue, true, false},
	{"msgpack", "gcf"}:     {byValue, true, true},
	{"msgpack", "msgpack"}: {exact, true, false},
	{"msgpack", "cbor"}:    {exact, true, false},

	{"cbor", "json"}:    {exact, true, false},
	{"cbor", "goon"}:    {goonFP, false, false},
	{"cbor", "toon"}:    {byValue, true, false},
	{"cbor", "gcf"}:     {byValue, true, true},
	{"cbor", "msgpack"}: {exact, true, false},
	{"cbor", "cbor"}:    {exact, true, false},
}

// TestMatrix checks, for every ordered pair (A, B) of registered codecs and
// -matrix.n generated responses r (500 by default, 100 under the race
// detector; MATRIX_N=100000 or
// -matrix.n=100000 for a long local run), that
//
//	json → A → B → json
//
// keeps what the matrix table says. A failure is shrunk by rapid to the
// smallest response and prints the seed that reproduces it.
func TestMatrix(t *testing.T) {
	js, err := wire.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	names := registered()
	for _, a := range names {
		for _, b := range names {
			p, ok := matrix[[2]string{a, b}]
			if !ok {
				continue // TestTablesCoverRegistry fails
			}
			ca, _ := wire.Lookup(a)
			cb, _ := wire.Lookup(b)
			t.Run(a+"→"+b, func(t *testing.T) {
				t.Parallel()
				var fixed wire.Codec
				if p.keep.fixed != "" {
					c, err := wire.Lookup(p.keep.fixed)
					if err != nil {
						t.Fatal(err)
					}
					fixed = c
				}
				gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: p.awkward})
				if p.noGT {
					gen = gen.Filter(func(r *wire.GraphResponse) bool { return !wiretest.NameContains(r, ">") })
				}
				per := wiretest.PerCase(*matrixN)
				var count atomic.Int64
				rapid.Check(t, func(rt *rapid.T) {
					for i := 0; i < per; i++ {
						r := gen.Draw(rt, "response")
						count.Add(1)
						if err := trip(js, ca, cb, fixed, p.keep, r); err != nil {
							rt.Fatalf("json → %s → %s → json: %v\nresponse:\n%s", a, b, err, wiretest.Describe(r))
						}
					}
				})
				if n := count.Load(); n < int64(*matrixN) {
					t.Errorf("checked %d responses, want at least %d", n, *matrixN)
				} else {
					t.Logf("%s→%s: %d responses, keeps %s", a, b, n, p.keep)
				}
			})
		}
	}
}

func (k keep) String() string {
	if k.fixed != "" && k.via != "" {
		return k.fixed + " encoding byte for byte, numbers by value (" + k.via + ")"
	}
	if k.fixed != "" {
		return k.fixed + " encoding byte for byte"
	}
	if k.eq == wire.NumbersByValue {
		return "the response, numbers by value"
	}
	return "the response exactly"
}

// trip runs json → a → b → json on r and checks that it keeps k.
func trip(js, a, b, fixed wire.Codec, k keep, r *wire.GraphResponse) error {
	j0, err := js.AppendEncode(nil, r)
	if err != nil {
		return fmt.Errorf("json encode: %v", err)
	}
	first, err := js.Decode(j0)
	if err != nil {
		return fmt.Errorf("json decode: %v", err)
	}
	ea, err := a.AppendEncode(nil, first)
	if err != nil {
		return fmt.Errorf("%s encode: %v", a.Info().Name, err)
	}
	ra, err := a.Decode(ea)
	if err != nil {
		return fmt.Errorf("%s decode: %v\n%s input: %s", a.Info().Name, err, a.Info().Name, wiretest.Quote(ea))
	}
	eb, err := b.AppendEncode(nil, ra)
	if err != nil {
		return fmt.Errorf("%s encode: %v\n%s response:\n%s", b.Info().Name, err, a.Info().Name, wiretest.Describe(ra))
	}
	rb, err := b.Decode(eb)
	if err != nil {
		return fmt.Errorf("%s decode: %v\n%s input: %s", b.Info().Name, err, b.Info().Name, wiretest.Quote(eb))
	}
	j1, err := js.AppendEncode(nil, rb)
	if err != nil {
		return fmt.Errorf("json encode of the %s response: %v\nresponse:\n%s", b.Info().Name, err, wiretest.Describe(rb))
	}
	final, err := js.Decode(j1)
	if err != nil {
		return fmt.Errorf("json decode of its own encoding: %v\ninput: %s", err, wiretest.Quote(j1))
	}
	if fixed != nil {
		if k.via != "" {
			// The expected rendering: first after each codec of the trip in
			// turn (decode of encode), so that the numbers TOON merges
			// and the lists GOON turns into text are merged and turned
			// in the same order as on the trip.
			for _, c := range []wire.Codec{a, b} {
				e, err := c.AppendEncode(nil, first)
				if err != nil {
					return fmt.Errorf("%s encode: %v", c.Info().Name, err)
				}
				if first, err = c.Decode(e); err != nil {
					return fmt.Errorf("%s decode of its own encoding: %v", c.Info().Name, err)
				}
			}
		}
		want, err := fixed.AppendEncode(nil, first)
		if err != nil {
			return fmt.Errorf("%s encode of the first response: %v", fixed.Info().Name, err)
		}
		got, err := fixed.AppendEncode(nil, final)
		if err != nil {
			return fmt.Errorf("%s encode of the final response: %v", fixed.Info().Name, err)
		}
		if !bytes.Equal(want, got) {
			return fmt.Errorf("%s encodings of the first and final responses differ %s", fixed.Info().Name, wiretest.ByteDiff(want, got))
		}
		return nil
	}
	if d := wiretest.Diff(first, final, k.eq); d != "" {
		return fmt.Errorf("first and final responses differ (-first +final):\n%s\njson: %s\nthen: %s", d, wiretest.Quote(j0), wiretest.Quote(j1))
	}
	if k.eq == wire.Exact && !bytes.Equal(j0, j1) {
		return fmt.Errorf("the json encodings differ %s", wiretest.ByteDiff(j0, j1))
	}
	return nil
}
