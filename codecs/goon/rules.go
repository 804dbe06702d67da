package goon

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The value rules the encoder and the decoder share.

// limitFor returns the truncation limit, in code points, under key: 200
// for the long-text keys, 1000 for any other (SPEC §5.10).
func limitFor(key string) int {
	switch key {
	case "body", "description", "name", "note", "title":
		return 200
	}
	return 1000
}

// bareByte[c] and nameByte[c] are true for the bytes of a bare value,
// [A-Za-z0-9_\-:./@+], and of a name, [A-Za-z0-9_].
var bareByte, nameByte = byteSet("_-:./@+"), byteSet("_")

// byteSet is the set of ASCII letters, digits and the bytes of extra.
func byteSet(extra string) (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
	}
	for i := 0; i < len(extra); i++ {
		t[extra[i]] = true
	}
	return t
}

// isName reports whether s is a GOON name (entity and relationship types,
// property keys, column names, aliases).
func isName(s string) bool { return s != "" && all(s, &nameByte) }

// isBare reports whether every byte of s may be written bare.
func isBare(s string) bool { return all(s, &bareByte) }

func all(s string, set *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if !set[s[i]] {
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

// datetimeLayout is YYYY-MM-DD HH:MM:SS, each digit naming its field.
const datetimeLayout = "0000-11-22 33:44:55"

// isClickHouseDatetime reports whether s is YYYY-MM-DD HH:MM:SS[.digits]
// with a real date, hour 00–23, minute 00–59, second 00–60.
func isClickHouseDatetime(s string) bool {
	if len(s) < 19 || len(s) == 20 || s[4] != '-' || len(s) > 19 && s[19] != '.' {
		return false
	}
	var f [6]int // year, month, day, hour, minute, second
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case i == 19:
		case i < 19 && (datetimeLayout[i] < '0' || datetimeLayout[i] > '9'):
			if c != datetimeLayout[i] {
				return false
			}
		case c < '0' || c > '9':
			return false
		case i < 19:
			k := datetimeLayout[i] - '0'
			f[k] = f[k]*10 + int(c-'0')
		}
	}
	return f[1] >= 1 && f[1] <= 12 && f[2] >= 1 && f[2] <= daysIn(f[0], f[1]) && f[3] <= 23 && f[4] <= 59 && f[5] <= 60
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

// fillRune stands in for control characters quoting dropped; quoting
// drops it again, so the value re-encodes to the same text.
const fillRune = '\x1a'

// padByte pads a restored truncated value to its declared length.
const padByte = '.'

func isBreadcrumbKey(k, key string) bool {
	return len(k) == len(key)+4 && strings.HasPrefix(k, key) && strings.HasSuffix(k, "_len")
}

// isCrumb reports whether text, written under key, followed by
// key_len=total reads as a truncated value and its breadcrumb: it ends in
// "...", has at most the key's limit in code points (exactly, when bare),
// and total exceeds the limit.
func isCrumb(key, text string, quoted bool, total int64) bool {
	limit := limitFor(key)
	if total <= int64(limit) || !strings.HasSuffix(text, "...") {
		return false
	}
	l := utf8.RuneCountInString(text)
	return l <= limit && (quoted || l == limit)
}

// parseInt parses a GOON integer: JSON's integer grammar in an int64,
// except "-0".
func parseInt(s string) (int64, bool) {
	if s == "-0" {
		return 0, false
	}
	return textwire.ParseInt(s)
}

// appendText appends the string s (not empty) written under key:
// truncated (with a breadcrumb when breadcrumb is set), in T-form, bare or
// quoted (always with forceQuote).
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
		b = textwire.AppendInt(b, int64(count))
	}
	return b
}

// appendCursor appends a next_cursor token (or a document's text): bare
// when it may be, otherwise quoted; never truncated or put in T-form.
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

// runeOffset returns the byte offset of the n-th code point of s.
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

// dropsInPrefix reports whether the part of s truncation keeps holds a
// character quoting drops.
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

// bareValue reads a bare token back as the value that writes it.
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
	// Only JSON's number grammar reaches ParseFloat, which allocates its
	// errors.
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
// plus one fillRune when the encoder would write the text some other way
// (bare, in T-form, or not at all). forceQuote: a node-kind group column.
func quotedString(t string, forceQuote bool) string {
	if t == "" || isClickHouseDatetime(t) || (!forceQuote && isBare(t) && !isKeyword(t)) {
		return t + string(fillRune)
	}
	return t
}

// quotable reports whether GOON's quoting carries s as it is.
func quotable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return utf8.ValidString(s)
}

// The goon_version majors Decode reads.
const (
	minMajor = "1"
	maxMajor = "4"
)

// supportedVersion reports whether v is MAJOR.MINOR.PATCH, decimals
// without leading zeros, the major from minMajor to maxMajor.
func supportedVersion(v string) bool {
	if len(v) > 3*19+2 { // three int64 decimals: no split of a long value
		return false
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 || len(parts[0]) != 1 || parts[0] < minMajor || parts[0] > maxMajor {
		return false
	}
	for _, s := range parts[1:] {
		if n, ok := parseInt(s); !ok || n < 0 {
			return false
		}
	}
	return true
}
