package json

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// TestFastPathsMatchTheRules: the writer's fast paths give exactly what
// the rules they stand for give: appendJSONQuoted textwire.JSON's quoted
// string, textwire.AppendInt strconv's decimal, and the decoder reads each
// string back as it was (invalid UTF-8 as U+FFFD).
func TestFastPathsMatchTheRules(t *testing.T) {
	ints := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -9, -10, -100, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1e18, 1e18 - 1}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		ints = append(ints, rng.Int64(), -rng.Int64N(1<<uint(rng.IntN(62)+1)), rng.Int64N(1<<uint(rng.IntN(62)+1)))
	}
	for _, v := range ints {
		want := strconv.FormatInt(v, 10)
		if got := string(textwire.AppendInt([]byte("x"), v)); got != "x"+want {
			t.Fatalf("textwire.AppendInt(%d) = %s, want x%s", v, got, want)
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
		want := textwire.JSON.AppendQuoted([]byte("x"), s)
		if got := appendJSONQuoted([]byte("x"), s); string(got) != string(want) {
			t.Fatalf("appendJSONQuoted(%q) = %s, want %s", s, got, want)
		}
		d := decoder{Scanner: jsonvalue.NewScanner(want[1:]), l: wire.DefaultLimits()}
		got, err := d.str("s", d.l.MaxStringBytes)
		if wantText := eachInvalidByteReplaced(s); err != nil || got != wantText || d.Pos != len(want)-1 {
			t.Fatalf("str(%s) = %q, %v at %d; want %q", want[1:], got, err, d.Pos, wantText)
		}
	}
}

// eachInvalidByteReplaced is s with each byte that is not part of valid
// UTF-8 replaced by U+FFFD.
func eachInvalidByteReplaced(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
