package deltatest

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// CodecSuite describes a codec's delta syntax for RunCodec.
type CodecSuite struct {
	Codec delta.Codec

	// Normalize, when set, gives the response as the codec's reader holds
	// it (for a lossy codec, Decode(Encode(r))); RunCodec diffs the
	// normalized base and next, since a client patches what it read. An
	// error skips the response (the codec cannot carry it).
	Normalize func(*wire.GraphResponse) (*wire.GraphResponse, error)

	// Options shape the generated responses.
	Options wiretest.Options

	// SniffResponse is the codec's wire.Sniffer, SniffDelta its delta
	// sniffer: a delta must score below 0.5 on the first and at least 0.9
	// on the second, a response the reverse.
	SniffResponse func([]byte) float64
	SniffDelta    func([]byte) float64
	// Encode writes a response, for the sniffing checks.
	Encode func(*wire.GraphResponse) ([]byte, error)

	// Partial says the syntax expresses only some deltas: an
	// *wire.EncodeError from AppendDelta skips the pair, and RunCodec
	// requires only that some pairs, and some corpus re-queries, are
	// carried (it logs how many).
	Partial bool
}

// RunCodec checks a codec's delta syntax: on generated pairs and on every
// corpus case with 1%, 5% and 20% of its nodes changed, the delta written
// and read back patches the base into next exactly and writes the same
// bytes again; every truncation and many one-byte alterations of a delta
// are an error (from DecodeDelta or from Patch), never a wrong response;
// Sniff tells a delta from a response.
func RunCodec(t *testing.T, s CodecSuite) {
	t.Run("generated", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			p := PairGenWith(s.Options).Draw(rt, "pair")
			base, next, ok := s.normalize(p[0], p[1])
			if !ok {
				rt.Skip("the codec cannot carry the response")
			}
			if s.roundTrip(rt, "generated pair", base, next) == nil {
				rt.Skip("the codec's delta syntax cannot express the delta")
			}
		})
	})
	t.Run("corpus", func(t *testing.T) {
		cases := corpus.Generate()
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
				if full, err := s.Encode(next); err == nil && len(full) > 0 {
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
		if carried == 0 {
			t.Fatal("no corpus re-query carried")
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
	t.Run("sniff", func(t *testing.T) {
		sniffed := 0
		for _, c := range corpus.Generate() {
			if sniffed == 8 {
				break
			}
			base, next, ok := s.normalize(c.Response, ChangeRate(c.Response, 5))
			if !ok {
				t.Fatalf("%s: the codec cannot carry the corpus case", c.ID())
			}
			for _, n := range []*wire.GraphResponse{next, base} {
				d, err := delta.Diff(base, n)
				if err != nil {
					t.Fatal(err)
				}
				b, err := s.Codec.AppendDelta(nil, d)
				var ee *wire.EncodeError
				if s.Partial && errors.As(err, &ee) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				sniffed++
				r, err := s.Encode(n)
				if err != nil {
					t.Fatal(err)
				}
				prefix := b[:min(len(b), wire.SniffLen)]
				if got := s.SniffResponse(prefix); got >= 0.5 {
					t.Errorf("%s: the response sniffer rates a delta %.2f:\n%.80q", c.ID(), got, prefix)
				}
				if got := s.SniffDelta(prefix); got < 0.9 {
					t.Errorf("%s: the delta sniffer rates a delta %.2f:\n%.80q", c.ID(), got, prefix)
				}
				rp := r[:min(len(r), wire.SniffLen)]
				if got := s.SniffDelta(rp); got != 0 {
					t.Errorf("%s: the delta sniffer rates a response %.2f", c.ID(), got)
				}
				if got := s.SniffResponse(rp); got < 0.9 {
					t.Errorf("%s: the response sniffer rates a response %.2f", c.ID(), got)
				}
			}
		}
	})
}

func (s *CodecSuite) normalize(base, next *wire.GraphResponse) (*wire.GraphResponse, *wire.GraphResponse, bool) {
	if s.Normalize == nil {
		return base, next, true
	}
	b, err := s.Normalize(base)
	if err != nil {
		return nil, nil, false
	}
	n, err := s.Normalize(next)
	if err != nil {
		return nil, nil, false
	}
	return b, n, true
}

// roundTrip writes Diff(base, next), reads it back, patches base with it
// and returns the bytes written: nil when a Partial syntax cannot express
// the delta.
func (s *CodecSuite) roundTrip(t rapid.TB, name string, base, next *wire.GraphResponse) []byte {
	t.Helper()
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatalf("%s: Diff: %v", name, err)
	}
	b, err := s.Codec.AppendDelta(nil, d)
	var ee *wire.EncodeError
	if s.Partial && errors.As(err, &ee) {
		return nil
	}
	if err != nil {
		t.Fatalf("%s: AppendDelta: %v", name, err)
	}
	d2, err := s.Codec.DecodeDelta(b)
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
	again, err := s.Codec.AppendDelta(nil, d2)
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
		d, err := s.Codec.DecodeDelta(bad)
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
