package textwire

// ScanNumber reads the number literal that starts at s[i] by JSON's
// grammar, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?: it returns
// where the literal ends and whether it has a fraction or an exponent; ok
// is false when no literal starts at s[i] (end is then where it broke
// off). The literal may be followed by anything: a caller that wants a
// whole token checks end == len(s).
func ScanNumber[T ~string | ~[]byte](s T, i int) (end int, isFloat, ok bool) {
	return scanNumber(s, i, false)
}

// NumericLike reports whether s as a whole matches
// [+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?, JSON's number grammar
// relaxed to a leading '+' and leading zeros: the strings TOON quotes so
// that they do not read back as numbers (spec §7.2).
func NumericLike(s string) bool {
	end, _, ok := scanNumber(s, 0, true)
	return ok && end == len(s)
}

// scanNumber is ScanNumber, or, relaxed, NumericLike's grammar.
func scanNumber[T ~string | ~[]byte](s T, i int, relaxed bool) (end int, isFloat, ok bool) {
	if i < len(s) && (s[i] == '-' || relaxed && s[i] == '+') {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0' && !relaxed:
		i++
	case i < len(s) && isDigit(s[i]):
		i = digits(s, i)
	default:
		return i, false, false
	}
	if i < len(s) && s[i] == '.' {
		isFloat = true
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return i, false, false
		}
		i = digits(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		isFloat = true
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return i, false, false
		}
		i = digits(s, i)
	}
	return i, isFloat, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits returns the end of the run of digits at s[i].
func digits[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
