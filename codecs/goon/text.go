package goon

import (
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

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
