package scorecard

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
)

// FileName is the scorecard's file, at the module root.
const FileName = "scorecard.md"

// Generate loads the corpus in dir and returns its scorecard in markdown.
func Generate(dir string) ([]byte, error) {
	cases, err := corpus.Load(dir)
	if err != nil {
		return nil, err
	}
	card, err := Build(cases)
	if err != nil {
		return nil, err
	}
	return card.Markdown()
}

// StaleError is Check's error: the committed scorecard differs from a
// freshly generated one.
type StaleError struct {
	// Removed and Added count the lines only in the committed and only in
	// the fresh scorecard.
	Removed, Added int
	// Sample holds the first differing lines, "-" committed, "+" fresh,
	// each with its line number.
	Sample []string
}

// Error is one line: what is stale, by how much, and the fix.
func (e *StaleError) Error() string {
	return fmt.Sprintf("scorecard: %s is stale: %d line(s) removed, %d added; regenerate with: %s", FileName, e.Removed, e.Added, Command)
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
