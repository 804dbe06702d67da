package goon

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The value rules of GOON 1.0.0 that the encoder and the decoder share:
// truncation limits and key_len breadcrumbs, the bytes of bare values and
// names, keywords, quoting, integers, ClickHouse datetimes, and a value's
// text both ways (below: how it is written, what it reads back as).

const (
	// longTextLimit is the code-point limit of the long-text keys body,
	// description, name, note and title.
	longTextLimit = 200
	// valueLimit is the code-point limit of every other string value.
	valueLimit = 1000
)

// limitFor returns the truncation limit, in code points, of a string value
// written under key.
func limitFor(key string) int {
	switch key {
	case "body", "description", "name", "note", "title":
		return longTextLimit
	}
	return valueLimit
}

// bareByte[c] is true for the bytes a value may be written with unquoted:
// [A-Za-z0-9_\-:./@+].
var bareByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "_-:./@+" {
		t[c] = true
	}
	return t
}()

// nameByte[c] is true for the bytes of a GOON name: [A-Za-z0-9_].
var nameByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	t['_'] = true
	return t
}()

// isName reports whether s can be written as a GOON name (entity type,
// relationship type, property key, column name, alias): one or more ASCII
// letters, digits and underscores.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameByte[s[i]] {
			return false
		}
	}
	return true
}

// isKeyword reports whether s is one of the bare tokens a string must not
// be written as.
func isKeyword(s string) bool {
	return s == "true" || s == "false" || s == "null"
}

// isClickHouseDatetime reports whether s is a valid ClickHouse datetime,
// YYYY-MM-DD HH:MM:SS with an optional fraction (a '.' and one or more
// digits): a real calendar date (proleptic Gregorian), hour 00–23, minute
// 00–59, second 00–60 (a leap second).
func isClickHouseDatetime(s string) bool {
	if len(s) < 19 || len(s) == 20 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for j := i; j < i+n; j++ {
			c := s[j]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	second, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 60 {
		return false
	}
	if len(s) == 19 {
		return true
	}
	if s[19] != '.' {
		return false
	}
	for i := 20; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// fillRune stands in, in a restored truncated value, for the control
// characters that quoting dropped from the kept prefix (see the package
// documentation): quoting drops it again, so the value re-encodes to the
// same text.
const fillRune = '\x1a'

// padByte pads a restored truncated value to its declared length.
const padByte = '.'

func isBreadcrumbKey(k, key string) bool {
	return len(k) == len(key)+4 && strings.HasPrefix(k, key) && strings.HasSuffix(k, "_len")
}

// isCrumb reports whether text, written under key (quoted or bare),
// followed by key_len=total reads as a truncated value and its
// breadcrumb: text ends in "...", has at most the key's limit in code
// points (exactly the limit when bare, since only quoting drops
// characters), and total exceeds the limit. The decoder asks it of what
// it reads, and the encoder of what it writes, to keep such a pair
// together (see keyLenAfter).
func isCrumb(key, text string, quoted bool, total int64) bool {
	limit := limitFor(key)
	if total <= int64(limit) || !strings.HasSuffix(text, "...") {
		return false
	}
	l := utf8.RuneCountInString(text)
	return l <= limit && (quoted || l == limit)
}

// parseInt parses a GOON integer: JSON's integer grammar, an optional '-'
// and no leading zeros, exact in an int64, except "-0", which the encoder
// never writes.
func parseInt(s string) (int64, bool) {
	if s == "-0" {
		return 0, false
	}
	return textwire.ParseInt(s)
}

// Value text, both ways: how a value is written (bare, quoted, in T-form,
// truncated with a key_len breadcrumb; a list as its JSON text) and what a
// bare token or quoted text reads back as.

// appendText appends the string s written under key: truncated past the
// key's limit (with a key_len breadcrumb when breadcrumb is set), a
// ClickHouse datetime in T-form, bare when it may be, quoted otherwise.
// forceQuote writes it quoted even when it could be bare. s is not empty.
func appendText(b []byte, key, s string, breadcrumb, forceQuote bool) []byte {
	limit := limitFor(key)
	body, count, trunc := s, 0, false
	if len(s) > limit {
		if count = utf8.RuneCountInString(s); count > limit {
			trunc = true
			body = s[:runeOffset(s, limit-3)]
		}
	}
	switch {
	case !trunc && isClickHouseDatetime(body):
		if forceQuote {
			b = append(b, '"')
		}
		b = append(b, body[:10]...)
		b = append(b, 'T')
		b = append(b, body[11:]...)
		if forceQuote {
			b = append(b, '"')
		}
	case !forceQuote && isBare(body) && (trunc || !isKeyword(body)):
		b = append(b, body...)
		if trunc {
			b = append(b, "..."...)
		}
	default:
		b = append(b, '"')
		b = textwire.GOON.Append(b, body)
		if trunc {
			b = append(b, "..."...)
		}
		b = append(b, '"')
	}
	if trunc && breadcrumb {
		b = append(b, ' ')
		b = append(b, key...)
		b = append(b, "_len="...)
		b = strconv.AppendInt(b, int64(count), 10)
	}
	return b
}

// appendCursor appends a next_cursor token: as it is when the value rule
// lets it be bare (GKG's tokens always are), otherwise quoted and escaped
// by the value rule. A cursor is never truncated and never put in T-form:
// it is opaque, and a shortened one would fetch nothing.
func appendCursor(b []byte, s string) []byte {
	if cursorBare(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	b = textwire.GOON.Append(b, s)
	return append(b, '"')
}

// cursorBare reports whether a cursor is written bare.
func cursorBare(s string) bool { return s != "" && isBare(s) && !isKeyword(s) }

func isBare(s string) bool {
	for i := 0; i < len(s); i++ {
		if !bareByte[s[i]] {
			return false
		}
	}
	return true
}

// runeOffset returns the byte offset of the n-th code point of s (each
// invalid byte counting as one).
func runeOffset(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// dropsInPrefix reports whether the part of s that truncation under limit
// keeps holds a character quoting drops (see textwire.GOON).
func dropsInPrefix(s string, limit int) bool {
	for i, n := 0, 0; i < len(s) && n < limit-3; n++ {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			return true
		}
		i += size
	}
	return false
}

// listText returns the JSON text in e.list as a string without copying it.
// The string is valid until e.list is next written; appendText, which it is
// passed to, reads it and keeps nothing.
func (e *encoder) listText() string {
	return unsafe.String(unsafe.SliceData(e.list), len(e.list))
}

// bareValue reads a bare token back as the value that writes it: true,
// false, null; an int when formatting the int gives the token; a finite
// float when formatting the float (shortest, no exponent) gives the token;
// otherwise a string.
func bareValue(tok string) wire.Value {
	switch tok {
	case "true":
		return wire.Bool(true)
	case "false":
		return wire.Bool(false)
	case "null":
		return wire.Null()
	}
	if i, ok := parseInt(tok); ok {
		return wire.Int(i)
	}
	// Only a token of JSON's number grammar can be what AppendFloat
	// writes; checking that first keeps ParseFloat (and the error it
	// allocates) away from dates, versions and other near-numbers.
	if end, _, ok := textwire.ScanNumber(tok, 0); ok && end == len(tok) {
		if f, err := strconv.ParseFloat(tok, 64); err == nil && !math.IsInf(f, 0) {
			var buf [64]byte
			if string(strconv.AppendFloat(buf[:0], f, 'f', -1, 64)) == tok {
				return wire.Float(f)
			}
		}
	}
	return wire.String(tok)
}

// quotedString returns the string a quoted value reads back as: its text,
// plus one fillRune when the encoder would write the text itself some other
// way (bare, in T-form, or not at all, being empty). That happens only when
// quoting dropped control characters from the original; the fillRune is
// dropped again, so the value re-encodes to the same quoted text.
// forceQuote is set in node-kind group columns, where strings are always
// quoted.
func quotedString(t string, forceQuote bool) string {
	if t == "" || isClickHouseDatetime(t) || (!forceQuote && isBare(t) && !isKeyword(t)) {
		return t + string(fillRune)
	}
	return t
}

// quotable reports whether GOON's quoting carries s as it is: valid UTF-8
// without control characters other than tab, CR and LF.
func quotable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return utf8.ValidString(s)
}
