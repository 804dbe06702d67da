package wirecodec

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/internal/textwire"
)

// TestLengthsMatchTheRules: the meter's lengths are those of what the
// rules write: intLen strconv's decimal, jsonQuotedLen textwire.JSON's
// quoted string (invalid UTF-8 as U+FFFD, control characters \u00XX).
func TestLengthsMatchTheRules(t *testing.T) {
	ints := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -9, -10, -100, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1e18, 1e18 - 1}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		ints = append(ints, rng.Int64(), -rng.Int64N(1<<uint(rng.IntN(62)+1)), rng.Int64N(1<<uint(rng.IntN(62)+1)))
	}
	for _, v := range ints {
		if got, want := intLen(v), int64(len(strconv.FormatInt(v, 10))); got != want {
			t.Fatalf("intLen(%d) = %d, want %d", v, got, want)
		}
	}
	alphabet := []string{"a", "b", "é", "\u2028", "😀", "\"", "\\", "\n", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x82", "\xf0\x9f", " ", "~", "abcdefgh"}
	strs := []string{"", "a", "abcdefgh", "abcdefghi\"", "a\x7fb", "\x00", "abcdefg\\", "abcdefghijklmnopqrst\x1f", "\xff", "aaaaaaaa\xff", "\u2028xxxxxxx"}
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		strs = append(strs, b.String())
	}
	for _, s := range strs {
		want := textwire.JSON.AppendQuoted(nil, s)
		if got := jsonQuotedLen(s); got != int64(len(want)) {
			t.Fatalf("jsonQuotedLen(%q) = %d, want %d", s, got, len(want))
		}
	}
}
