package scorecard

import (
	"os"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
)

// TestReferenceInputsSavings measures GKG's own reference inputs (the
// GOON reference cases, GOON_REFERENCE_DIR, and GKG's current ones,
// GOON_CURRENT_DIR, when set) as a second real-data profile: the median
// o200k saving of every text format against JSON, logged, and checked
// against what the formats promise. They stay in ../shared, so the
// scorecard does not print them (SPEC §8); this is the command that
// reproduces the figures:
//
//	GOON_REFERENCE_DIR=$PWD/../shared/goon-reference/cases \
//	GOON_CURRENT_DIR=$PWD/../shared/goon-reference/current/cases \
//	go test ./bench/scorecard -run TestReferenceInputsSavings -v
func TestReferenceInputsSavings(t *testing.T) {
	var cases []corpus.Case
	for _, env := range []string{"GOON_REFERENCE_DIR", "GOON_CURRENT_DIR"} {
		dir := os.Getenv(env)
		if dir == "" {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not set (required when CI is set)", env)
			}
			continue
		}
		ref, err := corpus.Reference(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ref {
			ref[i].Profile = env
		}
		cases = append(cases, ref...)
	}
	if len(cases) == 0 {
		t.Skip("GOON_REFERENCE_DIR and GOON_CURRENT_DIR are not set")
	}
	card, err := Build(cases)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range card.Profiles() {
		t.Logf("%s: %d cases", p, card.count(p))
		pretty := card.medianSaving(p, card.formatIndex("json-pretty"), 0)
		for fi, f := range card.Formats {
			if !f.Text {
				continue
			}
			s := card.medianSaving(p, fi, 0)
			lo, hi := card.rangeSaving(p, fi)
			t.Logf("  %-11s median o200k saving %6s (cases %s – %s), round trip %s", f.Name, pct(s), pct(lo), pct(hi), card.fidelity(fi, p, false))
			switch f.Name {
			case Baseline:
				if s != 0 {
					t.Errorf("%s: json saves %s against itself", p, pct(s))
				}
			case "json-pretty":
				if s >= 0 {
					t.Errorf("%s: indented JSON saves %s against compact JSON", p, pct(s))
				}
			case "gcf", "goon", "toon":
				// GKG's reference results are a handful of nodes each, so
				// a format's header weighs: gcf's median is about even with
				// JSON. Every graph-aware format still beats indented JSON
				// by far, and GOON, made for these results, and TOON save.
				if !(s > -25 && s < 100 && s > pretty+25) {
					t.Errorf("%s: %s median saving %s, want above -25%% and 25 points above json-pretty's %s", p, f.Name, pct(s), pct(pretty))
				}
				if f.Name != "gcf" && s <= 0 {
					t.Errorf("%s: %s median saving %s, want a saving", p, f.Name, pct(s))
				}
				if f.Name != "goon" && card.fidelity(fi, p, false) == Lossy.String() {
					t.Errorf("%s: %s loses information on GKG's reference inputs", p, f.Name)
				}
			}
		}
	}
}

// rangeSaving is the least and greatest o200k saving of a format against
// JSON over the cases of profile p.
func (c *Card) rangeSaving(p string, fi int) (lo, hi float64) {
	first := true
	for _, cs := range c.casesOf(p) {
		s := saving(cs.Results[0].Tokens[0], cs.Results[fi].Tokens[0])
		if first || s < lo {
			lo = s
		}
		if first || s > hi {
			hi = s
		}
		first = false
	}
	return lo, hi
}
