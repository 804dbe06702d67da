package gcf_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sameReadAsGeneric checks that Decode reads data as the generic path
// does (the same response under wire.Exact, or the same error), and
// reports whether the reader took data itself.
func sameReadAsGeneric(t testsupport.Fataler, c *gcf.Codec, data []byte) bool {
	t.Helper()
	return testsupport.ReadsAsGeneric(t, data, c.Decode, c.DecodeGeneric, c.DecodeFast)
}

// TestReaderMatchesGenericCorpus: the reader, not the generic path, reads
// every corpus case's text, to the generic path's response.
func TestReaderMatchesGenericCorpus(t *testing.T) {
	c := gcf.Default()
	for _, cs := range corpusCases(t) {
		text, err := c.AppendEncode(nil, cs.Response)
		if err != nil {
			t.Fatal(err)
		}
		if !sameReadAsGeneric(t, c, text) {
			t.Errorf("%s: the reader gave the text up", cs.ID())
		}
	}
}

// TestReaderMatchesGenericGenerated: generated responses' texts, and
// those texts cut short or with a byte changed.
func TestReaderMatchesGenericGenerated(t *testing.T) {
	c := gcf.Default()
	fast := 0
	rapid.Check(t, func(rt *rapid.T) {
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: rapid.Bool().Draw(rt, "awkward")}).Draw(rt, "r")
		text, err := c.AppendEncode(nil, r)
		if err != nil {
			return
		}
		if sameReadAsGeneric(rt, c, text) {
			fast++
		}
		if len(text) > 0 {
			i := rapid.IntRange(0, len(text)-1).Draw(rt, "i")
			sameReadAsGeneric(rt, c, text[:i])
			changed := append([]byte(nil), text...)
			changed[i] = rapid.SampledFrom([]byte("|~^-\"\\,:@#.[]{}> \n0aA")).Draw(rt, "b")
			sameReadAsGeneric(rt, c, changed)
		}
	})
	if fast == 0 {
		t.Error("the reader gave up every generated text")
	}
}
