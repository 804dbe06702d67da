package wiretest

import (
	"math/rand/v2"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// SniffSuite is the format-detection suite of one codec (wirecodec.Sniffer).
type SniffSuite struct {
	Sniffer wirecodec.Sniffer
	Cases   []SniffCase
	// Encoders write the codec's own encodings: each of FixedResponses
	// must score at least 0.9 from its first From bytes on.
	Encoders []wire.Codec
	From     int
}

// SniffCase is an opening and the confidence Sniff must give it.
type SniffCase struct {
	Name  string
	Input string
	Want  float64
}

// RunSniff runs s, each part as a subtest of t; 10,000 random inputs must
// also score under 0.5.
func RunSniff(t *testing.T, s SniffSuite) {
	t.Helper()
	t.Run("Cases", func(t *testing.T) {
		for _, tc := range s.Cases {
			t.Run(tc.Name, func(t *testing.T) {
				if got := s.Sniffer.Sniff([]byte(tc.Input)); got != tc.Want {
					t.Errorf("Sniff(%q) = %v, want %v", tc.Input, got, tc.Want)
				}
			})
		}
	})
	t.Run("OwnEncodings", func(t *testing.T) {
		n := 0
		for ci, c := range s.Encoders {
			for i, r := range FixedResponses() {
				b, err := c.AppendEncode(nil, r)
				if err != nil {
					continue // a response the codec refuses
				}
				n++
				for k := s.From; k <= min(len(b), wirecodec.SniffLen); k++ {
					if got := s.Sniffer.Sniff(b[:k]); got < 0.9 {
						t.Fatalf("encoder %d, response %d cut after %d bytes (%q): Sniff = %v, want at least 0.9", ci, i, k, b[:k], got)
					}
				}
			}
		}
		if n == 0 {
			t.Fatal("no response encoded")
		}
	})
	t.Run("RandomBytes", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range 10000 {
			b := make([]byte, 1+rng.IntN(wirecodec.SniffLen))
			for j := range b {
				b[j] = byte(rng.Uint32())
			}
			if got := s.Sniffer.Sniff(b); got >= 0.5 {
				t.Fatalf("input %d (% x ...): Sniff = %v", i, b[:min(len(b), 8)], got)
			}
		}
	})
}
