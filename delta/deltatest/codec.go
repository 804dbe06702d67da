package deltatest

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// CodecSuite describes a codec for RunCodec.
type CodecSuite struct {
	Codec wire.Codec

	// Options shape the generated responses.
	Options wiretest.Options
}

// RunCodec checks a codec's delta syntax: on generated pairs and on every
// corpus case with 1%, 5% and 20% of its nodes changed, the delta written
// and read back patches the base into next exactly and writes the same
// bytes again (every codec carries every delta; a lossy one may refuse a
// generated delta it would not carry exactly, and sends the whole); every
// truncation and many one-byte alterations of a delta are an error (from DecodeDelta or from Patch), never a wrong response.
func RunCodec(t *testing.T, s CodecSuite) {
	t.Run("generated", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			p := PairGenWith(s.Options).Draw(rt, "pair")
			base, next, ok := s.normalize(p[0], p[1])
			if !ok {
				rt.Skip("the codec cannot carry the response")
			}
			if s.roundTrip(rt, "generated pair", base, next) == nil {
				rt.Skip("the lossy codec does not carry this delta exactly; it sends the whole")
			}
		})
	})
	t.Run("corpus", func(t *testing.T) {
		cases := testsupport.CorpusUnderRace(corpus.Generate())
		if testing.Short() {
			cases = cases[:min(len(cases), 12)]
		}
		carried, all := 0, 0
		ratios := map[int][]float64{}
		for _, c := range cases {
			for _, pct := range []int{1, 5, 20} {
				base, next, ok := s.normalize(c.Response, ChangeRate(c.Response, pct))
				if !ok {
					t.Fatalf("%s: the codec cannot carry the corpus case", c.ID())
				}
				all++
				b := s.roundTrip(t, c.ID(), base, next)
				if b == nil {
					continue
				}
				carried++
				if full, err := s.Codec.AppendEncode(nil, next); err == nil && len(full) > 0 {
					ratios[pct] = append(ratios[pct], float64(len(b))/float64(len(full)))
				}
			}
		}
		t.Logf("%d of %d corpus re-queries (1%%, 5%%, 20%% changed) carried as deltas", carried, all)
		for _, pct := range []int{1, 5, 20} {
			if rs := ratios[pct]; len(rs) > 0 {
				slices.Sort(rs)
				t.Logf("%2d%% changed: delta / full response in bytes, median %.1f%% (min %.1f%%, max %.1f%%) over %d cases",
					pct, 100*rs[len(rs)/2], 100*rs[0], 100*rs[len(rs)-1], len(rs))
			}
		}
		if carried != all {
			t.Fatalf("%d of %d corpus re-queries carried: every delta must be", carried, all)
		}
	})
	t.Run("damaged", func(t *testing.T) {
		for i, p := range []([2]*wire.GraphResponse){PairGen().Example(3), PairGen().Example(11), PairGen().Example(17)} {
			base, next, ok := s.normalize(p[0], p[1])
			if !ok {
				continue
			}
			if b := s.roundTrip(t, "example", base, next); b != nil {
				s.damaged(t, i, base, next, b)
			}
		}
		for _, c := range corpus.Generate() {
			base, next, ok := s.normalize(c.Response, ChangeRate(c.Response, 20))
			if !ok {
				t.Fatalf("%s: the codec cannot carry the corpus case", c.ID())
			}
			if b := s.roundTrip(t, "corpus", base, next); b != nil {
				s.damaged(t, 99, base, next, b)
				return
			}
		}
		t.Fatal("no corpus re-query carried")
	})
}

// normalize gives base and next as the codec's reader holds them
// (delta.Held); false: the codec cannot carry one of them.
func (s *CodecSuite) normalize(base, next *wire.GraphResponse) (*wire.GraphResponse, *wire.GraphResponse, bool) {
	b, err := delta.Held(s.Codec, base)
	if err != nil {
		return nil, nil, false
	}
	n, err := delta.Held(s.Codec, next)
	return b, n, err == nil
}

// roundTrip writes Diff(base, next), reads it back, patches base with it
// and returns the bytes written: nil when a lossy codec refuses a
// generated delta it would not carry exactly (it then sends the whole
// response); every other delta must be carried.
func (s *CodecSuite) roundTrip(t rapid.TB, name string, base, next *wire.GraphResponse) []byte {
	t.Helper()
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatalf("%s: Diff: %v", name, err)
	}
	b, err := delta.AppendDelta(s.Codec, nil, d)
	var ee *wire.EncodeError
	if s.Codec.Info().Fidelity == wire.Lossy && name == "generated pair" && errors.As(err, &ee) {
		// GOON numbers a path's steps by their order: an edge added to a
		// path alone reads back as its first step.
		return nil
	}
	if err != nil {
		t.Fatalf("%s: AppendDelta: %v", name, err)
	}
	d2, err := delta.DecodeDelta(s.Codec, b)
	if err != nil {
		t.Fatalf("%s: DecodeDelta: %v\n%s", name, err, excerpt(b))
	}
	got, err := delta.Patch(base, d2)
	if err != nil {
		t.Fatalf("%s: Patch with the decoded delta: %v\n%s", name, err, excerpt(b))
	}
	if !wire.Equal(next, got, wire.Exact) {
		t.Fatalf("%s: patched (-want +got):\n%s", name, wiretest.Diff(next, got, wire.Exact))
	}
	again, err := delta.AppendDelta(s.Codec, nil, d2)
	if err != nil {
		t.Fatalf("%s: AppendDelta of the decoded delta: %v", name, err)
	}
	if !bytes.Equal(b, again) {
		t.Fatalf("%s: the decoded delta writes other bytes:\n%s\nthen\n%s", name, excerpt(b), excerpt(again))
	}
	return b
}

// damaged checks that every truncation of b, and b with one byte
// altered at many places, is an error or patches base into next exactly
// (an alteration the syntax ignores), never into anything else.
func (s *CodecSuite) damaged(t *testing.T, id int, base, next *wire.GraphResponse, b []byte) {
	t.Helper()
	check := func(what string, bad []byte) {
		d, err := delta.DecodeDelta(s.Codec, bad)
		if err != nil {
			return
		}
		got, err := delta.Patch(base, d)
		if err != nil {
			return
		}
		if !wire.Equal(next, got, wire.Exact) {
			t.Fatalf("pair %d, %s: a damaged delta patched into another response (-want +got):\n%s",
				id, what, wiretest.Diff(next, got, wire.Exact))
		}
	}
	step := max(1, len(b)/400)
	for i := 0; i < len(b); i += step {
		check("truncated", b[:i])
		for _, c := range []byte{'0', '9', 'x', ' ', '\n', '"', ':', 0xff} {
			if b[i] == c {
				continue
			}
			bad := bytes.Clone(b)
			bad[i] = c
			check("altered", bad)
		}
	}
}

func excerpt(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}
