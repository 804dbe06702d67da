package fit_test

import (
	"os"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
)

const corpusDir = "../bench/corpus/text-heavy"

func loadCase(t testing.TB, path string) *wire.GraphResponse {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := wire.DecodeWith("json", data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
