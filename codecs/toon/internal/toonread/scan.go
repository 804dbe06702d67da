package toonread

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// invalidUTF8 fails at the first ill-formed byte of line num.
func (d *decoder) invalidUTF8(line string, num int) {
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError && size == 1 {
			d.failAt(num, i+1, "invalid UTF-8 (byte 0x%02x)", line[i])
		}
		i += size
	}
}

// peek returns the next line without consuming it, or nil at the end.
func (d *decoder) peek() *line {
	if !d.peeked {
		d.peeked, d.hasNext = true, d.scan(&d.next)
	}
	if d.hasNext {
		return &d.next
	}
	return nil
}

// read consumes the next line; it returns nil at the end.
func (d *decoder) read() *line {
	l := d.peek()
	if l == nil {
		return nil
	}
	d.last.set(l.num, l.start, l.cstart, l.depth, l.content)
	d.peeked = false
	return &d.last
}

// scan reads raw lines up to a non-blank, non-comment one, recording
// blank lines and checking indentation (spec §5.1, §12).
func (d *decoder) scan(l *line) bool {
	src := d.src
	for !d.done {
		start := d.pos
		if d.lineNum > 0 && start < len(src) && src[start] == '\n' {
			// A run of empty lines, taken at once.
			j := start
			for j < len(src) && src[j] == '\n' {
				j++
			}
			d.blank(d.lineNum+1, d.lineNum+j-start)
			d.lineNum += j - start
			d.pos = j
			continue
		}
		end := len(src)
		if nl := strings.IndexByte(src[start:], '\n'); nl >= 0 {
			end = start + nl
			d.pos = end + 1
		} else {
			d.done = true
			d.pos = end
		}
		d.lineNum++
		if d.checkLines && !utf8.ValidString(src[start:end]) {
			d.invalidUTF8(src[start:end], d.lineNum)
		}
		if d.lineNum == 1 && strings.HasPrefix(src[start:end], "\uFEFF") {
			start += 3
		}
		if end > start && src[end-1] == '\r' {
			end--
		}
		i, firstTab, tabs := start, -1, 0
		for i < end && (src[i] == ' ' || src[i] == '\t') {
			if src[i] == '\t' {
				if firstTab < 0 {
					firstTab = i - start
				}
				tabs++
			}
			i++
		}
		indent := i - start
		tabIndent := 0
		if firstTab >= 0 {
			if d.strict {
				indent = firstTab
			} else {
				tabIndent = tabs
			}
		}
		cs, ce := start+indent, end
		for ce > cs && src[ce-1] == ' ' {
			ce--
		}
		if firstTab < 0 && ce > cs && src[cs] == '#' {
			continue // comment line
		}
		if cs == ce {
			d.blank(d.lineNum, d.lineNum)
			continue
		}
		if d.strict {
			if firstTab >= 0 {
				d.failAt(d.lineNum, firstTab+1, "tab character in indentation")
			}
			if indent%d.opts.IndentSize != 0 {
				d.failAt(d.lineNum, 1, "indentation of %d spaces is not a multiple of %d", indent, d.opts.IndentSize)
			}
		}
		l.set(d.lineNum, start, cs, (indent-tabIndent)/d.opts.IndentSize+tabIndent, src[cs:ce])
		return true
	}
	return false
}

// blank records lines first to last as blank, in one run with those
// just before.
func (d *decoder) blank(first, last int) {
	if n := len(d.blanks); n > 0 && d.blanks[n-1].last == first-1 {
		d.blanks[n-1].last = last
	} else {
		d.blanks = append(d.blanks, blankRun{first, last})
	}
}

func (d *decoder) enter(l *line) {
	d.depth++
	if d.depth > d.opts.MaxDepth {
		if d.lim.Set {
			d.failLimit(l, l.cstart, "MaxDepth", "nesting deeper than "+strconv.Itoa(d.opts.MaxDepth)+" levels")
		}
		d.fail(l, l.cstart, "nesting deeper than %d levels", d.opts.MaxDepth)
	}
}

func (d *decoder) leave() { d.depth-- }

func (d *decoder) overIndented(l *line, want int) {
	d.fail(l, l.cstart, "line is indented deeper than its scope allows (depth %d, expected %d)", l.depth, want)
}

// noBlankLines fails, in strict mode, at a blank line between lines
// first and last (spec §12).
func (d *decoder) noBlankLines(first, last int, what string) {
	if !d.strict || first == 0 {
		return
	}
	// The first run that ends after first.
	lo := sort.Search(len(d.blanks), func(i int) bool { return d.blanks[i].last > first })
	if lo < len(d.blanks) {
		if b := max(d.blanks[lo].first, first+1); b < last {
			d.failAt(b, 1, "blank line inside a %s", what)
		}
	}
}

// set sets l's fields one by one: a whole-struct copy into the heap costs
// a bulk write barrier while the collector runs.
func (l *line) set(num, start, cstart, depth int, content string) {
	l.num, l.start, l.cstart, l.depth, l.content = num, start, cstart, depth, content
}
