package toonread

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
)

// reserve makes room for n more bytes in the arena.
func (d *decoder) reserve(n int) {
	if cap(d.arena)-len(d.arena) < n {
		size := max(min(max(2*cap(d.arena), minArena), len(d.src)), n)
		d.arena = make([]byte, 0, size)
	}
}

// minArena is the smallest chunk unescape allocates, unless the input is
// shorter.
const minArena = 4 << 10

// primitive decodes a value token (spec §4); off is its offset in d.src.
func (d *decoder) primitive(l *textwire.Line, tok string, off int) jsonvalue.Value {
	var s Scalar
	d.scalar(l, tok, off, &s)
	return d.box(&s)
}

// box returns s as a jsonvalue.Value.
func (d *decoder) box(s *Scalar) jsonvalue.Value {
	switch s.Kind {
	case Null:
		return nil
	case Bool:
		return s.Bool
	case Number:
		if i, _ := s.Num.Int64(); s.Num.IsInt() && i >= 0 && i < int64(len(smallInts)) {
			return smallInts[i]
		}
		return d.boxNum(s.Num)
	}
	return d.boxStr(s.Str)
}

// scalar decodes a value token (spec §4) at offset off of d.src into s,
// setting only the field of its Kind (see line.set).
func (d *decoder) scalar(l *textwire.Line, tok string, off int, s *Scalar) {
	t, toff := trimSpacesOff(tok, 0)
	off += toff
	if t == "" {
		s.Kind, s.Str = String, ""
		return
	}
	switch t[0] {
	case '"':
		v := d.quoted(l, t, off)
		d.checkString(l, len(v), off)
		s.Kind, s.Str = String, v
		return
	case 't':
		if t == "true" {
			s.Kind, s.Bool = Bool, true
			return
		}
	case 'f':
		if t == "false" {
			s.Kind, s.Bool = Bool, false
			return
		}
	case 'n':
		if t == "null" {
			s.Kind = Null
			return
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n, ok := textwire.SmallInt(t); ok {
			s.Kind, s.Num = Number, jsonvalue.Int(n)
			return
		}
		if n, ok := jsonvalue.LiteralNumber(t); ok {
			s.Kind, s.Num = Number, n
			return
		}
	}
	d.checkString(l, len(t), off)
	s.Kind, s.Str = String, t
}

// quoted decodes a quoted token that must end at its closing quote.
func (d *decoder) quoted(l *textwire.Line, t string, off int) string {
	q := closingQuote(t, 0)
	if q < 0 {
		d.fail(l, off, "unterminated string")
	}
	if q != len(t)-1 {
		d.fail(l, off+q+1, "unexpected characters after closing quote")
	}
	return d.unescape(l, t[1:q], off+1)
}

// unescape decodes the escapes of spec §7.1 in s (at offset off).
func (d *decoder) unescape(l *textwire.Line, s string, off int) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	// Unescaped into the arena, whose chunks double up to the input's
	// length; the string points into the chunk, whose bytes are written
	// once and never again.
	d.reserve(len(s))
	start := len(d.arena)
	b := append(d.arena, s[:i]...)
	b, err := textwire.TOONUnescaping.Unescape(b, s[i:])
	if err != nil {
		d.fail(l, off+i+err.Off, "%s", err.Msg)
	}
	d.arena = b
	if len(b) == start {
		return ""
	}
	return unsafe.String(&b[start], len(b)-start)
}

// closingQuote returns the index of the quote closing the one at start,
// skipping backslash escapes, or -1.
func closingQuote(s string, start int) int {
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
			}
		case '"':
			return i
		}
	}
	return -1
}

// unquotedIndex returns the index of the first c at or after start that is
// outside double quotes, or -1.
func unquotedIndex(s string, c byte, start int) int {
	if start <= len(s) && strings.IndexByte(s[start:], '"') < 0 {
		// No quote ahead: the first c is the answer, found at memory
		// speed on a long line.
		if i := strings.IndexByte(s[start:], c); i >= 0 {
			return start + i
		}
		return -1
	}
	inQuotes := false
	for i := start; i < len(s); i++ {
		ch := s[i]
		if inQuotes && ch == '\\' && i+1 < len(s) {
			i++
			continue
		}
		if ch == '"' {
			inQuotes = !inQuotes
			continue
		}
		if ch == c && !inQuotes {
			return i
		}
	}
	return -1
}

func isKeyValue(c string) bool { return unquotedIndex(c, ':', 0) >= 0 }

// isDataRow tells a tabular row from a key-value line (spec §9.3).
func isDataRow(c string, delim byte) bool {
	// The common row: a delimiter before any colon or quote.
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case delim:
			return true
		case ':':
			return false
		case '"':
			colon := unquotedIndex(c, ':', 0)
			return colon < 0 || unquotedIndex(c[:colon], delim, 0) >= 0
		}
	}
	return true
}

// trimSpacesOff returns s[from:] without surrounding spaces (U+0020 only)
// and the offset in s where the result starts.
func trimSpacesOff(s string, from int) (string, int) {
	i, j := from, len(s)
	for i < j && s[i] == ' ' {
		i++
	}
	for j > i && s[j-1] == ' ' {
		j--
	}
	return s[i:j], i
}

// smallInts and oneByteStrings are the commonest short tokens boxed once,
// so that no value takes more than 16 bytes of heap per byte of its text.
var (
	smallInts      [256]jsonvalue.Value
	oneByteStrings [utf8.RuneSelf]jsonvalue.Value
)

func init() {
	for i := range smallInts {
		smallInts[i] = jsonvalue.Int(int64(i))
	}
	for i := range oneByteStrings {
		oneByteStrings[i] = string(rune(i))
	}
}
