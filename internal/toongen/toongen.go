// Package toongen draws JSON documents for differential tests of TOON
// implementations: tricky strings, keys and numbers, uniform rows (tabular
// material, sometimes spoiled), keyed objects, nested and mixed arrays, and
// deep chains. Documents are written as JSON text whose number literals are
// kept as drawn (so -0, 1E+21 or 100e-2 reach both parsers as written).
//
// It is test support: it imports rapid and is imported only by tests.
package toongen

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"

	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// Value, Object and Member are the generic TOON value types.
type (
	Value  = jsonvalue.Value
	Object = jsonvalue.Object
	Member = jsonvalue.Member
)

// numLit is a number leaf of a generated JSON document, kept as the literal
// text the document is written with (so that -0, 1E+21 or 100e-2 reach both
// JSON parsers as written).
type numLit string

// TrickyStrings look like something else, need quoting, or are plain odd.
var TrickyStrings = []string{
	"", " ", "  padded ", "a b", "true", "false", "null", "True", "NULL", "nul",
	"42", "-3.14", "05", "0", "-0", "+1", "1e-6", "1E+9", "1.", ".5", "0x10", "1_000", "Infinity", "NaN",
	"[2]:", "[2]: x", "key[2]{a,b}:", "a:b", "a: b", ":", "a,b", "a|b", "a\tb", ",", "|", "\t",
	"-", "- x", "-x", "--", "#", "#x", "# comment", "{x}", "[x]", "[]", "{}", "\"", "\\", "'",
	"\n", "line1\nline2", "\r\n", "\x00", "\x01", "\x1f", "\x7f", "é", "日本語", "👋", "a👋b",
	"\uFEFF", "\uFEFFbom", "\u00a0nbsp", "\u2028", "x\u200by", "null ", " true", "1 ", "a\\nb",
	"https://example.com?q=a:b", "2024-01-02 03:04:05", "user@example.com", "path/to/file.go",
}

// TrickyKeys are object keys that need quoting or look like indices.
var TrickyKeys = []string{
	"", "a", "id", "name", "_x", "a.b", "user.name", "a-b", "a b", "2key", "123", "0", "1", "01",
	"4294967294", "4294967295", "-1", "1.5", "a:b", "[x]", "{k}", "#k", "-k", "\"q\"", "a\\b",
	"a\nb", "tab\tkey", "é", "日本", "👋", "__proto__", "constructor", "true", "null", " a ",
	"a,b", "a|b",
}

// EdgeNumbers are number literals at the edges of int64, float64 and
// JavaScript's number formatting.
var EdgeNumbers = []string{
	"0", "-0", "0.0", "-0.0", "1", "-1", "1.0", "1.5", "-7.25", "0.1", "0.3333333333333333",
	"1e21", "1E21", "1e+21", "-1e21", "999999999999999900000", "1e20", "123456789012345680000",
	"1e-7", "1e-6", "0.000001", "1.5e-7", "0.0000001", "5e-324", "-5e-324", "1.7976931348623157e308",
	"2.2250738585072014e-308", "9007199254740991", "9007199254740992", "9007199254740993",
	"-9007199254740993", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"18446744073709551616", "123456789012345678901234567890", "100e-2", "1e2", "1E-2", "12.50",
	"4294967295",
}

func genKey(t *rapid.T, label string) string {
	switch rapid.IntRange(0, 5).Draw(t, label+"-kind") {
	case 0, 1:
		return rapid.SampledFrom(TrickyKeys).Draw(t, label)
	case 2:
		return rapid.String().Draw(t, label)
	default:
		return rapid.StringMatching(`[a-zA-Z_][a-zA-Z0-9_.]{0,7}`).Draw(t, label)
	}
}

func genString(t *rapid.T) string {
	switch rapid.IntRange(0, 4).Draw(t, "str-kind") {
	case 0, 1:
		return rapid.SampledFrom(TrickyStrings).Draw(t, "str")
	case 2:
		return rapid.String().Draw(t, "str")
	case 3:
		return rapid.StringMatching(`[a-zA-Z][a-zA-Z0-9 _.@/-]{0,12}`).Draw(t, "str")
	default:
		a := rapid.SampledFrom(TrickyStrings).Draw(t, "str-a")
		b := rapid.SampledFrom(TrickyStrings).Draw(t, "str-b")
		return a + b
	}
}

func genNumber(t *rapid.T) numLit {
	switch rapid.IntRange(0, 4).Draw(t, "num-kind") {
	case 0:
		lit := rapid.SampledFrom(EdgeNumbers).Draw(t, "num")
		return numLit(lit)
	case 1:
		return numLit(strconv.FormatInt(rapid.Int64().Draw(t, "int"), 10))
	case 2:
		return numLit(strconv.Itoa(rapid.IntRange(-1000, 1000).Draw(t, "small")))
	default:
		f := math.Float64frombits(rapid.Uint64().Draw(t, "bits"))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 1.5
		}
		return numLit(strconv.FormatFloat(f, 'g', -1, 64))
	}
}

func genPrimitive(t *rapid.T) Value {
	switch rapid.IntRange(0, 9).Draw(t, "prim") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2, 3, 4:
		return genNumber(t)
	default:
		return genString(t)
	}
}

// genKeys draws n distinct keys.
func genKeys(t *rapid.T, n int) []string {
	keys := make([]string, 0, n)
	seen := map[string]bool{}
	for len(keys) < n {
		k := genKey(t, "key")
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// genUniform draws rows that share one key set (tabular material), with
// columns that are primitive or nested uniform objects, sometimes spoiled so
// that the encoder must fall back.
func genUniform(t *rapid.T, depth, rows int) []Value {
	keys := genKeys(t, rapid.IntRange(1, 5).Draw(t, "ncols"))
	nested := map[string][]Value{}
	for _, k := range keys {
		if depth < 4 && rapid.IntRange(0, 5).Draw(t, "nested-col") == 0 {
			nested[k] = genUniform(t, depth+1, rows)
		}
	}
	out := make([]Value, rows)
	for r := range rows {
		o := &Object{}
		order := keys
		if rapid.IntRange(0, 4).Draw(t, "shuffle") == 0 {
			order = rapid.Permutation(keys).Draw(t, "order")
		}
		for _, k := range order {
			if col, ok := nested[k]; ok {
				o.Add(k, col[r])
			} else {
				o.Add(k, genPrimitive(t))
			}
		}
		switch rapid.IntRange(0, 12).Draw(t, "spoil") {
		case 0: // an extra key
			k := genKey(t, "extra")
			if _, dup := o.Get(k); !dup {
				o.Add(k, genPrimitive(t))
			}
		case 1: // a missing key
			if len(o.Members) > 1 {
				o.Members = o.Members[:len(o.Members)-1]
			}
		case 2: // a non-primitive value
			o.Members[0].Value = genValue(t, depth+1)
		}
		out[r] = o
	}
	return out
}

func genValue(t *rapid.T, depth int) Value {
	kind := rapid.IntRange(0, 11).Draw(t, "kind")
	if depth >= 7 && kind >= 4 {
		kind = rapid.IntRange(0, 3).Draw(t, "leaf")
	}
	switch kind {
	case 0, 1, 2, 3:
		return genPrimitive(t)
	case 4, 5: // object
		n := rapid.IntRange(0, 5).Draw(t, "nfields")
		o := &Object{Members: []Member{}}
		for _, k := range genKeys(t, n) {
			o.Add(k, genValue(t, depth+1))
		}
		return o
	case 6: // array of primitives
		n := rapid.IntRange(0, 6).Draw(t, "nprims")
		vs := make([]Value, n)
		for i := range vs {
			vs[i] = genPrimitive(t)
		}
		return vs
	case 7: // uniform objects (tabular)
		return genUniform(t, depth, rapid.IntRange(1, 5).Draw(t, "nrows"))
	case 8: // keyed: an object whose values are uniform objects
		rows := genUniform(t, depth, rapid.IntRange(1, 4).Draw(t, "nentries"))
		o := &Object{Members: []Member{}}
		for i, k := range genKeys(t, len(rows)) {
			o.Add(k, rows[i])
		}
		return o
	case 9: // array of arrays
		n := rapid.IntRange(0, 4).Draw(t, "narrays")
		vs := make([]Value, n)
		for i := range vs {
			vs[i] = genValue(t, depth+1)
			if _, ok := vs[i].([]Value); !ok {
				vs[i] = []Value{vs[i]}
			}
		}
		return vs
	default: // mixed array
		n := rapid.IntRange(0, 5).Draw(t, "nitems")
		vs := make([]Value, n)
		for i := range vs {
			vs[i] = genValue(t, depth+1)
		}
		return vs
	}
}

// Document draws a JSON document and writes it as JSON text; one in eight
// is written with every non-ASCII character as a \u escape.
func Document(t *rapid.T) []byte {
	v := genDocument(t)
	return writeJSON(nil, v, rapid.IntRange(0, 7).Draw(t, "escape-json") == 0)
}

// genDocument draws a JSON document. Deep nesting comes from a chain of
// single-key objects or one-element arrays on top of a drawn value.
func genDocument(t *rapid.T) Value {
	v := genValue(t, 0)
	for range rapid.IntRange(0, 12).Draw(t, "wrap") / 4 * rapid.IntRange(0, 3).Draw(t, "wrap-depth") {
		if rapid.Bool().Draw(t, "wrap-array") {
			v = []Value{v}
		} else {
			o := &Object{}
			o.Add(genKey(t, "wrap-key"), v)
			v = o
		}
	}
	return v
}

// writeJSON writes a generated document as JSON text; escapeAll writes every
// non-ASCII character as \u escapes (surrogate pairs beyond the BMP).
func writeJSON(dst []byte, v Value, escapeAll bool) []byte {
	switch x := v.(type) {
	case numLit:
		return append(dst, x...)
	case string:
		if !escapeAll {
			return gjson.AppendString(dst, x)
		}
		dst = append(dst, '"')
		for _, r := range x {
			switch {
			case r < utf8.RuneSelf:
				q := gjson.AppendString(nil, string(r))
				dst = append(dst, q[1:len(q)-1]...)
			case r > 0xFFFF:
				r1, r2 := utf16.EncodeRune(r)
				dst = fmt.Appendf(dst, `\u%04x\u%04X`, r1, r2)
			default:
				dst = fmt.Appendf(dst, `\u%04X`, r)
			}
		}
		return append(dst, '"')
	case []Value:
		dst = append(dst, '[')
		for i, item := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = writeJSON(dst, item, escapeAll)
		}
		return append(dst, ']')
	case *Object:
		dst = append(dst, '{')
		for i, m := range x.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = writeJSON(dst, m.Key, escapeAll)
			dst = append(dst, ':')
			dst = writeJSON(dst, m.Value, escapeAll)
		}
		return append(dst, '}')
	}
	b, _ := jsonvalue.Append(dst, v)
	return b
}
