package textwire

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// LineRules say how a format splits its text into lines: the indent unit,
// what a line's indentation may hold, which lines a reader never sees
// (blank lines, comments) and the bounds a reader enforces before it
// looks at a line. The zero value reads every line as it stands: no
// indentation, blank lines returned, no bounds. A format keeps its rules
// in one package-level value and passes it to NewLines.
type LineRules struct {
	// IndentUnit is the number of spaces of one indentation level (TOON
	// and GCF: 2). Zero reads leading spaces as content: Depth is 0 and
	// Indent 0.
	IndentUnit int

	// StrictIndent refuses a tab in the indentation (ProblemTab) and an
	// indentation that is not a multiple of IndentUnit (ProblemIndent).
	// Without it a tab counts as one level and spaces short of a level
	// are dropped.
	StrictIndent bool

	// TabInBlank, with StrictIndent, refuses a tab in a line of nothing
	// but indentation as in any other line (ProblemTab); without it such a
	// line is blank. TOON's reference refuses it; GCF and GOON do not.
	TabInBlank bool

	// TrimRight holds the bytes dropped from the end of a line's Text:
	// " " (TOON), " \t" (GCF), "" none.
	TrimRight string

	// SkipBlank skips lines with nothing but indentation; without it
	// they are returned with Blank set. With BlankRuns as well, the lines
	// skipped are recorded in Lines.BlankRuns (TOON's strict reader
	// refuses a blank line inside an array it has read past).
	SkipBlank, BlankRuns bool

	// IsComment, when set, is asked about every line whose Text starts
	// with '#', and told whether its indentation holds a tab; the lines
	// it reports are skipped, before any indentation check.
	IsComment func(text string, tabbed bool) bool

	// SkipBOM skips a UTF-8 byte order mark at the start of the text: the
	// first line starts after it.
	SkipBOM bool

	// FinalNewline refuses a last line without a '\n'
	// (ProblemNoFinalNewline): GOON's lines all end in one.
	FinalNewline bool

	// MaxLines, when positive, refuses a text of more lines
	// (ProblemTooManyLines); MaxLineBytes, when positive, a line longer
	// than that, its line end excluded (ProblemTooLong).
	MaxLines, MaxLineBytes int
}

// Line is one line of a text as Lines reads it. Text and the offsets
// point into the source: reading a line allocates nothing.
type Line struct {
	Num    int    // 1-based line number
	Start  int    // byte offset of the line's first byte in the source
	Indent int    // bytes of indentation (0 when the rules have no IndentUnit)
	Depth  int    // indentation levels
	Text   string // the line after its indentation, without "\n" or "\r\n"
	Blank  bool   // nothing but indentation (only without SkipBlank)
}

// Col returns the 1-based column of the byte at offset off of the source,
// for an error positioned inside the line.
func (l *Line) Col(off int) int { return off - l.Start + 1 }

// TextStart returns the source offset of the first byte of Text.
func (l *Line) TextStart() int { return l.Start + l.Indent }

// LineProblem names why Lines refused a text; a format words the error
// its own way (or returns the *LineError as it is).
type LineProblem uint8

// The problems Lines reports.
const (
	ProblemTab            LineProblem = iota + 1 // a tab in the indentation (StrictIndent)
	ProblemIndent                                // indentation not a multiple of IndentUnit (StrictIndent)
	ProblemNoFinalNewline                        // the last line ends without '\n' (FinalNewline)
	ProblemTooManyLines                          // more lines than MaxLines
	ProblemTooLong                               // a line longer than MaxLineBytes
)

// LineError is the error Lines stops with: the problem and where it is.
type LineError struct {
	Problem LineProblem
	Line    int // 1-based line number
	Col     int // 1-based column of the offending byte (1 for the whole line)
	Offset  int // byte offset of the offending byte in the source
	N       int // the indentation, the line's length or the line count, as the problem counts
	Limit   int // the unit or bound broken (IndentUnit, MaxLines, MaxLineBytes); 0 otherwise
}

func (e *LineError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col) + ": " + e.Msg()
}

// Msg words the problem without its position, for a format's own
// positioned error.
func (e *LineError) Msg() string {
	switch e.Problem {
	case ProblemTab:
		return "a tab in the indentation"
	case ProblemIndent:
		return "an indentation of " + strconv.Itoa(e.N) + " spaces, not a multiple of " + strconv.Itoa(e.Limit)
	case ProblemNoFinalNewline:
		return "the last line does not end with a newline"
	case ProblemTooManyLines:
		return "more than " + strconv.Itoa(e.Limit) + " lines (the limit)"
	case ProblemTooLong:
		return "a line of " + strconv.Itoa(e.N) + " bytes, longer than the limit of " + strconv.Itoa(e.Limit)
	}
	return "unknown line problem " + strconv.Itoa(int(e.Problem))
}

// LineRange is a run of lines, first to last (1-based numbers).
type LineRange struct{ First, Last int }

// Lines reads a text line by line under a format's LineRules. It is a
// value, held in the reader that uses it; Next fills Line without
// allocating, and Peek looks one line ahead for a reader that decides by
// the next line's depth. It is not safe for concurrent use.
//
//	ls := textwire.NewLines(src, &rules)
//	for ls.Next() {
//		use(&ls.Line)
//	}
//	if err := ls.Err(); err != nil { ... }
type Lines struct {
	// Line is the line the last successful Next or Read read.
	Line Line
	// BlankRuns holds the runs of blank lines skipped so far, in order
	// (SkipBlank and BlankRuns).
	BlankRuns []LineRange

	src    string
	pos    int // offset of the next line
	num    int // number of the last line read
	rules  *LineRules
	plain  bool // rules that only split: the fast path of Next
	peeked bool // next holds the next line (has), or its end (!has)
	has    bool
	next   Line
	err    *LineError
}

// NewLines returns a reader of src under rules, which it keeps (the
// caller does not change them while reading). A leading UTF-8 byte order
// mark is part of the first line: a format that allows one skips it
// before.
func NewLines(src string, rules *LineRules) Lines {
	plain := rules.IndentUnit == 0 && rules.TrimRight == "" && !rules.SkipBlank &&
		rules.IsComment == nil && rules.MaxLines <= 0 && rules.MaxLineBytes <= 0
	l := Lines{src: src, rules: rules, plain: plain}
	if rules.SkipBOM && strings.HasPrefix(src, "\uFEFF") {
		l.pos = len("\uFEFF")
	}
	return l
}

// Check checks, before the first Next, what the rules say of the whole
// text: the final newline (FinalNewline) and the line count (MaxLines).
// It costs one pass of strings.Count; a reader that calls it refuses a
// text before reading any of it, one that does not meets the same
// problems when Next reaches them. It returns a *LineError or nil.
func (l *Lines) Check() error {
	r := l.rules
	if !r.FinalNewline && r.MaxLines <= 0 || l.src == "" {
		return nil
	}
	n := strings.Count(l.src, "\n")
	last := l.src[len(l.src)-1] != '\n'
	if last {
		n++
	}
	if r.MaxLines > 0 && n > r.MaxLines {
		off := 0
		for range r.MaxLines {
			off += strings.IndexByte(l.src[off:], '\n') + 1
		}
		l.fail(ProblemTooManyLines, r.MaxLines+1, off, off, n, r.MaxLines)
	} else if last && r.FinalNewline {
		start := strings.LastIndexByte(l.src, '\n') + 1
		l.fail(ProblemNoFinalNewline, n, len(l.src), start, 0, 0)
	}
	return l.Err()
}

// Next reads the next line into l.Line. It reports false at the end of
// the text and at the first problem, which Err then returns.
func (l *Lines) Next() bool {
	if l.peeked {
		l.peeked = false
		if l.has {
			l.Line.set(&l.next)
		}
		return l.has
	}
	return l.scan(&l.Line)
}

// Peek returns the next line without reading it, or nil at the end of the
// text and at a problem (Err). The line it returns stays as it is until
// the next Next or Read.
func (l *Lines) Peek() *Line {
	if !l.peeked {
		l.peeked, l.has = true, l.scan(&l.next)
	}
	if l.has {
		return &l.next
	}
	return nil
}

// Read reads the next line, as Next does, and returns it (l.Line), or
// nil at the end of the text and at a problem (Err).
func (l *Lines) Read() *Line {
	if !l.Next() {
		return nil
	}
	return &l.Line
}

// set copies m into l field by field: a whole-struct copy into the heap
// costs a bulk write barrier while the collector runs.
func (l *Line) set(m *Line) {
	l.Num, l.Start, l.Indent, l.Depth, l.Text, l.Blank = m.Num, m.Start, m.Indent, m.Depth, m.Text, m.Blank
}

// Skip passes over the next raw line, which a format reads itself (a
// header line), and returns it without its line end; the line after it
// is read, and numbered, as the next one. It returns "" at the end of the
// text.
func (l *Lines) Skip() string {
	rest := l.src[l.pos:]
	i := strings.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
		l.pos = len(l.src)
	} else {
		l.pos += i + 1
	}
	if rest != "" {
		l.num++
	}
	return strings.TrimSuffix(rest[:i], "\r")
}

// scan reads the next line the rules let a reader see into ln.
func (l *Lines) scan(ln *Line) bool {
	for l.pos < len(l.src) {
		rest := l.src[l.pos:]
		start := l.pos
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			if l.rules.FinalNewline && (l.rules.MaxLines <= 0 || l.num < l.rules.MaxLines) {
				l.fail(ProblemNoFinalNewline, l.num+1, len(l.src), start, 0, 0)
				return false
			}
			i = len(rest)
			l.pos = len(l.src)
		} else {
			l.pos += i + 1
		}
		text := rest[:i]
		if i > 0 && text[i-1] == '\r' {
			text = text[:i-1]
		}
		l.num++
		if l.plain {
			ln.Num, ln.Start, ln.Indent, ln.Depth, ln.Text, ln.Blank = l.num, start, 0, 0, text, text == ""
			return true
		}
		if ok, skip := l.shape(ln, start, text); !skip {
			return ok
		}
	}
	return false
}

// shape fills ln from a line's text under rules that indent, trim, skip
// or bound; skip reports a line the reader does not see.
func (l *Lines) shape(ln *Line, start int, text string) (ok, skip bool) {
	r := l.rules
	if r.MaxLines > 0 && l.num > r.MaxLines {
		l.fail(ProblemTooManyLines, l.num, start, start, l.num, r.MaxLines)
		return false, false
	}
	if r.MaxLineBytes > 0 && len(text) > r.MaxLineBytes {
		l.fail(ProblemTooLong, l.num, start+r.MaxLineBytes, start, len(text), r.MaxLineBytes)
		return false, false
	}
	indent, depth, tab := 0, 0, -1
	if r.IndentUnit > 0 {
		tabs := 0
		for indent < len(text) && (text[indent] == ' ' || text[indent] == '\t') {
			if text[indent] == '\t' {
				if tab < 0 {
					tab = indent
				}
				tabs++
			}
			indent++
		}
		depth = (indent-tabs)/r.IndentUnit + tabs
	}
	body := text[indent:]
	if r.TrimRight != "" {
		e := len(body)
	trim: // a loop over the few bytes of TrimRight costs no call
		for e > 0 {
			for i := 0; i < len(r.TrimRight); i++ {
				if body[e-1] == r.TrimRight[i] {
					e--
					continue trim
				}
			}
			break
		}
		body = body[:e]
	}
	if body == "" {
		if tab >= 0 && r.TabInBlank && r.StrictIndent {
			l.fail(ProblemTab, l.num, start+tab, start, indent, 0)
			return false, false
		}
		if r.SkipBlank {
			if r.BlankRuns {
				l.blank()
			}
			return false, true
		}
	}
	if body != "" && body[0] == '#' && r.IsComment != nil && r.IsComment(body, tab >= 0) {
		return false, true
	}
	if body != "" && r.StrictIndent {
		if tab >= 0 {
			l.fail(ProblemTab, l.num, start+tab, start, indent, 0)
			return false, false
		}
		if depth*r.IndentUnit != indent { // no tab: depth is indent/IndentUnit
			l.fail(ProblemIndent, l.num, start, start, indent, r.IndentUnit)
			return false, false
		}
	}
	ln.Num, ln.Start, ln.Indent, ln.Depth, ln.Text, ln.Blank = l.num, start, indent, depth, body, body == ""
	return true, false
}

// blank records the line just scanned as blank, in one run with those
// just before it.
func (l *Lines) blank() {
	if n := len(l.BlankRuns); n > 0 && l.BlankRuns[n-1].Last == l.num-1 {
		l.BlankRuns[n-1].Last = l.num
	} else {
		l.BlankRuns = append(l.BlankRuns, LineRange{l.num, l.num})
	}
}

func (l *Lines) fail(p LineProblem, num, off, lineStart, n, limit int) {
	l.err = &LineError{Problem: p, Line: num, Col: off - lineStart + 1, Offset: off, N: n, Limit: limit}
	l.pos = len(l.src)
}

// Err returns the problem Next stopped at, or nil at the end of the text.
// It is a *LineError.
func (l *Lines) Err() error {
	if l.err == nil {
		return nil
	}
	return l.err
}

// Offset returns the source offset of the next line: the bytes before it
// have been read (a line Peek returned among them).
func (l *Lines) Offset() int { return l.pos }

// Rest returns the text from Offset to the end.
func (l *Lines) Rest() string { return l.src[l.pos:] }

// InvalidUTF8 returns the offset of the first byte of s that does not
// start a valid UTF-8 encoding, or -1 when s is valid. A format calls it
// on a text utf8.ValidString refused, and positions the error with
// LineCol.
func InvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// LineCol returns the 1-based line and column (in bytes) of offset off
// of s, for an error found by offset.
func LineCol(s string, off int) (line, col int) {
	off = min(max(off, 0), len(s))
	before := s[:off]
	nl := strings.LastIndexByte(before, '\n')
	return strings.Count(before, "\n") + 1, off - nl
}
