package scorecard

import (
	"unicode/utf8"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// Survival is what of a case survives a lossy format's round trip, and
// what JSON carrying only that costs: the measure of a lossy saving at
// equal information.
type Survival struct {
	// Fields counts the case's values: every node property and every row
	// cell (a node cell as one value, its node's type and id). FieldsEqual
	// counts those that read back equal (numbers by value), found by node
	// type and id and property key, and by row and cell name.
	Fields, FieldsEqual int
	// Chars counts the code points of the case's string values (a list's
	// as its JSON text); CharsKept those that read back in the same place
	// of the value that corresponds (the same text as written, digits read
	// back as a number included).
	Chars, CharsKept int
	// JSON is the o200k count of the canonical JSON of what reads back:
	// JSON carrying the information the format carries.
	JSON int
}

// survive measures what of r survives in back, r's round trip through a
// lossy format.
func survive(r, back *wire.GraphResponse) (*Survival, error) {
	text, err := cjson.Encode(back)
	if err != nil {
		return nil, err
	}
	s := &Survival{}
	if s.JSON, err = countO200k(text); err != nil {
		return nil, err
	}
	type nodeKey struct {
		typ string
		id  int64
	}
	nodes := map[nodeKey]*wire.Node{}
	for i := range back.Nodes {
		n := &back.Nodes[i]
		if _, ok := nodes[nodeKey{n.Type, n.ID}]; !ok {
			nodes[nodeKey{n.Type, n.ID}] = n
		}
	}
	for _, n := range r.Nodes {
		got := nodes[nodeKey{n.Type, n.ID}]
		for _, p := range n.Properties {
			var v wire.Value
			ok := false
			if got != nil {
				for _, q := range got.Properties {
					if q.Key == p.Key {
						v, ok = q.Value, true
						break
					}
				}
			}
			s.add(p.Value, v, ok)
		}
	}
	for i, row := range r.Rows {
		var gotRow wire.Row
		if i < len(back.Rows) {
			gotRow = back.Rows[i]
		}
		for _, c := range row {
			var g *wire.Cell
			for j := range gotRow {
				if gotRow[j].Name == c.Name {
					g = &gotRow[j]
					break
				}
			}
			if c.Node != nil {
				s.Fields++
				if g != nil && g.Node != nil && g.Node.Type == c.Node.Type && g.Node.ID == c.Node.ID {
					s.FieldsEqual++
				}
				continue
			}
			if g == nil {
				s.add(c.Value, wire.Null(), false)
			} else {
				s.add(c.Value, g.Value, true)
			}
		}
	}
	return s, nil
}

// add counts one value of the case, want, against got, what reads back in
// its place (ok false when nothing does).
func (s *Survival) add(want, got wire.Value, ok bool) {
	s.Fields++
	if ok && sameValue(want, got) {
		s.FieldsEqual++
	}
	var w string
	switch want.Kind() {
	case wire.KindString:
		w = want.Text()
	case wire.KindList:
		w = string(wire.AppendValueJSON(nil, want))
	default:
		return
	}
	s.Chars += utf8.RuneCountInString(w)
	if !ok {
		return
	}
	g := valueText(got)
	for len(w) > 0 && len(g) > 0 {
		a, n := utf8.DecodeRuneInString(w)
		b, m := utf8.DecodeRuneInString(g)
		if a == b {
			s.CharsKept++
		}
		w, g = w[n:], g[m:]
	}
}

// valueText is the text of a value read back: a string's own, anything
// else's JSON text.
func valueText(v wire.Value) string {
	if v.Kind() == wire.KindString {
		return v.Text()
	}
	return string(wire.AppendValueJSON(nil, v))
}

// sameValue reports whether two values are equal, numbers by value.
func sameValue(a, b wire.Value) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	return string(wire.AppendValueJSON(nil, a)) == string(wire.AppendValueJSON(nil, b))
}

func number(v wire.Value) (float64, bool) {
	switch v.Kind() {
	case wire.KindInt:
		return float64(v.Int()), true
	case wire.KindFloat:
		return v.Float(), true
	}
	return 0, false
}

// share of part in whole in percent, formatted; "n/a" for an empty whole.
func sharePct(part, whole int) string {
	if whole == 0 {
		return "n/a"
	}
	return pct(100 * float64(part) / float64(whole))
}

// equalSection sets each lossy text format's saving beside what survives
// its round trip and its saving against JSON that carries only that.
func (c *Card) equalSection(w *writer, _ []Chart) {
	var lossy []int
	for fi, f := range c.Formats {
		for _, cs := range c.Cases {
			if f.Text && cs.Results[fi].Survival != nil {
				lossy = append(lossy, fi)
				break
			}
		}
	}
	if len(lossy) == 0 {
		return
	}
	w.p("\n## Equal information: lossy savings beside what survives\n\n")
	w.p("A lossy format's saving against JSON is partly information it drops. Here each lossy text format's cases are read back with its own decoder, and the read-back is written as canonical JSON: JSON carrying exactly what the format carries (for GOON: truncated text as written, with its `...` and its `key_len` length; nulls dropped; datetimes in T-form). *Saving at equal information* is the format's o200k saving against that JSON; *JSON of the read-back* is that JSON's saving against the full JSON, the part of the headline saving that is dropped information. *Fields equal* is the share of the cases' values (node properties and row cells, numbers by value) that read back equal; *string characters kept* the share of string code points that read back in place. Medians over the cases of a profile; shares over all its values.\n\n")
	head := []string{"profile", "format", "saving vs JSON", "saving at equal information", "JSON of the read-back vs JSON", "fields equal", "string characters kept"}
	var rows [][]string
	for _, p := range c.Profiles() {
		for _, fi := range lossy {
			var full, equal, shrink []float64
			var sv Survival
			for _, cs := range c.Cases {
				r := cs.Results[fi]
				if cs.Profile != p || r.Survival == nil {
					continue
				}
				base := cs.Results[0].Tokens[0]
				full = append(full, saving(base, r.Tokens[0]))
				equal = append(equal, saving(r.Survival.JSON, r.Tokens[0]))
				shrink = append(shrink, saving(base, r.Survival.JSON))
				sv.Fields += r.Survival.Fields
				sv.FieldsEqual += r.Survival.FieldsEqual
				sv.Chars += r.Survival.Chars
				sv.CharsKept += r.Survival.CharsKept
			}
			if len(full) == 0 {
				continue
			}
			rows = append(rows, []string{profileLabel(p), c.Formats[fi].Name, pct(median(full)), pct(median(equal)), pct(median(shrink)),
				sharePct(sv.FieldsEqual, sv.Fields), sharePct(sv.CharsKept, sv.Chars)})
		}
	}
	w.table(head, rows, 2)
}
