package toon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon"
)

// BenchmarkCorpusDecode decodes the lean benchmark corpus, one case at a
// time, in TOON.
func BenchmarkCorpusDecode(b *testing.B) {
	files, _ := filepath.Glob("../../bench/corpus/lean/*.json")
	if len(files) == 0 {
		b.Skip("no corpus")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		r, err := json.Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		data, err := toon.Encode(r)
		if err != nil {
			b.Fatal(err)
		}
		runBench(b, strings.TrimSuffix(filepath.Base(f), ".json"), len(data), func() error { _, err := toon.Decode(data); return err })
	}
}
