package gcfvalue

import (
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
)

// quoted reads the quoted string at index i of l's content.
func (d *decoder) quoted(l *line, i int) (string, int) {
	s, end, kind, at := unquote(l.Text, i)
	if kind != "" {
		d.failIn(l, at, kind, quoteErrMsg[kind])
	}
	return s, end
}

// small boxes the integers 0 to 255 once.
var small = func() (b [256]Value) {
	for i := range b {
		b[i] = jsonvalue.Int(int64(i))
	}
	return b
}()

// box is sc as a Value, its memory charged.
func (d *decoder) box(l *line, sc *Scalar) Value {
	switch sc.Kind {
	case Bool:
		return sc.Bool
	case Number:
		if sc.Num.IsInt() {
			if i, _ := sc.Num.Int64(); i >= 0 && i < int64(len(small)) {
				return small[i]
			}
		}
		d.charge(l, memBox)
		return sc.Num
	case String:
		if sc.quoted {
			d.charge(l, memBox+int64(len(sc.Str)))
		} else {
			d.charge(l, memBox)
		}
		return sc.Str
	}
	return nil
}

// The kinds of a Scalar: a value (Null, Bool, Number, String), or in a
// table's cell, Absent (~) or Marker (^ or ^{fields}, an attachment's).
const (
	Null = iota
	Bool
	Number
	String
	Absent
	Marker
)

// Scalar is a scalar token decoded: its Kind, and the Bool, Num or Str
// it holds (the other two mean nothing).
type Scalar struct {
	Kind   uint8
	Bool   bool
	quoted bool
	at     int // the index of the token in its line's content
	Num    jsonvalue.Number
	Str    string
	decl   []field // a ^{fields} Marker's schema
}

// scalarAt decodes the scalar at content[s:e] of l (spec §2.1) into sc,
// trimming blanks. With cell false (a value context), ~ and ^ are errors;
// in a table's cell they are Absent and Marker.
func (d *decoder) scalarAt(l *line, s, e int, cell bool, sc *Scalar) {
	c := l.Text
	// Field by field: a whole-struct write into the heap costs a bulk
	// write barrier while the collector runs, on every cell.
	sc.Kind, sc.Bool, sc.quoted, sc.at, sc.Num, sc.Str = String, false, false, s, jsonvalue.Number{}, ""
	if sc.decl != nil {
		sc.decl = nil
	}
	for s < e && (c[s] == ' ' || c[s] == '\t') {
		s++
	}
	for e > s && (c[e-1] == ' ' || c[e-1] == '\t') {
		e--
	}
	t := c[s:e]
	if t == "" {
		return
	}
	switch t[0] {
	case '"':
		str, end := d.quoted(l, s)
		if end != e {
			d.failIn(l, end, KindTrailingCharacters, "characters after the closing quote")
		}
		d.checkString(l, s, len(str))
		sc.Str, sc.quoted = str, true
		return
	case '~':
		if t == "~" {
			if !cell {
				d.failIn(l, s, KindInvalidMissing, "~ (absent) is valid only in a tabular row cell")
			}
			sc.Kind = Absent
			return
		}
	case '^':
		if t == "^" || (len(t) > 1 && t[1] == '{' && t[len(t)-1] == '}') {
			if !cell {
				d.failIn(l, s, KindInvalidAttachment, "an attachment marker is valid only in a tabular row cell")
			}
			sc.Kind = Marker
			if t != "^" {
				fs, ok := parseInlineDecl(t[1:])
				if !ok {
					d.failIn(l, s, KindInvalidAttachment, "a malformed inline schema "+excerpt(t))
				}
				sc.decl = fs
			}
			return
		}
	case '-':
		if t == "-" {
			sc.Kind = Null
			return
		}
	case 't':
		if t == "true" {
			sc.Kind, sc.Bool = Bool, true
			return
		}
	case 'f':
		if t == "false" {
			sc.Kind = Bool
			return
		}
	}
	if t[0] == '-' || isDigit(t[0]) { // as a number starts
		if n, isNum, ok := ParseNumber(t); isNum {
			if !ok {
				d.failIn(l, s, KindOutOfRange, "the number "+excerpt(t)+" is outside int64 or float64 (model it as a string)")
			}
			sc.Kind, sc.Num = Number, n
			return
		}
	}
	d.checkString(l, s, len(t))
	sc.Str = t
}

// plainScalar decodes the commonest tokens c[s:e] (after blanks, from
// at) as scalarAt does, without its rules: a word that starts with no
// keyword's, marker's or number's byte, and a small integer. It reports
// false for any other token, which scalarAt reads.
func (d *decoder) plainScalar(c string, at, s, e int, sc *Scalar) bool {
	if s >= e || c[e-1] <= ' ' || e-s > d.lim.maxString {
		return false
	}
	t, v, kind := c[s:e], int64(0), uint8(String)
	if b := t[0]; b >= '1' && b <= '9' {
		var ok bool
		if v, ok = textwire.SmallInt(t); !ok {
			return false
		}
		t, kind = "", Number
	} else if b < 'A' || b == '^' || b == '~' || b == 't' || b == 'f' {
		return false
	}
	sc.Kind, sc.Bool, sc.quoted, sc.at, sc.Num, sc.Str = kind, false, false, at, jsonvalue.Int(v), t
	if sc.decl != nil {
		sc.decl = nil
	}
	return true
}

// scalar decodes the value text from index i of l's content to its end.
func (d *decoder) scalar(l *line, i int) Value {
	var sc Scalar
	d.scalarAt(l, i, len(l.Text), false, &sc)
	return d.box(l, &sc)
}

// field is one name of a field declaration.
type field struct {
	name string
	id   bool // marked @ (the identity column, spec §10a.1)
	gt   bool // the name holds a '>' (see isPath), found as it is read
}

// parseInlineDecl parses "{a,b,...}" (the whole of s) as the field
// declaration of an inline schema, without @ marks or duplicates, its
// names counted first.
func parseInlineDecl(s string) ([]field, bool) {
	n, end := inlineNames(s, 0, nil)
	if end != len(s) {
		return nil, false
	}
	out := make([]field, 0, n)
	var seq keyset.Seq
	name := func(k int) string { return out[k].name }
	if _, end := inlineNames(s, 0, func(k string) bool {
		if seq.Add(k, name) {
			return false
		}
		out = append(out, field{name: k, gt: strings.IndexByte(k, '>') >= 0})
		return true
	}); end < 0 || seq.Repeat(name) >= 0 {
		return nil, false
	}
	return out, true
}

// inlineNames walks the names, bare or quoted (spec §2a.3), of the
// declaration "{a,b,...}" at s[i], giving each to emit, when not nil,
// until it returns false; it returns their number and the index after
// the '}', or -1 when s[i:] starts no such declaration.
func inlineNames(s string, i int, emit func(string) bool) (int, int) {
	if i >= len(s) || s[i] != '{' {
		return 0, -1
	}
	for n, i := 1, i+1; ; n++ {
		var k string
		if i < len(s) && s[i] == '"' {
			str, end, kind, _ := unquote(s, i)
			if kind != "" {
				return 0, -1
			}
			k, i = str, end
		} else {
			j := BareKeyEnd(s, i)
			k, i = s[i:j], j
			if k == "" {
				return 0, -1
			}
		}
		if emit != nil && !emit(k) || i >= len(s) || s[i] != ',' && s[i] != '}' {
			return 0, -1
		}
		if s[i] == '}' {
			return n, i + 1
		}
		i++
	}
}

// schemaEnd returns the index after the inline object schema marker
// (spec §7.4.5.1) ^{name,...} that starts at c[i] and ends the token
// (before delim or the end of c); or -1 when c[i:] starts no such marker
// (a bare string such as ^{ or ^{a|b}).
func schemaEnd(c string, i int, delim byte) int {
	if !strings.HasPrefix(c[i:], "^{") {
		return -1
	}
	if _, end := inlineNames(c, i+1, nil); end > 0 && (end == len(c) || c[end] == delim) {
		return end
	}
	return -1
}

// scalars decodes the delim-separated scalars of l's content from index
// i (see scalarAt), appending the first keep of them to out (or, with
// vals, each as a Value to vals), and returns out and their number. A
// token that starts with '"' (after blanks) runs to its closing quote,
// and an inline schema to its '}', so a delimiter inside them is data.
func (d *decoder) scalars(l *line, i int, delim byte, cell bool, out []Scalar, keep int, vals *[]Value) ([]Scalar, int) {
	c := l.Text
	var spare Scalar
	for n := 1; ; n++ {
		if n > d.lim.maxFields {
			d.failLimitIn(l, i, "MaxElements", "more values on a line than the limit of "+itoa(d.lim.maxFields))
		}
		sc := &spare
		if n <= keep {
			if len(out) == cap(out) {
				d.charge(l, memScalar*int64(len(out)+8))
				out = append(out, Scalar{})
			} else {
				out = out[:len(out)+1] // scalarAt sets the whole Scalar
			}
			sc = &out[len(out)-1]
		}
		s := i
		for s < len(c) && (c[s] == ' ' || c[s] == '\t') {
			s++
		}
		e := len(c)
		if s < len(c) && c[s] == '"' {
			str, end := d.quoted(l, s)
			d.checkString(l, s, len(str))
			*sc = Scalar{Kind: String, Str: str, quoted: true, at: i}
			for e = end; e < len(c) && (c[e] == ' ' || c[e] == '\t'); e++ {
			}
			if e < len(c) && c[e] != delim {
				d.failIn(l, end, KindTrailingCharacters, "characters after the closing quote")
			}
		} else {
			if j := strings.IndexByte(c[s:], delim); j >= 0 {
				e = s + j
			}
			if s < len(c) && c[s] == '^' {
				if end := schemaEnd(c, s, delim); end > s {
					e = end
				}
			}
			if !d.plainScalar(c, i, s, e, sc) {
				d.scalarAt(l, i, e, cell, sc)
			}
		}
		if vals != nil {
			d.charge(l, memItem)
			*vals = append(*vals, d.box(l, sc))
		}
		if e == len(c) {
			return out, n
		}
		i = e + 1
	}
}
