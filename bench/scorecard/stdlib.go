package scorecard

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
)

// StdlibInfo is the provenance of a card's real-data profile,
// corpus.Stdlib.
type StdlibInfo struct {
	// GoVersion is the toolchain whose GOROOT/src the profile was read
	// from.
	GoVersion string
	// Spread holds the profile's median o200k savings of each of
	// SpreadFormats but the baseline, in each package set of
	// corpus.StdlibSets (the profile's own first).
	Spread []SpreadRow
}

// BuildWithStdlib builds the repository's scorecard: the corpus cases, as
// BuildCorpus does, and the real-data profile std beside them, drawn apart
// (its own sections, each marked with the Go version it was generated
// under, so that a check under another Go version can leave them out).
func BuildWithStdlib(cases []corpus.Case, std *corpus.StdlibCorpus) (*Card, error) {
	cases, omitted := common(cases)
	card, err := Build(cases)
	if err != nil {
		return nil, err
	}
	real, err := Build(std.Cases) // no sessions: they are the generated corpus's
	if err != nil {
		return nil, err
	}
	card.Cases = append(card.Cases, real.Cases...)
	card.Omitted = omitted
	card.Stdlib = &StdlibInfo{GoVersion: std.GoVersion}
	if card.generated() {
		if card.Spread, err = card.buildSpread(); err != nil {
			return nil, err
		}
	}
	if card.Stdlib.Spread, err = card.buildStdlibSpread(std); err != nil {
		return nil, err
	}
	return card, nil
}

// real reports whether p is the card's real-data profile.
func (c *Card) real(p string) bool { return c.Stdlib != nil && p == corpus.Stdlib }

// StdlibSpreadTexts returns every text the real-data profile's spread
// counts: each case of each package set but the first in each of
// SpreadFormats. The differential tokenizer test counts them too.
func StdlibSpreadTexts(std *corpus.StdlibCorpus) ([]Text, error) {
	var out []Text
	for i, cases := range std.Spread {
		texts, err := spreadTexts("set "+strconv.Itoa(i+2), cases)
		if err != nil {
			return nil, err
		}
		out = append(out, texts...)
	}
	return out, nil
}

// buildStdlibSpread measures the real-data profile's median savings in
// every package set: the card's own cases for the first.
func (c *Card) buildStdlibSpread(std *corpus.StdlibCorpus) ([]SpreadRow, error) {
	texts, err := StdlibSpreadTexts(std)
	if err != nil {
		return nil, err
	}
	counts, err := countTexts(texts)
	if err != nil {
		return nil, err
	}
	var rows []SpreadRow
	for _, f := range SpreadFormats[1:] {
		fi := c.formatIndex(f)
		if fi < 0 {
			return nil, fmt.Errorf("scorecard: the %s codec is not registered", f)
		}
		row := SpreadRow{Profile: corpus.Stdlib, Format: f}
		var own []float64
		for _, cs := range c.casesOf(corpus.Stdlib) {
			own = append(own, saving(cs.Results[0].Tokens[0], cs.Results[fi].Tokens[0]))
		}
		row.Medians = append(row.Medians, median(own))
		// texts hold, set after set, each case in SpreadFormats order.
		per := len(SpreadFormats)
		bi, xi := slices.Index(SpreadFormats, Baseline), slices.Index(SpreadFormats, f)
		at := 0
		for _, set := range std.Spread {
			var xs []float64
			for range set {
				xs = append(xs, saving(counts[at+bi], counts[at+xi]))
				at += per
			}
			row.Medians = append(row.Medians, median(xs))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// The markers around every part of the markdown that the real-data
// profile writes: the opening one names the Go version.
const (
	stdlibOpen  = "<!-- " + corpus.Stdlib + ": generated under "
	stdlibClose = "<!-- /" + corpus.Stdlib + " -->"
)

// stdlibBlock writes one part of the real-data profile between its
// markers, when the card has the profile.
func (c *Card) stdlibBlock(w *writer, body func()) {
	if c.Stdlib == nil || len(c.casesOf(corpus.Stdlib)) == 0 {
		return
	}
	w.p("\n%s%s -->\n", stdlibOpen, c.Stdlib.GoVersion)
	body()
	w.p("\n%s\n", stdlibClose)
}

var stdlibBlocks = regexp.MustCompile(`(?s)\n` + regexp.QuoteMeta(stdlibOpen) + `[^\n]* -->\n.*?\n` + regexp.QuoteMeta(stdlibClose) + `\n`)

// CommittedGoVersion returns the Go version the real-data profile of a
// scorecard's markdown was generated under, "" when it has none.
func CommittedGoVersion(md []byte) string {
	i := bytes.Index(md, []byte(stdlibOpen))
	if i < 0 {
		return ""
	}
	v, _, _ := strings.Cut(string(md[i+len(stdlibOpen):]), " ")
	return v
}

// withoutStdlib returns the markdown without the real-data profile's
// parts: what a card without the profile renders.
func withoutStdlib(md []byte) []byte { return stdlibBlocks.ReplaceAll(md, nil) }

// stdlibChart reports whether a chart's file is the real-data profile's.
func stdlibChart(name string) bool {
	return strings.HasSuffix(name, "-"+slug(corpus.Stdlib)+".svg")
}

// GoVersionMismatch is CheckCommitted's report that the real-data profile
// was not checked: the committed scorecard names one Go version, the
// toolchain at hand is another (or there is none, Reason says why).
type GoVersionMismatch struct {
	File               string
	Committed, Running string
	Reason             error
}

func (e *GoVersionMismatch) Error() string {
	running := "this toolchain is " + e.Running
	if e.Running == "" {
		running = "no Go toolchain is at hand"
	}
	if e.Reason != nil {
		running += fmt.Sprintf(" (%v)", e.Reason)
	}
	return fmt.Sprintf("scorecard: the %s profile of %s was generated under %s and %s, so its figures were not checked; the other profiles were. To check it, run under %s; to move it to this Go, regenerate with: %s",
		corpus.Stdlib, e.File, e.Committed, running, e.Committed, Command)
}

// CheckCommitted is `wirebench scorecard -check`: it compares the
// scorecard file (markdown and charts, in its directory) with the one
// BuildWithStdlib gives for cases and the Go toolchain at hand. When the
// committed file names another Go version for the real-data profile, or
// no toolchain is at hand, it checks everything else (the markdown
// without the profile's parts, the other charts) and says so with a
// *GoVersionMismatch; err is the comparison's, as CheckFiles returns it.
func CheckCommitted(file string, cases []corpus.Case) (mismatch *GoVersionMismatch, err error) {
	return checkCommitted(file, cases, corpus.LoadStdlib)
}

// checkCommitted is CheckCommitted with the real-data profile from load.
func checkCommitted(file string, cases []corpus.Case, load func() (*corpus.StdlibCorpus, string, error)) (mismatch *GoVersionMismatch, err error) {
	committed, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scorecard: %w", err)
	}
	want := CommittedGoVersion(committed)
	std, running, stdErr := load()
	if stdErr == nil && (want == "" || running == want) {
		card, err := BuildWithStdlib(cases, std)
		if err != nil {
			return nil, err
		}
		fresh, err := card.Files(file)
		if err != nil {
			return nil, err
		}
		return nil, CheckFiles(filepath.Dir(file), fresh)
	}
	if want == "" { // no profile committed and none to make: an error
		return nil, stdErr
	}
	mismatch = &GoVersionMismatch{File: filepath.Base(file), Committed: want, Running: running, Reason: stdErr}
	card, err := BuildCorpus(cases)
	if err != nil {
		return mismatch, err
	}
	fresh, err := card.Files(file)
	if err != nil {
		return mismatch, err
	}
	return mismatch, checkFiles(filepath.Dir(file), fresh, withoutStdlib)
}

// stdlibSection introduces the real-data profile: where it comes from,
// its medians with their spread over the package sets, and its cases.
func (c *Card) stdlibSection(w *writer, _ []Chart) {
	c.stdlibBlock(w, func() {
		std := c.Stdlib
		cases := c.casesOf(corpus.Stdlib)
		w.p("\n## Real data: the Go standard library (%s)\n\n", std.GoVersion)
		w.p("Text nobody here wrote: profile `%s` is a code graph of the standard library of %s, the Go toolchain this file was generated under, read offline from `$(go env GOROOT)/src` with go/parser, go/ast and go/doc, without type checking (`corpus.GenerateStdlib`). Its nodes are packages and their exported functions, methods, types, constants and variables, with their signatures and doc comments as the Go authors wrote them (licence: %s); its edges IMPORTS, DECLARES, HAS_METHOD, CALLS and REFERENCES. It is generated whenever the scorecard is, deterministically for a Go version, and never committed: this file holds only the figures. `%s -check` under another Go version says so and checks everything else.\n\n",
			corpus.Stdlib, std.GoVersion, corpus.StdlibLicense, Command)
		w.p("- **Packages** (%d, each parsed whole, its files as a linux/amd64 build without cgo selects them): `%s`.\n", len(corpus.StdlibSets[0]), strings.Join(corpus.StdlibSets[0], "`, `"))
		w.p("- **Spread**: the same %d cases drawn from %d other package sets (cryptography; databases, templates and logging; archives, compression and images; reflection, numbers and text), as the generated profiles are drawn from other seeds: *over %d sets* is the median of the sets' medians and their range (least–greatest).\n", len(cases), len(corpus.StdlibSets)-1, len(corpus.StdlibSets))
		w.p("- **Cases**: every query type in sizes S, M and L, as questions about code (`bench/corpus/stdlib_cases.go`); the figures of each are under Cases below.\n\n")
		head := []string{"format", "round trip", "o200k", "cl100k", "over " + strconv.Itoa(len(corpus.StdlibSets)) + " sets: median", "range"}
		var rows [][]string
		for fi, f := range c.Formats {
			if !f.Text || fi == 0 {
				continue
			}
			row := []string{f.Name, c.fidelity(fi, corpus.Stdlib, false), pct(c.medianSaving(corpus.Stdlib, fi, 0)), pct(c.medianSaving(corpus.Stdlib, fi, 1)), "—", "—"}
			for _, r := range std.Spread {
				if r.Format == f.Name {
					row[4] = pct(median(r.Medians))
					row[5] = pct(slices.Min(r.Medians)) + " – " + pct(slices.Max(r.Medians))
				}
			}
			rows = append(rows, row)
		}
		w.p("Median saving against JSON over the %d cases of the profile's own packages:\n\n", len(cases))
		w.table(head, rows, 2)
		w.p("\n")
		rows = nil
		for _, cs := range cases {
			rows = append(rows, []string{cs.Name, cs.Summary, num(cs.Results[0].Tokens[0])})
		}
		w.table([]string{"case", "what", "JSON o200k"}, rows, 2)
	})
}
