package gcf_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sameReadAsGeneric checks that Decode, which reads the layout's tables
// into the response as gcfvalue reads them, and the same pass with every
// table read as a generic value and converted agree on data (see
// testsupport.ReadsAsGeneric). It reports whether data decoded.
func sameReadAsGeneric(t testsupport.Fataler, c *gcf.Codec, data []byte) bool {
	t.Helper()
	return testsupport.ReadsAsGeneric(t, data, c.Decode, c.DecodeGeneric) == nil
}

// TestReaderMatchesGenericCorpus: every corpus case's text reads with the
// table sinks as with the generic tables, and so does a response of more
// nodes, and properties, than the reader's scratch holds at once.
func TestReaderMatchesGenericCorpus(t *testing.T) {
	c := gcf.Default()
	cases := corpusCases(t)
	cases = append(cases, corpus.Case{Name: "over_scratch", Response: testsupport.Traversal(4200, 20)})
	for _, cs := range cases {
		text, err := c.AppendEncode(nil, cs.Response)
		if err != nil {
			t.Fatal(err)
		}
		if !sameReadAsGeneric(t, c, text) {
			t.Errorf("%s: the text does not decode", cs.ID())
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
		t.Error("no generated text decoded")
	}
}

// TestTableInAttachment: a table inside a row's attachment (which the
// layout refuses: a list of objects is no value) gives a
// *wire.DecodeError, whatever the columns of the table around it.
func TestTableInAttachment(t *testing.T) {
	c := gcf.Default()
	head := "GCF profile=generic\nformat_version=1\nquery_type=search\n"
	for _, in := range []string{
		head + "## nodes [1]{type,id,tags}\n@0 User|1|^\n.tags [1]{a}\n    1\n## edges [0]\n",
		head + "## nodes [2]{type,id,tags,x,y}\n@0 User|1|^|1|2\n.tags [1]{a}\n    1\nUser|2|~|3|4\n## edges [0]\n",
		head + "## nodes [0]\n## edges [0]\n## rows [2]{a,u>type,u>id,u>name}\n@0 ^|User|1|x\n.a [1]{b}\n    1\n2|User|2|y\n",
		head + "## nodes [0]\n## edges [0]\n## rows [1]{u}\n@0 ^\n.u {}\n    type=User\n    id=1\n    ## tags [1]{b,c,d,e}\n      1|2|3|4\n",
	} {
		if !sameReadAsGeneric(t, c, []byte(in)) {
			continue
		}
		t.Errorf("%q decoded", in)
	}
}
