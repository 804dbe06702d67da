package scorecard

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
)

// FileName is the scorecard's file, at the module root.
const FileName = "scorecard.md"

// Generate loads the corpus in dir and returns its scorecard as files, by
// base name: the markdown under the base name of file, and its charts,
// named after it (for scorecard.md: scorecard-saving-lean.svg and so on),
// which the markdown links. A case that not every profile has is left out
// (and named in the markdown), so that every profile's medians are over
// the same cases.
func Generate(dir, file string) (map[string][]byte, error) {
	cases, err := corpus.Load(dir)
	if err != nil {
		return nil, err
	}
	card, err := BuildCorpus(cases)
	if err != nil {
		return nil, err
	}
	return card.Files(file)
}

// BuildCorpus builds the scorecard of a corpus, as Generate does: the
// cases every profile has (the others named in Card.Omitted), and for the
// generated corpus the spread over corpus.SpreadSeeds.
func BuildCorpus(cases []corpus.Case) (*Card, error) {
	cases, omitted := common(cases)
	card, err := Build(cases)
	if err != nil {
		return nil, err
	}
	card.Omitted = omitted
	if card.generated() {
		if card.Spread, err = card.buildSpread(); err != nil {
			return nil, err
		}
	}
	return card, nil
}

// Files renders the card as the files Generate returns.
func (c *Card) Files(file string) (map[string][]byte, error) {
	base := filepath.Base(file)
	charts, err := c.Charts(strings.TrimSuffix(base, filepath.Ext(base)))
	if err != nil {
		return nil, err
	}
	md, err := c.render(charts)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{base: md}
	for _, ch := range charts {
		out[ch.Name] = ch.SVG
	}
	return out, nil
}

// WriteFiles writes files (base name → bytes) into dir.
func WriteFiles(dir string, files map[string][]byte) error {
	for _, name := range sortedNames(files) {
		if err := os.WriteFile(filepath.Join(dir, name), files[name], 0o644); err != nil {
			return fmt.Errorf("scorecard: %w", err)
		}
	}
	return nil
}

// StaleFilesError is CheckFiles's error: one *StaleError per stale or
// missing file, the markdown first. errors.As finds the first.
type StaleFilesError struct {
	Files []*StaleError
}

// Error is one line: which files are stale or missing, and the fix.
func (e *StaleFilesError) Error() string {
	if len(e.Files) == 1 {
		return e.Files[0].Error()
	}
	var missing, stale []string
	for _, f := range e.Files {
		if f.Missing {
			missing = append(missing, f.File)
		} else {
			stale = append(stale, f.File)
		}
	}
	var parts []string
	if len(stale) > 0 {
		first := e.Files[0]
		for _, f := range e.Files {
			if !f.Missing {
				first = f
				break
			}
		}
		p := fmt.Sprintf("%s is stale: %d line(s) removed, %d added", first.File, first.Removed, first.Added)
		if len(stale) > 1 {
			p += ", and so is " + strings.Join(stale[1:], ", ")
		}
		parts = append(parts, p)
	}
	if len(missing) > 0 {
		parts = append(parts, strings.Join(missing, ", ")+" does not exist")
	}
	return fmt.Sprintf("scorecard: %s; regenerate with: %s", strings.Join(parts, "; "), Command)
}

// Unwrap returns the per-file errors.
func (e *StaleFilesError) Unwrap() []error {
	out := make([]error, len(e.Files))
	for i, f := range e.Files {
		out[i] = f
	}
	return out
}

// CheckFiles compares the files in dir with fresh ones (base name →
// bytes), as Check does each. It returns nil when all agree, and otherwise
// a *StaleFilesError.
func CheckFiles(dir string, fresh map[string][]byte) error {
	return checkFiles(dir, fresh, nil)
}

// checkFiles is CheckFiles, the committed markdown first passed through
// edit when edit is not nil.
func checkFiles(dir string, fresh map[string][]byte, edit func([]byte) []byte) error {
	var errs []*StaleError
	for _, name := range sortedNames(fresh) {
		committed, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("scorecard: %w", err)
		}
		if edit != nil && committed != nil && filepath.Ext(name) == ".md" {
			committed = edit(committed)
		}
		if err := Check(committed, fresh[name]); err != nil {
			var stale *StaleError
			if !errors.As(err, &stale) {
				return err
			}
			stale.File = name
			stale.Missing = committed == nil
			errs = append(errs, stale)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &StaleFilesError{Files: errs}
}

// sortedNames returns the file names, markdown first, each kind by name.
func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		mi, mj := filepath.Ext(names[i]) == ".md", filepath.Ext(names[j]) == ".md"
		if mi != mj {
			return mi
		}
		return names[i] < names[j]
	})
	return names
}

// StaleError is Check's error: the committed scorecard (or one of its
// charts) differs from a freshly generated one.
type StaleError struct {
	// File is the stale file's name (FileName when Check is called alone).
	File string
	// Missing is set when the file does not exist.
	Missing bool
	// Removed and Added count the lines only in the committed and only in
	// the fresh file.
	Removed, Added int
	// Sample holds the first differing lines, "-" committed, "+" fresh,
	// each with its line number.
	Sample []string
}

// Error is one line: what is stale, by how much, and the fix.
func (e *StaleError) Error() string {
	file := e.File
	file = cmp.Or(file, FileName)
	if e.Missing {
		return fmt.Sprintf("scorecard: %s does not exist; generate it with: %s", file, Command)
	}
	return fmt.Sprintf("scorecard: %s is stale: %d line(s) removed, %d added; regenerate with: %s", file, e.Removed, e.Added, Command)
}

// Details returns the sample of differing lines, one per line.
func (e *StaleError) Details() string {
	return strings.Join(e.Sample, "\n")
}

// maxSample bounds StaleError.Sample.
const maxSample = 8

// Check compares a committed scorecard with a freshly generated one. It
// returns nil when they agree, a *StaleError summarizing the difference
// otherwise. Line endings are compared as "\n" (a checkout that writes
// "\r\n" is not stale).
func Check(committed, fresh []byte) error {
	committed = bytes.ReplaceAll(committed, []byte("\r\n"), []byte("\n"))
	if bytes.Equal(committed, fresh) {
		return nil
	}
	a := strings.Split(string(committed), "\n")
	b := strings.Split(string(fresh), "\n")
	e := &StaleError{}
	for _, d := range diffLines(a, b) {
		if d.op == '-' {
			e.Removed++
		} else {
			e.Added++
		}
		if len(e.Sample) < maxSample {
			text := d.text
			if len(text) > 160 {
				text = text[:160] + "…"
			}
			e.Sample = append(e.Sample, fmt.Sprintf("%c line %d: %s", d.op, d.line, text))
		}
	}
	if e.Removed == 0 && e.Added == 0 { // differs only in a trailing newline
		e.Sample = []string{"the files differ only at the end (a final newline)"}
	}
	return e
}

type lineEdit struct {
	op   byte // '-' or '+'
	line int  // 1-based, in the committed file for '-', the fresh one for '+'
	text string
}

// diffLines returns the lines to remove from a and add from b, in order,
// by a longest-common-subsequence over the lines that are not shared by a
// common prefix and suffix.
func diffLines(a, b []string) []lineEdit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var out []lineEdit
	if len(x)*len(y) > 4_000_000 {
		// Too large for the table: report every line of the middle.
		for i, s := range x {
			out = append(out, lineEdit{'-', pre + i + 1, s})
		}
		for j, s := range y {
			out = append(out, lineEdit{'+', pre + j + 1, s})
		}
		return out
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i++
			j++
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, lineEdit{'-', pre + i + 1, x[i]})
			i++
		default:
			out = append(out, lineEdit{'+', pre + j + 1, y[j]})
			j++
		}
	}
	return out
}
