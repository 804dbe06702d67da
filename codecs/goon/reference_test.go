package goon_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	_ "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// TestReferenceCases: every NAME.json of GKG's golden cases encodes byte
// for byte to NAME.goon, and NAME.goon decodes to a response that encodes
// back to it.
func TestReferenceCases(t *testing.T) {
	cases := testsupport.ReferenceCases(t)
	t.Logf("%d reference cases", len(cases))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src, want := c.JSON, c.GOON
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
			fixedPoint(t, goon.Default(), want)
		})
	}
}
