package textwire

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Unescaping is one format's rule for reading the escapes of a quoted
// string.
type Unescaping struct {
	single  [utf8.RuneSelf]byte // the byte \c stands for; 0: not an escape
	unicode uint8               // what \uXXXX reads as: see the constants
	hint    string              // said after "invalid escape \c"
}

// How an Unescaping reads \uXXXX.
const (
	noUnicode    = iota // \u is not an escape
	unicodeBMP          // four hex digits, a surrogate refused
	unicodeUTF16        // JSON's: a surrogate pair is one character, a lone surrogate U+FFFD
)

func newUnescaping(pairs string, unicode uint8, hint string) *Unescaping {
	u := &Unescaping{unicode: unicode, hint: hint}
	for i := 0; i+1 < len(pairs); i += 2 {
		u.single[pairs[i]] = pairs[i+1]
	}
	return u
}

// The formats' rules.
var (
	// JSONUnescaping reads RFC 8259's escapes: \" \\ \/ \b \f \n \r \t and
	// \uXXXX, a surrogate pair as one character and a lone surrogate as
	// U+FFFD (as encoding/json does).
	JSONUnescaping = newUnescaping("\"\"\\\\//b\bf\fn\nr\rt\t", unicodeUTF16, "")

	// TOONUnescaping reads TOON's: \" \\ \n \r \t and \uXXXX (a surrogate
	// refused: supplementary characters are written as UTF-8).
	TOONUnescaping = newUnescaping("\"\"\\\\n\nr\rt\t", unicodeBMP, "")

	// GOONUnescaping reads GOON's: \" \\ \n \r \t only.
	GOONUnescaping = newUnescaping("\"\"\\\\n\nr\rt\t", noUnicode, ` (GOON escapes are \\ \" \n \r \t)`)
)

// EscapeError is a bad escape: where it starts in the text Unescape was
// given, and what is wrong.
type EscapeError struct {
	Off int
	Msg string
}

func (e *EscapeError) Error() string { return e.Msg }

// Unescape appends to dst the text s stands for, s being the inside of a
// quoted string read under u. Bytes other than escapes are copied as they
// are (the caller has checked for control characters and UTF-8 where its
// format asks).
func (u *Unescaping) Unescape(dst []byte, s string) ([]byte, *EscapeError) {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		n, r, err := u.escape(s, i)
		if err != nil {
			return dst, err
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst, nil
}

// escape reads the escape at s[i] == '\\': its length and the character
// it stands for.
func (u *Unescaping) escape(s string, i int) (int, rune, *EscapeError) {
	if i+1 >= len(s) {
		return 0, 0, &EscapeError{i, "invalid escape: backslash at end of string"}
	}
	e := s[i+1]
	if e < utf8.RuneSelf && u.single[e] != 0 {
		return 2, rune(u.single[e]), nil
	}
	if e != 'u' || u.unicode == noUnicode {
		if e > 0x20 && e < 0x7f {
			return 0, 0, &EscapeError{i, `invalid escape \` + string(rune(e)) + u.hint}
		}
		r, _ := utf8.DecodeRuneInString(s[i+1:])
		return 0, 0, &EscapeError{i, "invalid escape: backslash before " + strconv.QuoteRune(r) + u.hint}
	}
	r, ok := Hex4(s, i+2)
	if !ok {
		return 0, 0, &EscapeError{i, `invalid escape: \u needs four hex digits`}
	}
	if !utf16.IsSurrogate(r) {
		return 6, r, nil
	}
	if u.unicode == unicodeBMP {
		return 0, 0, &EscapeError{i, `invalid escape: \u` + s[i+2:i+6] + " is a surrogate (write supplementary characters as UTF-8)"}
	}
	if i+7 < len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
		if r2, ok := Hex4(s, i+8); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return 12, dec, nil
			}
		}
	}
	return 6, utf8.RuneError, nil
}

// Hex4 reads four hex digits at s[i:].
func Hex4[T ~string | ~[]byte](s T, i int) (rune, bool) {
	if i < 0 || i+4 > len(s) {
		return 0, false
	}
	var r rune
	for j := i; j < i+4; j++ {
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
