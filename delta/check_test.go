package delta_test

import (
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/delta"
)

// TestCheckText: a Check is written as the 128-bit number it holds in 39
// decimal digits, zero-padded, and read back exactly; any other text is
// ErrCheckSyntax.
func TestCheckText(t *testing.T) {
	var max delta.Check
	for i := range max {
		max[i] = 0xff
	}
	one := delta.Check{15: 1}
	for _, tc := range []struct {
		c    delta.Check
		want string
	}{
		{delta.Check{}, strings.Repeat("0", 39)},
		{one, strings.Repeat("0", 38) + "1"},
		{max, "340282366920938463463374607431768211455"},
		{delta.Check{7: 1}, "000000000000000000018446744073709551616"}, // 2^64
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%x: %s, want %s", tc.c, got, tc.want)
		}
		back, err := delta.ParseCheck(tc.want)
		if err != nil || back != tc.c {
			t.Errorf("ParseCheck(%s) = %x, %v; want %x", tc.want, back, err, tc.c)
		}
	}
	for i := 0; i < 1000; i++ {
		var c delta.Check
		rand.Read(c[:])
		s := c.String()
		back, err := delta.ParseCheck(s)
		if len(s) != delta.CheckDigits || err != nil {
			t.Fatalf("%x: %q, %v", c, s, err)
		}
		if diff := cmp.Diff(c, back); diff != "" {
			t.Fatalf("%s reads back (-want +got):\n%s", s, diff)
		}
	}
	for _, bad := range []string{
		"", "2", strings.Repeat("0", 38), strings.Repeat("0", 40),
		"340282366920938463463374607431768211456", // 2^128
		"999999999999999999999999999999999999999",
		"12345678901234567890123456789012345678x", "+23456789012345678901234567890123456789",
		"-23456789012345678901234567890123456789", "Q2vSr5XzwfoyGzmXMiKTtw",
	} {
		if c, err := delta.ParseCheck(bad); !errors.Is(err, delta.ErrCheckSyntax) || c != (delta.Check{}) {
			t.Errorf("ParseCheck(%q) = %x, %v; want ErrCheckSyntax", bad, c, err)
		}
	}
}
