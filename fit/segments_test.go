package fit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// formats returns r in every text layout whose pages are priced: goon,
// toon, compact JSON (one line) and JSON indented by two spaces. GOON
// refuses names that are not identifiers; with awkward set, it is left out
// when it does.
func formats(t testing.TB, r *wire.GraphResponse, awkward bool) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, codec := range []string{"goon", "toon", "json"} {
		b, err := wire.EncodeWith(codec, r)
		if err != nil && awkward && codec == "goon" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out[codec] = b
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out["json"], "", "  "); err != nil {
		t.Fatal(err)
	}
	out["json-pretty"] = pretty.Bytes()
	return out
}

// checkAdditive requires that text counts as the sum of its lines and as
// the sum of its segments.
func checkAdditive(t *testing.T, name string, c tokens.Counter, text []byte) {
	t.Helper()
	whole, err := c.Count(text)
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, l := range bytes.SplitAfter(text, []byte("\n")) {
		n, err := c.Count(l)
		if err != nil {
			t.Fatal(err)
		}
		lines += n
	}
	if lines != whole {
		t.Errorf("%s: %s counts %d whole, %d line by line", name, c.Name(), whole, lines)
	}
	segs, nsegs := 0, 0
	ok := fit.Segments(text, func(seg []byte) {
		n, err := c.Count(seg)
		if err != nil {
			t.Fatal(err)
		}
		segs += n
		nsegs++
	})
	if !ok {
		t.Errorf("%s: Segments refused a text without blank lines", name)
		return
	}
	if segs != whole {
		t.Errorf("%s: %s counts %d whole, %d over its %d segments", name, c.Name(), whole, segs, nsegs)
	}
}

// TestSegmentsAdditiveOnCorpus proves, rather than trusts, the property
// the pricing rests on: on every corpus case, in goon, toon, compact JSON
// and indented JSON, with o200k and cl100k, the count of the text equals
// the sum of the counts of its lines and the sum over its Segments. Under
// -short it takes the cases below 64 KiB of JSON only, under the race
// detector those below 16 KiB.
func TestSegmentsAdditiveOnCorpus(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if err != nil || len(paths) < 20 {
		t.Fatalf("corpus: %d files, %v", len(paths), err)
	}
	for _, path := range paths {
		limit := int64(-1)
		switch {
		case fit.RaceEnabled():
			limit = 16 << 10
		case testing.Short():
			limit = 64 << 10
		}
		if fi, err := os.Stat(path); err != nil || limit >= 0 && fi.Size() > limit {
			continue
		}
		r := testsupport.LoadResponse(t, path)
		for format, text := range formats(t, r, false) {
			for _, name := range []string{tokens.O200k, tokens.Cl100k} {
				c, err := tokens.Get(name)
				if err != nil {
					t.Fatal(err)
				}
				checkAdditive(t, filepath.Base(path)+"/"+format, c, text)
			}
		}
	}
}

// TestSegmentsAdditiveGenerated checks the property on generated
// responses, awkward names and values included.
func TestSegmentsAdditiveGenerated(t *testing.T) {
	n := 300
	if testing.Short() || fit.RaceEnabled() {
		n = 30
	}
	plain := wiretest.ResponseWith(wiretest.Options{})
	awkward := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true})
	for seed := range n {
		gen, awk := plain, seed%2 == 1
		if awk {
			gen = awkward
		}
		r := gen.Example(seed)
		for format, text := range formats(t, r, awk) {
			for _, name := range []string{tokens.O200k, tokens.Cl100k} {
				c, _ := tokens.Get(name)
				checkAdditive(t, fmt.Sprintf("seed %d/%s", seed, format), c, text)
			}
		}
	}
}

func TestSegmentsCuts(t *testing.T) {
	long := `{"id":"12","n":[1,2]}` + string(bytes.Repeat([]byte("x"), fit.LongLine))
	for _, tt := range []struct {
		name string
		text string
		want []string
		ok   bool
	}{
		{"empty", "", nil, true},
		{"lines", "a\nb=1\nc", []string{"a\n", "b=1\n", "c"}, true},
		{"short lines keep their digits", "iid=12 x:3\n", []string{"iid=12 x:3\n"}, true},
		{"long line cut before digits after punctuation", long,
			[]string{`{"id":"`, `12","n":[`, `1,`, `2]}` + long[len(`{"id":"12","n":[1,2]}`):]}, true},
		{"blank line", "a\n\nb", nil, false},
		{"white-space-only line", "a\n  \t\nb", nil, false},
		{"unicode white space only", "a\n\u2028\nb", nil, false},
		{"white space before a line end", "a  \nb", []string{"a  \n", "b"}, true},
	} {
		var got []string
		ok := fit.Segments([]byte(tt.text), func(seg []byte) { got = append(got, string(seg)) })
		if ok != tt.ok || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: Segments = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
