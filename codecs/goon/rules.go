package goon

// The value rules of GOON 1.0.0 that the encoder and the decoder share:
// truncation limits, the bytes of bare values and names, keywords,
// ClickHouse datetimes.

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
