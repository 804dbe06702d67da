package toonread

import (
	"sort"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
)

// untabbed is TOON's comment rule: a '#' line whose indentation holds
// no tab.
func untabbed(_ string, tabbed bool) bool { return !tabbed }

// peek returns the next line without reading it, or nil at the end.
func (d *decoder) peek() *textwire.Line {
	l := d.lines.Peek()
	if l == nil || d.lines.Offset() > d.badUTF8 {
		d.linesDone()
	}
	return l
}

// read reads the next line and returns it (d.lines.Line), or nil at the
// end.
func (d *decoder) read() *textwire.Line {
	l := d.lines.Read()
	if l == nil || d.lines.Offset() > d.badUTF8 {
		d.linesDone()
	}
	return l
}

// linesDone fails at what stopped the lines or at the ill-formed UTF-8
// they passed, whichever comes first; it returns at the plain end.
func (d *decoder) linesDone() {
	bad, col := 0, 0 // the line and column of the ill-formed byte, or 0
	if d.badUTF8 < len(d.src) {
		bad, col = textwire.LineCol(d.src, d.badUTF8)
	}
	if le, ok := d.lines.Err().(*textwire.LineError); ok && (bad == 0 || bad > le.Line) {
		switch le.Problem {
		case textwire.ProblemTab:
			d.failAt(le.Line, le.Col, "tab character in indentation")
		case textwire.ProblemIndent:
			d.failAt(le.Line, le.Col, "indentation of %d spaces is not a multiple of %d", le.N, le.Limit)
		}
		d.failAt(le.Line, le.Col, "%s", le.Msg())
	}
	if bad > 0 {
		d.failAt(bad, col, "invalid UTF-8 (byte 0x%02x)", d.src[d.badUTF8])
	}
}

func (d *decoder) enter(l *textwire.Line) {
	d.depth++
	if d.depth > d.opts.MaxDepth {
		if d.lim.Set {
			d.failLimit(l, l.TextStart(), "MaxDepth", "nesting deeper than "+strconv.Itoa(d.opts.MaxDepth)+" levels")
		}
		d.fail(l, l.TextStart(), "nesting deeper than %d levels", d.opts.MaxDepth)
	}
}

func (d *decoder) leave() { d.depth-- }

func (d *decoder) overIndented(l *textwire.Line, want int) {
	d.fail(l, l.TextStart(), "line is indented deeper than its scope allows (depth %d, expected %d)", l.Depth, want)
}

// noBlankLines fails, in strict mode, at a blank line between lines
// first and last (spec §12).
func (d *decoder) noBlankLines(first, last int, what string) {
	if !d.strict || first == 0 {
		return
	}
	// The first run that ends after first.
	lo := sort.Search(len(d.lines.BlankRuns), func(i int) bool { return d.lines.BlankRuns[i].Last > first })
	if lo < len(d.lines.BlankRuns) {
		if b := max(d.lines.BlankRuns[lo].First, first+1); b < last {
			d.failAt(b, 1, "blank line inside a %s", what)
		}
	}
}
