package gcfvalue_test

import (
	"strconv"
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"pgregory.net/rapid"
)

// TestSmallIntMatchesParseInt: SmallInt reads a token of 1 to 18 digits
// without a leading zero as strconv does, eight digits at a time or one by
// one, and no other token.
func TestSmallIntMatchesParseInt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tok := rapid.StringMatching(`[0-9]{0,20}`).Draw(t, "digits")
		if len(tok) > 0 && rapid.Bool().Draw(t, "spoilt") {
			i := rapid.IntRange(0, len(tok)-1).Draw(t, "at")
			tok = tok[:i] + rapid.SampledFrom([]string{"-", "+", ".", "a", " ", ":", "/", "\xb5"}).Draw(t, "with") + tok[i+1:]
		}
		v, ok := gcfvalue.SmallInt(tok)
		want, err := strconv.ParseInt(tok, 10, 64)
		small := err == nil && len(tok) <= 18 && tok[0] >= '0' && tok[0] <= '9' && (tok[0] != '0' || len(tok) == 1)
		if ok != small || ok && v != want {
			t.Fatalf("SmallInt(%q) = %d, %v; want %d, %v", tok, v, ok, want, small)
		}
	})
}
