package textwire

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// stdJSON is encoding/json's string literal for s, less its HTML escapes:
// the independent oracle for the JSON rules.
func stdJSON(t *rapid.T, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	// encoding/json escapes U+2028 and U+2029; canonical JSON writes them.
	return strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029", `\ufffd`, "\ufffd").Replace(out)
}

func TestJSONEscapingMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if raw := rapid.SliceOf(rapid.Byte()).Draw(t, "raw"); len(raw) > 0 {
			s += string(raw) // ill-formed UTF-8 too
		}
		got := string(JSON.AppendQuoted(nil, s))
		if want := stdJSON(t, s); got != want {
			t.Fatalf("JSON.AppendQuoted(%q) = %s, encoding/json writes %s", s, got, want)
		}
		back, end, err := JSONString([]byte(got), got, 0, math.MaxInt)
		if err != nil || end != len(got) {
			t.Fatalf("JSONString(%s) = %q, %d, %v", got, back, end, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && utf8.ValidString(s) {
			t.Fatalf("JSONString(%s) = %q, want %q", got, back, want)
		}
		var std string
		if err := json.Unmarshal([]byte(got), &std); err != nil || std != back {
			t.Fatalf("JSONString(%s) = %q, encoding/json reads %q (%v)", got, back, std, err)
		}
	})
}

func TestEscapingTables(t *testing.T) {
	in := "a\"b\\c\nd\re\tf\bg\fh\x00i\x1fj\x7fk\xffl"
	for _, tc := range []struct {
		name string
		e    *Escaping
		want string
	}{
		{"JSON", JSON, `a\"b\\c\nd\re\tf\bg\fh\u0000i\u001fj` + "\x7fk\ufffdl"},
		{"TOON", TOON, `a\"b\\c\nd\re\tf\u0008g\u000ch\u0000i\u001fj` + "\x7fk\ufffdl"},
		{"GOON", GOON, `a\"b\\c\nd\re\tfghijk` + "\ufffdl"},
	} {
		if got := string(tc.e.Append(nil, in)); got != tc.want {
			t.Errorf("%s.Append(%q) = %q, want %q", tc.name, in, got, tc.want)
		}
		if tc.e.Plain(in) || !tc.e.Plain("plain text, é") {
			t.Errorf("%s.Plain is wrong", tc.name)
		}
	}
}

func TestUnescapeRules(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, err string
		u                   *Unescaping
	}{
		{"json letters", `a\"\\\/\b\f\n\r\t`, "a\"\\/\b\f\n\r\t", "", JSONUnescaping},
		{"json pair", `\ud83d\ude00`, "😀", "", JSONUnescaping},
		{"json lone", `\ud83dx`, "\ufffdx", "", JSONUnescaping},
		{"json bad hex", `\u12g4`, "", `invalid escape: \u needs four hex digits`, JSONUnescaping},
		{"toon", `\"\\\n\r\t\u00e9`, "\"\\\n\r\té", "", TOONUnescaping},
		{"toon surrogate", `\ud83d\ude00`, "", `invalid escape: \ud83d is a surrogate (write supplementary characters as UTF-8)`, TOONUnescaping},
		{"toon slash", `\/`, "", `invalid escape \/`, TOONUnescaping},
		{"goon", `\"\\\n\r\t`, "\"\\\n\r\t", "", GOONUnescaping},
		{"goon u", `\u0041`, "", `invalid escape \u (GOON escapes are \\ \" \n \r \t)`, GOONUnescaping},
		{"end", `ab\`, "", "invalid escape: backslash at end of string", GOONUnescaping},
		{"control", "\\\x01", "", `invalid escape: backslash before '\x01'`, TOONUnescaping},
	} {
		got, err := tc.u.Unescape(nil, tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Msg != tc.err):
			t.Errorf("%s: Unescape(%q) error %v, want %q", tc.name, tc.in, err, tc.err)
		case tc.err == "" && (err != nil || string(got) != tc.want):
			t.Errorf("%s: Unescape(%q) = %q, %v, want %q", tc.name, tc.in, got, err, tc.want)
		}
	}
}

func TestJSONStringErrors(t *testing.T) {
	for _, tc := range []struct {
		in      string
		max     int
		off     int
		msg     string
		tooLong bool
	}{
		{`"abc`, 100, 4, "unterminated string", false},
		{`"a\`, 100, 3, "unterminated string", false},
		{"\"a\x01\"", 100, 2, "control character 0x1 in string", false},
		{`"a\qb"`, 100, 2, `invalid escape \q in string`, false},
		{`"abcdef"`, 5, 0, "a string longer than 5 bytes", true},
		{`"abc\ndef"`, 5, 0, "a string longer than 5 bytes", true},
	} {
		_, _, err := JSONString([]byte(tc.in), tc.in, 0, tc.max)
		if err == nil || err.Off != tc.off || err.Msg != tc.msg || err.TooLong != tc.tooLong {
			t.Errorf("JSONString(%q, max %d) error %+v, want off %d %q tooLong %v", tc.in, tc.max, err, tc.off, tc.msg, tc.tooLong)
		}
	}
	// No escape: the text shares src; with one, a new string.
	src := `"plain" "esc\n"`
	s, end, err := JSONString([]byte(src), src, 0, 100)
	if err != nil || s != "plain" || end != 7 {
		t.Fatalf("JSONString = %q, %d, %v", s, end, err)
	}
	if s, _, err := JSONString([]byte(src), "", 8, 100); err != nil || s != "esc\n" {
		t.Fatalf("JSONString = %q, %v", s, err)
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.Float64().Draw(t, "f")
		if math.IsInf(f, 0) || math.IsNaN(f) {
			t.Skip()
		}
		want, _ := json.Marshal(f)
		w := string(want)
		if !strings.ContainsAny(w, ".e") {
			w += ".0"
		}
		if got := string(AppendFloat(nil, f)); got != w {
			t.Fatalf("AppendFloat(%v) = %s, want %s", f, got, w)
		}
	})
}

// TestParseInt: ParseInt reads the decimal int64s and nothing else, and
// AppendInt writes what strconv does.
func TestParseInt(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "-0": 0, "7": 7, "-9223372036854775808": math.MinInt64, "9223372036854775807": math.MaxInt64} {
		if got, ok := ParseInt(in); !ok || got != want {
			t.Errorf("ParseInt(%q) = %d, %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "-", "01", "+1", "1.0", "9223372036854775808", "-9223372036854775809", "12345678901234567890", "1e3"} {
		if _, ok := ParseInt([]byte(in)); ok {
			t.Errorf("ParseInt(%q) accepted", in)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.Int64().Draw(t, "i")
		if got, ok := ParseInt(strconv.FormatInt(i, 10)); !ok || got != i {
			t.Fatalf("ParseInt(%d) = %d, %v", i, got, ok)
		}
		appendsInt(t, i)
	})
	for p := int64(1); p > 0 && p <= math.MaxInt64/10; p *= 10 { // each length's edges
		for _, i := range []int64{p - 1, p, p + 1, -p, 10*p - 1, math.MinInt64, math.MaxInt64} {
			appendsInt(t, i)
		}
	}
}

// appendsInt checks AppendInt(b, i) into a b without room (strconv's
// path) and with room (the words written in place), and that it leaves
// b's bytes as they were.
func appendsInt(t interface{ Fatalf(string, ...any) }, i int64) {
	for _, b := range [][]byte{[]byte("x"), append(make([]byte, 0, 40), 'x')} {
		if got := string(AppendInt(b, i)); got != "x"+strconv.FormatInt(i, 10) {
			t.Fatalf("AppendInt(%d) into room for %d = %s", i, cap(b)-1, got)
		}
	}
}

// TestEight: Eight writes the eight digits of every u below 1e8, as
// Digits8 reads them back.
func TestEight(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := rapid.Uint64Range(0, 1e8-1).Draw(t, "u")
		if v, ok := Digits8(Eight(u)); !ok || v != u {
			t.Fatalf("Eight(%d) reads back as %d, %v", u, v, ok)
		}
	})
}

func TestExcerptIsBounded(t *testing.T) {
	long := strings.Repeat("é", 100)
	if got := Excerpt(long); len(got) > MaxExcerpt+8 || !strings.HasSuffix(got, `"...`) || !utf8.ValidString(got) {
		t.Errorf("Excerpt of 200 bytes = %q", got)
	}
	if got := Excerpt("a\nb"); got != `"a\nb"` {
		t.Errorf("Excerpt(a\\nb) = %s", got)
	}
	if got := Clip(long); len(got) > MaxExcerpt+3 || !strings.HasSuffix(got, "...") {
		t.Errorf("Clip = %q", got)
	}
}

// TestCleanWord: the eight-byte test of Append and Plain accepts a word
// exactly when each of its bytes is printable ASCII other than '"' and
// '\\', whatever byte sits at whatever position among others.
func TestCleanWord(t *testing.T) {
	clean := func(b byte) bool { return b >= 0x20 && b < 0x7f && b != '"' && b != '\\' }
	fills := []byte{'a', ' ', '~', '!', '#', '[', ']'}
	for _, fill := range fills {
		for pos := 0; pos < 8; pos++ {
			for b := 0; b < 256; b++ {
				w := []byte(strings.Repeat(string(fill), 8))
				w[pos] = byte(b)
				got := cleanWord(Load8(string(w), 0))
				if want := clean(byte(b)); got != want {
					t.Fatalf("cleanWord(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
	// Two bytes set: a borrow from one byte must not hide the other.
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b += 3 {
			w := []byte("abcdefgh")
			w[3], w[4] = byte(a), byte(b)
			if got, want := cleanWord(Load8(string(w), 0)), clean(byte(a)) && clean(byte(b)); got != want {
				t.Fatalf("cleanWord(%q) = %v, want %v", w, got, want)
			}
		}
	}
}

// appendByRune is Escaping.Append as the rule reads, one byte or rune at
// a time: the reference the run-copying Append is held to.
func appendByRune(e *Escaping, dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if e.plain[c] {
				dst = append(dst, c)
			} else {
				dst = append(dst, e.repl[c]...)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// TestAppendMatchesTheRule: under each rule, Append writes what the rule
// says byte by byte, on strings of every special byte, ASCII, valid and
// broken UTF-8, at every offset within a word.
func TestAppendMatchesTheRule(t *testing.T) {
	alphabet := []byte{'a', 'z', ' ', '"', '\\', '\n', '\t', 0, 0x1f, 0x7f, 0x80, 0xbf, 0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0xff}
	rules := map[string]*Escaping{"JSON": JSON, "TOON": TOON, "GOON": GOON}
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 40).Draw(t, "s"))
		for name, e := range rules {
			want := appendByRune(e, []byte("x"), s)
			if got := e.Append([]byte("x"), s); string(got) != string(want) {
				t.Fatalf("%s.Append(%q) = %q, want %q", name, s, got, want)
			}
		}
	})
}

// TestDigits8: eight bytes read as a number exactly when all are ASCII
// digits, to the value strconv gives.
func TestDigits8(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.OneOf(rapid.ByteRange('0', '9'), rapid.Byte()), 8, 8).Draw(t, "word")
		s := string(b)
		v, ok := Digits8(Load8(s, 0))
		want, err := strconv.ParseUint(s, 10, 64)
		if digits := err == nil && !strings.ContainsAny(s, "+-"); ok != digits || ok && v != want {
			t.Fatalf("Digits8(%q) = %d, %v; want %d, %v", s, v, ok, want, digits)
		}
	})
}

// TestSmallIntMatchesParseInt: SmallInt reads a token of 1 to 18 digits
// without a leading zero as strconv does, eight digits at a time or one by
// one, and no other token.
func TestSmallIntMatchesParseInt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tok := rapid.StringMatching(`[0-9]{0,20}`).Draw(t, "digits")
		if len(tok) > 0 && rapid.Bool().Draw(t, "spoilt") {
			i := rapid.IntRange(0, len(tok)-1).Draw(t, "at")
			tok = tok[:i] + rapid.SampledFrom([]string{"-", "+", ".", "a", " ", ":", "/", "\xb5"}).Draw(t, "with") + tok[i+1:]
		}
		v, ok := SmallInt(tok)
		want, err := strconv.ParseInt(tok, 10, 64)
		small := err == nil && len(tok) <= 18 && tok[0] >= '0' && tok[0] <= '9' && (tok[0] != '0' || len(tok) == 1)
		if ok != small || ok && v != want {
			t.Fatalf("SmallInt(%q) = %d, %v; want %d, %v", tok, v, ok, want, small)
		}
	})
}
