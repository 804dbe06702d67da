package goon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	_ "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// referenceDir returns the directory of GKG's golden cases, from
// GOON_REFERENCE_DIR. Unset, the test is skipped, except in CI, where it
// fails; set to a missing directory, it fails.
func referenceDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GOON_REFERENCE_DIR")
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GOON_REFERENCE_DIR is not set; CI requires the GOON reference cases")
		}
		t.Skip("GOON_REFERENCE_DIR is not set")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("GOON_REFERENCE_DIR %q is not a directory (%v)", dir, err)
	}
	return dir
}

// TestReferenceCases: every NAME.json of GKG's golden cases encodes byte
// for byte to NAME.goon, and NAME.goon decodes to a response that encodes
// back to it.
func TestReferenceCases(t *testing.T) {
	dir := referenceDir(t)
	inputs, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no *.json cases in %s", dir)
	}
	t.Logf("%d reference cases in %s", len(inputs), dir)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(in, ".json") + ".goon")
			if err != nil {
				t.Fatal(err)
			}
			r, err := wire.DecodeWith("json", src)
			if err != nil {
				t.Fatalf("reading the input: %v", err)
			}
			got, err := wire.EncodeWith("llm", r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("encoding differs from GKG's (-gkg +ours):\n%s", diff)
			}
			d, err := goon.Decode(want)
			if err != nil {
				t.Fatalf("Decode of GKG's output: %v", err)
			}
			again, err := goon.Encode(d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(again)); diff != "" {
				t.Errorf("fixed point (-gkg +re-encoded):\n%s", diff)
			}
		})
	}
}
