package textwire

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// readAll reads src under rules and returns its lines and the error.
func readAll(src string, rules *LineRules) ([]Line, error) {
	ls := NewLines(src, rules)
	var out []Line
	for ls.Next() {
		out = append(out, ls.Line)
	}
	return out, ls.Err()
}

var indented = LineRules{IndentUnit: 2, StrictIndent: true, TrimRight: " \t", SkipBlank: true, SkipBOM: true,
	IsComment: func(text string, tabbed bool) bool { return !tabbed && (len(text) == 1 || text[1] == ' ') }}

// tabInBlank returns r with TabInBlank set.
func tabInBlank(r LineRules) LineRules {
	r.TabInBlank = true
	return r
}

func TestLines(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		rules LineRules
		want  []Line
		err   *LineError
	}{
		{"plain lines, CRLF and a blank", "a\r\n\nb c\n", LineRules{},
			[]Line{{Num: 1, Text: "a"}, {Num: 2, Start: 3, Blank: true}, {Num: 3, Start: 4, Text: "b c"}}, nil},
		{"no final newline allowed", "a\nb", LineRules{},
			[]Line{{Num: 1, Text: "a"}, {Num: 2, Start: 2, Text: "b"}}, nil},
		{"no final newline refused", "a\nb", LineRules{FinalNewline: true},
			[]Line{{Num: 1, Text: "a"}}, &LineError{Problem: ProblemNoFinalNewline, Line: 2, Col: 2, Offset: 3}},
		{"leading spaces are content without a unit", "  a\n", LineRules{},
			[]Line{{Num: 1, Text: "  a"}}, nil},
		{"depth, trimming, blanks and comments", "k:\n  a: 1  \n\n  # note\n    b\t\n#x\n", indented,
			[]Line{{Num: 1, Text: "k:"}, {Num: 2, Start: 3, Indent: 2, Depth: 1, Text: "a: 1"},
				{Num: 5, Start: 22, Indent: 4, Depth: 2, Text: "b"}, {Num: 6, Start: 29, Text: "#x"}}, nil},
		{"a tab in the indentation", "a\n \tb\n", indented,
			[]Line{{Num: 1, Text: "a"}}, &LineError{Problem: ProblemTab, Line: 2, Col: 2, Offset: 3, N: 2}},
		{"uneven indentation", "a\n   b\n", indented,
			[]Line{{Num: 1, Text: "a"}}, &LineError{Problem: ProblemIndent, Line: 2, Col: 1, Offset: 2, N: 3, Limit: 2}},
		{"tabs count one level when not strict", "\t  a\n", LineRules{IndentUnit: 2},
			[]Line{{Num: 1, Indent: 3, Depth: 2, Text: "a"}}, nil},
		{"uneven indentation is blank-exempt", "a\n   \n", indented,
			[]Line{{Num: 1, Text: "a"}}, nil},
		{"a tab in a blank line is blank", "a\n  \t \nb\n", indented,
			[]Line{{Num: 1, Text: "a"}, {Num: 3, Start: 7, Text: "b"}}, nil},
		{"a tab in a blank line refused", "a\n  \t \nb\n", tabInBlank(indented),
			[]Line{{Num: 1, Text: "a"}}, &LineError{Problem: ProblemTab, Line: 2, Col: 3, Offset: 4, N: 4}},
		{"a tab in a blank line is blank when not strict", "a\n\t\nb\n", tabInBlank(LineRules{IndentUnit: 2, SkipBlank: true}),
			[]Line{{Num: 1, Text: "a"}, {Num: 3, Start: 4, Text: "b"}}, nil},
		{"too many lines", "a\nb\nc\n", LineRules{MaxLines: 2},
			[]Line{{Num: 1, Text: "a"}, {Num: 2, Start: 2, Text: "b"}},
			&LineError{Problem: ProblemTooManyLines, Line: 3, Col: 1, Offset: 4, N: 3, Limit: 2}},
		{"a line too long", "ab\nabcd\n", LineRules{MaxLineBytes: 3},
			[]Line{{Num: 1, Text: "ab"}}, &LineError{Problem: ProblemTooLong, Line: 2, Col: 4, Offset: 6, N: 4, Limit: 3}},
		{"empty text", "", LineRules{FinalNewline: true}, nil, nil},
		{"a byte order mark skipped", "\uFEFFa\n", indented, []Line{{Num: 1, Start: 3, Text: "a"}}, nil},
		{"a byte order mark kept", "\uFEFFa\n", LineRules{}, []Line{{Num: 1, Text: "\uFEFFa"}}, nil},
		{"only spaces trimmed", "a \t \n", LineRules{IndentUnit: 2, TrimRight: " "}, []Line{{Num: 1, Text: "a \t"}}, nil},
		{"a comment after a tab is content", "\t# c\n", LineRules{IndentUnit: 2, IsComment: indented.IsComment},
			[]Line{{Num: 1, Indent: 1, Depth: 1, Text: "# c"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(tc.src, &tc.rules)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			var le *LineError
			if tc.err == nil {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				return
			}
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LineError", err)
			}
			if diff := cmp.Diff(tc.err, le); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLinesCheck: Check refuses up front what Next would meet at the end,
// at the same position.
func TestLinesCheck(t *testing.T) {
	for _, tc := range []struct {
		src   string
		rules LineRules
	}{
		{"a\nb\nc", LineRules{FinalNewline: true}},
		{"a\nb\nc\nd\n", LineRules{MaxLines: 2}},
		{"a\nb\nc\nd", LineRules{MaxLines: 3, FinalNewline: true}},
	} {
		ls := NewLines(tc.src, &tc.rules)
		early := ls.Check()
		if ls.Next() {
			t.Errorf("%q: Next read a line after Check failed", tc.src)
		}
		_, late := readAll(tc.src, &tc.rules)
		if early == nil || late == nil {
			t.Fatalf("%q: Check = %v, Next's error = %v, want both", tc.src, early, late)
		}
		e, l := early.(*LineError), late.(*LineError)
		if e.Problem != l.Problem || e.Line != l.Line || e.Offset != l.Offset || e.Col != l.Col {
			t.Errorf("%q: Check = %+v, Next = %+v", tc.src, e, l)
		}
	}
	ls := NewLines("a\n", &LineRules{FinalNewline: true, MaxLines: 1})
	if err := ls.Check(); err != nil {
		t.Errorf("Check of a valid text = %v", err)
	}
}

// naiveLines is the oracle: the lines of src by strings.Split, shaped by
// the indented rules one step at a time.
func naiveLines(src string, r *LineRules) []Line {
	var out []Line
	parts := strings.Split(src, "\n")
	if strings.HasSuffix(src, "\n") {
		parts = parts[:len(parts)-1]
	}
	start := 0
	for i, p := range parts {
		lineStart := start
		start += len(p) + 1
		if i == 0 && r.SkipBOM && strings.HasPrefix(p, "\uFEFF") {
			p, lineStart = p[3:], 3
		}
		p = strings.TrimSuffix(p, "\r")
		body := strings.TrimLeft(p, " \t")
		indent := len(p) - len(body)
		body = strings.TrimRight(body, r.TrimRight)
		if body == "" && r.SkipBlank {
			continue
		}
		tabs := strings.Count(p[:indent], "\t")
		if strings.HasPrefix(body, "#") && r.IsComment != nil && r.IsComment(body, tabs > 0) {
			continue
		}
		out = append(out, Line{Num: i + 1, Start: lineStart, Indent: indent,
			Depth: (indent-tabs)/r.IndentUnit + tabs, Text: body, Blank: body == ""})
	}
	return out
}

func TestLinesMatchSplit(t *testing.T) {
	loose := indented
	loose.StrictIndent = false
	rapid.Check(t, func(t *rapid.T) {
		src := rapid.StringOf(rapid.SampledFrom([]rune{'a', ' ', '\t', '\n', '\r', '#', 'é'})).Draw(t, "src")
		got, err := readAll(src, &loose)
		if err != nil {
			t.Fatalf("loose rules refused %q: %v", src, err)
		}
		if diff := cmp.Diff(naiveLines(src, &loose), got); diff != "" {
			t.Fatalf("%q (-split +Lines):\n%s", src, diff)
		}
	})
}

func TestLinesAllocateNothing(t *testing.T) {
	src := strings.Repeat("k:\n  a: 1\n\n    b\r\n", 50)
	for _, rules := range []*LineRules{{}, &indented} {
		allocs := testing.AllocsPerRun(20, func() {
			ls := NewLines(src, rules)
			for ls.Next() {
			}
		})
		if allocs != 0 {
			t.Errorf("reading %d bytes made %v allocations, want 0", len(src), allocs)
		}
	}
}

func TestLinesPeekReadSkip(t *testing.T) {
	ls := NewLines("GCF x\r\na\n\n  b\n", &indented)
	if h := ls.Skip(); h != "GCF x" {
		t.Fatalf("Skip = %q", h)
	}
	p := ls.Peek()
	if p == nil || p.Text != "a" || p.Num != 2 || ls.Peek() != p {
		t.Fatalf("Peek = %+v, want line 2 \"a\", the same twice", p)
	}
	if r := ls.Read(); r == nil || *r != (Line{Num: 2, Start: 7, Text: "a"}) {
		t.Fatalf("Read = %+v", r)
	}
	if p := ls.Peek(); p == nil || *p != (Line{Num: 4, Start: 10, Indent: 2, Depth: 1, Text: "b"}) || ls.Line.Text != "a" {
		t.Fatalf("Peek = %+v, Line = %+v: peeking changed the line read", p, ls.Line)
	}
	if !ls.Next() || ls.Line.Num != 4 || ls.Peek() != nil || ls.Read() != nil || ls.Err() != nil {
		t.Fatalf("after the last line: Line %+v, Err %v", ls.Line, ls.Err())
	}
	if ls.Skip() != "" || ls.Rest() != "" || ls.Offset() != 14 {
		t.Fatalf("at the end: Rest %q, Offset %d", ls.Rest(), ls.Offset())
	}
}

func TestLinesBlankRuns(t *testing.T) {
	rules := indented
	rules.BlankRuns = true
	ls := NewLines("a\n\n  \n# c\nb\n\t\nc\n\n", &rules)
	var got []string
	for ls.Next() {
		got = append(got, ls.Line.Text)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, got); diff != "" || ls.Err() != nil {
		t.Fatalf("lines (-want +got):\n%s, err %v", diff, ls.Err())
	}
	// A comment ends a run; a line of a tab alone is blank.
	want := []LineRange{{2, 3}, {6, 6}, {8, 8}}
	if diff := cmp.Diff(want, ls.BlankRuns); diff != "" {
		t.Fatalf("BlankRuns (-want +got):\n%s", diff)
	}
	if ls := NewLines("a\n\n", &indented); ls.Next() && !ls.Next() && ls.BlankRuns != nil {
		t.Fatalf("BlankRuns recorded without the rule: %v", ls.BlankRuns)
	}
}

func TestInvalidUTF8AndLineCol(t *testing.T) {
	s := "ab\ncé\nd\xffe"
	off := InvalidUTF8(s)
	if off != 8 {
		t.Fatalf("InvalidUTF8 = %d, want 8", off)
	}
	if line, col := LineCol(s, off); line != 3 || col != 2 {
		t.Fatalf("LineCol = %d:%d, want 3:2", line, col)
	}
	if InvalidUTF8("ok é") != -1 {
		t.Fatal("InvalidUTF8 of valid text is not -1")
	}
}

func FuzzLines(f *testing.F) {
	f.Add("k:\n  a: 1\n\n  # c\n\t b\r\n", uint8(2), true)
	f.Add("a\nb", uint8(0), false)
	f.Add("\uFEFF  # x\n\t\ta \t\r\n", uint8(1), false)
	f.Fuzz(func(t *testing.T, src string, unit uint8, strict bool) {
		rules := indented
		rules.IndentUnit = int(unit%4) + 1
		rules.StrictIndent = strict
		rules.MaxLineBytes = 64
		got, err := readAll(src, &rules)
		last := 0
		for _, l := range got {
			if l.Num <= last || l.Start < 0 || l.TextStart() > len(src) || !strings.HasPrefix(src[l.TextStart():], l.Text) {
				t.Fatalf("line %+v out of place in %q", l, src)
			}
			last = l.Num
		}
		var le *LineError
		if err != nil && (!errors.As(err, &le) || le.Offset < 0 || le.Offset > len(src) || le.Msg() == "") {
			t.Fatalf("error %v is not a positioned *LineError", err)
		}
		if err == nil && !strict {
			if diff := cmp.Diff(naiveLines(src, &rules), got); diff != "" && !hasLongLine(src, 64) {
				t.Fatalf("%q (-split +Lines):\n%s", src, diff)
			}
		}
	})
}

func hasLongLine(src string, n int) bool {
	for _, l := range strings.Split(src, "\n") {
		if len(strings.TrimSuffix(l, "\r")) > n {
			return true
		}
	}
	return false
}

func BenchmarkLines(b *testing.B) {
	src := strings.Repeat("User(3):\n1243277 username=ghost1\n  a: 1\n", 1000)
	for _, tc := range []struct {
		name  string
		rules *LineRules
	}{{"plain", &LineRules{}}, {"indented", &indented}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				ls := NewLines(src, tc.rules)
				for ls.Next() {
				}
			}
		})
	}
}
