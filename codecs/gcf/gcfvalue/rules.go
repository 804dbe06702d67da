package gcfvalue

// The rules of GCF's syntax every reader and writer shares: the number
// literal (spec §2.3), bare keys (§2a.1), quoting (§2.2, §2.4).

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
)

// appendNumber writes n, finite, in the canonical form of spec §2.3.1
// (see the package documentation).
func appendNumber(dst []byte, n jsonvalue.Number) []byte {
	if n.IsInt() {
		i, _ := n.Int64()
		return strconv.AppendInt(dst, i, 10)
	}
	return AppendFloat(dst, n.Float64())
}

// AppendFloat appends f as the encoder writes a number (spec §2.3.1). f
// must be finite.
func AppendFloat(dst []byte, f float64) []byte {
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
	ok := true
	if i < len(s) && s[i] == '.' {
		i, ok = digits(s, i+1)
	}
	if ok && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		i, ok = digits(s, i)
	}
	return ok && i == len(s)
}

// digits returns the index after the run of digits at s[i], and whether
// the run is not empty.
func digits(s string, i int) (int, bool) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return j, j > i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ParseCount reads the count of an array or table header ("[N]", spec
// §7.3): "0" or a decimal without a leading zero or sign, within int32.
func ParseCount(s string) (int, bool) {
	n, ok := textwire.SmallInt(s)
	return int(n), ok && n <= 1<<31-1
}

// IsBareKey reports whether k is a bare-key, written without quotes:
// [A-Za-z_][A-Za-z0-9_]* (spec §2a.1).
func IsBareKey(k string) bool { return k != "" && BareKeyEnd(k, 0) == len(k) }

// BareKeyEnd returns the index after the longest bare-key that starts at
// s[i], i when none does.
func BareKeyEnd(s string, i int) int {
	j := i
	for j < len(s) && (s[j] == '_' || (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') || (j > i && isDigit(s[j]))) {
		j++
	}
	return j
}

// AppendKey appends k as the encoder writes a key or a field name: bare
// when it is a bare-key, quoted otherwise (spec §2a.1). k must be valid
// UTF-8.
func AppendKey(dst []byte, k string) []byte {
	if IsBareKey(k) {
		return append(dst, k...)
	}
	return appendQuoted(dst, k)
}

// NeedsQuotes reports whether the encoder quotes the string s (spec §2.4,
// and the package documentation's two choices): whether s written bare
// would read back as something else.
func NeedsQuotes(s string) bool {
	q, _ := quoteCheck(s, false)
	return q
}

// quoteCheck reports whether s must be quoted (NeedsQuotes) and, when
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
// nothing to say about: textwire's Below and Equal, their high bits
// masked once, and '\\' found as '|' once bit 5 is set.
func plainWord(x uint64) bool {
	const o = textwire.Ones
	a, b, c, d, e := x^(o*'"'), (x|o*0x20)^(o*'|'), x^(o*','), x^(o*'['), x^(o*']')
	bad := (x-o*0x20)&^x | (a-o)&^a | (b-o)&^b | (c-o)&^c | (d-o)&^d | (e-o)&^e
	return (bad|x)&textwire.Highs == 0
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

// unquote parses the quoted string (spec §2.2) that starts at s[i] == '"'.
// It returns the string and the index after its closing quote, or the
// Kind of the error and its index.
func unquote(s string, i int) (string, int, Kind, int) {
	j := i + 1
	for j+8 <= len(s) && quotedWord(textwire.Load8(s, j)) {
		j += 8
	}
	for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
		j++
	}
	if j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1, "", 0 // no escape: a substring
	}
	size := j - i + 16
	if e := quoteEnd(s, j-1); e > 0 {
		size = e - i // the text is no shorter than what it decodes to
	}
	buf := make([]byte, 0, size)
	buf = append(buf, s[i+1:j]...)
	for {
		if j >= len(s) {
			return "", 0, KindUnterminatedQuote, i
		}
		c := s[j]
		switch {
		case c == '"':
			return unsafe.String(unsafe.SliceData(buf), len(buf)), j + 1, "", 0 // buf is not written again
		case c < 0x20:
			return "", 0, KindInvalidEscape, j // a control character must be escaped
		case c != '\\':
			buf = append(buf, c)
			j++
			continue
		}
		if j+1 >= len(s) {
			return "", 0, KindUnterminatedQuote, i
		}
		e := s[j+1]
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(s, j+2)
			if !ok {
				return "", 0, KindInvalidEscape, j
			}
			switch {
			case utf16.IsSurrogate(r) && r < 0xDC00:
				r2, ok := rune(0), false
				if j+7 < len(s) && s[j+6] == '\\' && s[j+7] == 'u' {
					r2, ok = hex4(s, j+8)
				}
				if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
					return "", 0, KindInvalidSurrogate, j
				}
				buf = utf8.AppendRune(buf, utf16.DecodeRune(r, r2))
				j += 6
			case utf16.IsSurrogate(r):
				return "", 0, KindInvalidSurrogate, j
			default:
				buf = utf8.AppendRune(buf, r)
			}
			j += 4
		default:
			return "", 0, KindInvalidEscape, j
		}
		j += 2
	}
}

// quoteEnd returns the index after the closing quote of the quoted string
// whose opening quote is at s[i] (or whose text is at s[i+1], a byte
// before it not '\\' or '"'), stepping over escapes unchecked, or -1 when
// it has none; unquote checks what it steps over.
func quoteEnd(s string, i int) int {
	j := i + 1
	for {
		for j+8 <= len(s) && quotedWord(textwire.Load8(s, j)) {
			j += 8
		}
		if j >= len(s) {
			return -1
		}
		switch s[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		}
		j++
	}
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

var quoteErrMsg = map[Kind]string{
	KindUnterminatedQuote: "a quoted string without its closing quote",
	KindInvalidEscape:     "an invalid escape or an unescaped control character in a quoted string",
	KindInvalidSurrogate:  "an unpaired UTF-16 surrogate escape",
}

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

// AppendValidString appends s as the encoder writes a string value: bare,
// or quoted when spec §2.4 requires it; it reports false, and dst
// unchanged, when s is not valid UTF-8.
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

// Unquote reads the quoted string that starts at s[i] (a '"') as the
// decoder does, escapes and all: the string and the index just past its
// closing quote, or ok false when it is malformed.
func Unquote(s string, i int) (str string, end int, ok bool) {
	str, end, kind, _ := unquote(s, i)
	return str, end, kind == ""
}

// ParseNumber reads a token as every reader of GCF reads a number:
// isNumber reports whether s matches the number grammar (spec §2.3), ok
// whether it is inside the numeric domain (§2.3.2): an exact int64 for a
// literal without '.', 'e' or 'E', the nearest finite float64 otherwise,
// -0 read as 0.
func ParseNumber(s string) (n jsonvalue.Number, isNumber, ok bool) {
	if v, small := textwire.SmallInt(s); small {
		return jsonvalue.Int(v), true, true
	}
	if !isNumberLiteral(s) {
		return n, false, false
	}
	if !strings.ContainsAny(s, ".eE") {
		i, err := strconv.ParseInt(s, 10, 64)
		return jsonvalue.Int(i), true, err == nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return n, true, false
	}
	if f == 0 {
		f = 0 // -0.0 reads as 0 (spec §2.3.1)
	}
	return jsonvalue.Float(f), true, true
}
