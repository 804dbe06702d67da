package testsupport

import (
	"testing"

	"github.com/graphwire/graphwire/tokens"
)

// Tokens returns the tokens that the counter named counter (tokens.O200k,
// tokens.Cl100k, …) counts in text; an unknown name or a failed count
// fails t.
func Tokens(t testing.TB, counter string, text []byte) int {
	t.Helper()
	c, err := tokens.Get(counter)
	n := 0
	if err == nil {
		n, err = c.Count(text)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}
