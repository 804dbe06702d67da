package gcfvalue

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
)

// appendNumber writes n in the canonical form of spec §2.3.1: an int64 in
// plain digits; a float64 in plain decimal when 1e-6 <= |n| < 2^53 and in
// normalized exponent form (1.25e+21, 4e-7) otherwise; zero, -0 included,
// as 0. n must be finite (the encoder checks).
func appendNumber(dst []byte, n jsonvalue.Number) []byte {
	if n.IsInt() {
		i, _ := n.Int64()
		return strconv.AppendInt(dst, i, 10)
	}
	return appendFloat(dst, n.Float64())
}

func appendFloat(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1<<53 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	// Go writes at least two exponent digits (4e-07): drop the leading
	// zeros of the exponent.
	e := strings.LastIndexAny(string(dst[n:]), "+-") + n + 1
	z := e
	for z < len(dst)-1 && dst[z] == '0' {
		z++
	}
	return append(dst[:e], dst[z:]...)
}

// isNumberLiteral reports whether s matches the JSON number grammar with
// ASCII digits only (spec §2.3).
func isNumberLiteral(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseNumber converts a literal already known to match the number grammar:
// an integer literal (no '.', 'e' or 'E') to an exact int64, anything else
// to the nearest float64. ok is false when the value is outside the numeric
// domain (spec §2.3.2): an integer outside int64, a float past float64.
func parseNumber(s string) (n jsonvalue.Number, ok bool) {
	if !strings.ContainsAny(s, ".eE") {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return n, false
		}
		return jsonvalue.Int(i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return n, false
	}
	if f == 0 {
		f = 0 // -0.0 reads as 0 (spec §2.3.1)
	}
	return jsonvalue.Float(f), true
}

// isBareKey reports whether k is a bare-key: [A-Za-z_][A-Za-z0-9_]*.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && isDigit(c)) {
			continue
		}
		return false
	}
	return true
}

// appendKey writes k bare when it is a bare-key and quoted otherwise (spec
// §2a.1).
func appendKey(dst []byte, k string) []byte {
	if isBareKey(k) {
		return append(dst, k...)
	}
	return appendQuoted(dst, k)
}

// appendString writes s bare, or quoted when spec §2.4 requires it.
func appendString(dst []byte, s string) []byte {
	if needsQuotes(s) {
		return appendQuoted(dst, s)
	}
	return append(dst, s...)
}

// needsQuotes reports whether the string s must be quoted (spec §2.4). The
// delimiters '|' and ',' are quoted in every context, not only where they
// are active (a row cell, a primitive array item), so that a value reads the
// same wherever it is moved; likewise every string of the shape ^{...} is
// quoted, whether or not what is between the braces is a valid field
// declaration.
func needsQuotes(s string) bool {
	q, _ := quoteCheck(s, false)
	return q
}

// quoteCheck reports whether s must be quoted (needsQuotes) and, when
// validate, whether it is valid UTF-8 (when !validate, valid is
// meaningless). It looks at each byte once.
func quoteCheck(s string, validate bool) (quote, valid bool) {
	if s == "" {
		return true, true
	}
	// rest reports the answer once quoting is known to be needed from
	// s[i:] on: the validity of the rest is all that is left to learn.
	rest := func(i int) (bool, bool) { return true, !validate || utf8.ValidString(s[i:]) }
	switch c := s[0]; c {
	case '-', '~', '^', 't', 'f', '#', '@', '.', '+', ' ':
		switch s {
		case "-", "~", "^", "true", "false":
			return true, true
		}
		switch c {
		case '#', '@', '.', ' ':
			return rest(0)
		case '-', '+':
			if isNumberLiteral(s) || isNumericLike(s) {
				return rest(0)
			}
		case '^':
			if s[1%len(s)] == '{' && s[len(s)-1] == '}' {
				return rest(0)
			}
		}
	default:
		if isDigit(c) && (isNumberLiteral(s) || isNumericLike(s)) {
			return rest(0)
		}
	}
	if c := s[len(s)-1]; c == ' ' {
		return rest(0)
	}
	// Words of eight bytes that need nothing (ASCII from 0x20 up but for
	// the quote, the backslash, the delimiters and the brackets) are
	// skipped whole; the first and the last rune are looked at below.
	i := 0
	for ; i+8 <= len(s) && plainWord(textwire.Load8(s, i)); i += 8 {
	}
	// A leading or trailing space other than ' ' (checked above) is a
	// control character or a non-ASCII space, which the loop finds
	// wherever it is.
	open := false // a '[' seen, for the inline-array pattern [...]:
	for i < len(s) {
		c := s[i]
		if !special[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20 || c == '"' || c == '\\' || c == '|' || c == ',':
				return rest(i)
			case c == '[':
				open = true
			case c == ']' && open && i+1 < len(s) && s[i+1] == ':':
				return rest(i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 && validate {
			return true, false
		}
		if (r >= 0x80 && r <= 0x9F) || r == 0xFEFF || unicode.IsSpace(r) {
			return rest(i)
		}
		i += size
	}
	return false, true
}

// special marks the bytes quoteCheck looks at one by one: control
// characters, '"', '\\', the delimiters, the brackets and every byte of a
// non-ASCII character.
var special = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c < 0x20 || c >= utf8.RuneSelf || strings.IndexByte("\"\\|,[]", byte(c)) >= 0
	}
	return t
}()

// quotedWord reports whether no byte of x is escaped in a quoted string:
// none is below 0x20, '"' or '\\' (bytes from 0x80 up are UTF-8, written
// as they are).
func quotedWord(x uint64) bool { return textwire.EscMask(x) == 0 }

// plainWord reports whether every byte of x is ASCII from 0x20 up,
// other than '"', '\\', '|', ',', '[' and ']': bytes needsQuotes has
// nothing to say about.
func plainWord(x uint64) bool {
	bad := textwire.EscMask(x) | textwire.Equal(x, '|') | textwire.Equal(x, ',') |
		textwire.Equal(x, '[') | textwire.Equal(x, ']')
	return bad|x&textwire.Highs == 0
}

// isNumericLike reports whether s begins like a malformed number (spec
// §2.4): [+-] then an optional '.' then an ASCII digit; '.' then a digit;
// '0' then a digit.
func isNumericLike(s string) bool {
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
		if i < len(s) && s[i] == '.' {
			i++
		}
		return i < len(s) && isDigit(s[i])
	}
	return len(s) > 1 && (s[0] == '.' || s[0] == '0') && isDigit(s[1])
}

const hexDigits = "0123456789abcdef"

// appendQuoted writes s as a quoted string (spec §2.2): '"' and '\\'
// escaped, control characters as \b \f \n \r \t or \u00XX, everything else
// literal UTF-8. s must be valid UTF-8 (the encoder checks).
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		for i+8 <= len(s) && quotedWord(textwire.Load8(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendString appends s as the encoder writes a string value: bare, or
// quoted when spec §2.4 requires it. s must be valid UTF-8 (the caller
// checks), for a writer of a layout of its own that must write the bytes
// AppendEncode would.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

// AppendValidString is AppendString for a string not yet known to be
// valid UTF-8: it reports false, and dst unchanged, when s is not.
func AppendValidString(dst []byte, s string) ([]byte, bool) {
	q, ok := quoteCheck(s, true)
	switch {
	case !ok:
		return dst, false
	case q:
		return appendQuoted(dst, s), true
	}
	return append(dst, s...), true
}

// AppendKey appends k as the encoder writes a key or a field name: bare
// when it is a bare-key, quoted otherwise. k must be valid UTF-8.
func AppendKey(dst []byte, k string) []byte { return appendKey(dst, k) }

// AppendFloat appends f as the encoder writes a number (spec §2.3.1). f
// must be finite.
func AppendFloat(dst []byte, f float64) []byte { return appendFloat(dst, f) }

// AppendPathColumn appends the name of the path column field>leaf of a
// flattened nested object (spec §7.4.6), quoted as every name with a '>'
// is: the bytes AppendKey writes for field+">"+leaf.
func AppendPathColumn(dst []byte, field, leaf string) []byte {
	dst = appendQuoted(dst, field)
	dst[len(dst)-1] = '>'
	n := len(dst)
	dst = appendQuoted(dst, leaf)
	return append(dst[:n], dst[n+1:]...)
}

// NeedsQuotes reports whether the encoder quotes the string s: whether s
// written bare would read back as something else (spec §2.4).
func NeedsQuotes(s string) bool { return needsQuotes(s) }

// Unquote reads the quoted string that starts at s[i] (a '"') as the
// decoder does, escapes and all: the string and the index just past its
// closing quote, or ok false when it is malformed.
func Unquote(s string, i int) (str string, end int, ok bool) {
	str, end, kind, _ := unquote(s, i)
	return str, end, kind == ""
}

// ParseNumber reads a token as the decoder reads a number: isNumber
// reports whether s matches the number grammar, ok whether it is inside
// the numeric domain (an int64 for a literal without '.', 'e' or 'E', a
// finite float64 otherwise, -0 read as 0).
func ParseNumber(s string) (n jsonvalue.Number, isNumber, ok bool) {
	if !isNumberLiteral(s) {
		return n, false, false
	}
	n, ok = parseNumber(s)
	return n, true, ok
}
