package scorecard

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
)

// SpreadFormats are the text formats whose o200k saving the spread section
// measures over seeds, the baseline first.
var SpreadFormats = []string{"json", "gcf", "goon", "toon"}

// SpreadRow is one profile's median o200k saving of one format against
// JSON, in the corpus of each seed: corpus.Seed first, then
// corpus.SpreadSeeds.
type SpreadRow struct {
	Profile, Format string
	Medians         []float64
}

// common returns the cases whose name every profile of cases has, so that
// every profile's medians are over the same case set, and the names left
// out.
func common(cases []corpus.Case) (kept []corpus.Case, omitted []string) {
	var profiles []string
	in := map[string]map[string]bool{}
	for _, c := range cases {
		if !slices.Contains(profiles, c.Profile) {
			profiles = append(profiles, c.Profile)
		}
		if in[c.Name] == nil {
			in[c.Name] = map[string]bool{}
		}
		in[c.Name][c.Profile] = true
	}
	for _, c := range cases {
		if len(in[c.Name]) == len(profiles) {
			kept = append(kept, c)
		} else if !slices.Contains(omitted, c.Name) {
			omitted = append(omitted, c.Name)
		}
	}
	return kept, omitted
}

// SpreadTexts returns every text the spread section counts: each case of
// each spread seed's corpus (the cases every profile has) in each of
// SpreadFormats. The differential tokenizer test counts them too.
func SpreadTexts() ([]Text, error) {
	var out []Text
	for _, seed := range corpus.SpreadSeeds {
		cases, _ := common(corpus.GenerateSeed(seed))
		texts, err := spreadTexts("seed "+strconv.FormatUint(seed, 10), cases)
		if err != nil {
			return nil, err
		}
		out = append(out, texts...)
	}
	return out, nil
}

// spreadTexts returns each case in each of SpreadFormats, case by case,
// each text's case named label/ID.
func spreadTexts(label string, cases []corpus.Case) ([]Text, error) {
	var formats []Format
	for _, f := range Formats() {
		if slices.Contains(SpreadFormats, f.Name) {
			formats = append(formats, f)
		}
	}
	out := make([]Text, 0, len(cases)*len(formats))
	for _, c := range cases {
		canonical, err := cjson.Encode(c.Response)
		if err != nil {
			return nil, err
		}
		for _, name := range SpreadFormats {
			i := slices.IndexFunc(formats, func(f Format) bool { return f.Name == name })
			if i < 0 {
				return nil, fmt.Errorf("scorecard: the %s codec is not registered", name)
			}
			b, err := formats[i].encode(c.Response, canonical)
			if err != nil {
				return nil, fmt.Errorf("scorecard: %s: %s: %s: %w", label, c.ID(), name, err)
			}
			out = append(out, Text{Case: label + "/" + c.ID(), Format: name, Data: b})
		}
	}
	return out, nil
}

// buildSpread measures the spread rows: card's own cases (corpus.Seed)
// and the corpus of each spread seed, on all CPUs.
func (c *Card) buildSpread() ([]SpreadRow, error) {
	seeds := corpus.SpreadSeeds
	texts := make([][]Text, len(seeds))
	err := parallel(len(seeds), func(i int) (err error) {
		cases, _ := common(corpus.GenerateSeed(seeds[i]))
		texts[i], err = spreadTexts("seed "+strconv.FormatUint(seeds[i], 10), cases)
		return err
	})
	if err != nil {
		return nil, err
	}
	counts, err := countTexts(slices.Concat(texts...))
	if err != nil {
		return nil, err
	}
	// tokens[seed index][case ID][format]; the card's own cases are seed 0.
	type key struct{ id, format string }
	perSeed := []map[key]int{{}}
	var ids [][]string // per seed, case IDs in order
	var own []string
	for _, cs := range c.Cases {
		id := cs.Profile + "/" + cs.Name
		own = append(own, id)
		for _, f := range SpreadFormats {
			if fi := c.formatIndex(f); fi >= 0 {
				perSeed[0][key{id, f}] = cs.Results[fi].Tokens[0]
			}
		}
	}
	ids = append(ids, own)
	k := 0
	for i := range texts {
		m := map[key]int{}
		var order []string
		for _, t := range texts[i] {
			id := t.Case[len("seed ")+len(strconv.FormatUint(seeds[i], 10))+1:]
			if len(order) == 0 || order[len(order)-1] != id {
				order = append(order, id)
			}
			m[key{id, t.Format}] = counts[k]
			k++
		}
		perSeed = append(perSeed, m)
		ids = append(ids, order)
	}
	var rows []SpreadRow
	for _, p := range c.Profiles() {
		for _, f := range SpreadFormats[1:] {
			row := SpreadRow{Profile: p, Format: f}
			for s, m := range perSeed {
				var xs []float64
				for _, id := range ids[s] {
					if id[:len(p)+1] != p+"/" {
						continue
					}
					xs = append(xs, saving(m[key{id, Baseline}], m[key{id, f}]))
				}
				row.Medians = append(row.Medians, median(xs))
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// countTexts counts the o200k tokens of every text, on all CPUs.
func countTexts(texts []Text) ([]int, error) {
	counts := make([]int, len(texts))
	err := parallel(len(texts), func(k int) (err error) {
		counts[k], err = countO200k(texts[k].Data)
		return err
	})
	return counts, err
}

// spreadSection gives each format's median saving per profile on the
// committed seed beside its spread over the seeds.
func (c *Card) spreadSection(w *writer, _ []Chart) {
	if len(c.Spread) == 0 {
		return
	}
	w.p("\n## Spread over seeds: median o200k saving against JSON\n\n")
	w.p("The generator drawn again from %d seeds besides the committed one (%d), in memory (`corpus.GenerateSeed`; the files hold seed %d only): the same %d cases per profile, other entities and texts. Each cell is a profile's median saving over its cases on one seed; *over %d seeds* is the median of those medians and their range (least–greatest).\n\n",
		len(corpus.SpreadSeeds), corpus.Seed, corpus.Seed, c.count(c.Profiles()[0]), len(corpus.SpreadSeeds)+1)
	head := []string{"profile", "format", "seed " + strconv.FormatUint(corpus.Seed, 10) + " (the files)", "over " + strconv.Itoa(len(corpus.SpreadSeeds)+1) + " seeds: median", "range"}
	var rows [][]string
	for _, r := range c.Spread {
		rows = append(rows, []string{profileLabel(r.Profile), r.Format, pct(r.Medians[0]), pct(median(r.Medians)),
			pct(slices.Min(r.Medians)) + " – " + pct(slices.Max(r.Medians))})
	}
	w.table(head, rows, 2)
}
