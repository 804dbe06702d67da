package gcfvalue_test

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
)

// The models of the SDK's departures from the spec (see departures):
// each tells whether a difference between the SDK and this package is
// the one a departure makes.

// relax names the differences equalRelaxed allows.
type relax struct {
	unordered bool // object members in any order
	collapse  bool // null for an object nullObject finds
	// prune: a member named __proto__, constructor or prototype may be
	// missing, and a member whose object holds one may be missing or null,
	// and a null member may be missing (the SDK's decoding of a path
	// column with such a segment: it drops the column, in every row, and
	// the remaining ones, all - or all ~, make the object null or absent)
	prune bool
}

// equalRelaxed is jsonEqual with the differences rel allows. depth is the
// nesting of want below the nearest array.
func equalRelaxed(want, got gcfvalue.Value, depth int, rel relax) bool {
	switch x := want.(type) {
	case []gcfvalue.Value:
		y, ok := got.([]gcfvalue.Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalRelaxed(x[i], y[i], 0, rel) {
				return false
			}
		}
		return true
	case *jsonObject:
		if x == nil {
			return jsonEqual(want, got)
		}
		if got == nil && ((rel.collapse && depth >= 2 && nullLeaves(x)) || (rel.prune && protoKeys(x))) {
			return true
		}
		y, ok := got.(*jsonObject)
		if !ok || y == nil {
			return false
		}
		matched := 0
		for _, m := range x.Members {
			w, ok := y.Get(m.Key)
			if ok && !rel.unordered && (matched >= len(y.Members) || y.Members[matched].Key != m.Key) {
				return false
			}
			if !ok {
				if rel.prune && (isProtoKey(m.Key) || protoKeys(m.Value) || m.Value == nil) {
					continue
				}
				return false
			}
			matched++
			if !equalRelaxed(m.Value, w, depth+1, rel) {
				return false
			}
		}
		return matched == len(y.Members)
	}
	return jsonEqual(want, got)
}

func isProtoKey(k string) bool { return k == "__proto__" || k == "constructor" || k == "prototype" }

// bracketKey matches a line naming an inline array with a quoted key that
// holds '['.
var bracketKey = regexp.MustCompile(`(?m)^ *(?:@[0-9]+ )?\.?"(?:[^"\\]|\\.)*\[(?:[^"\\]|\\.)*"\[[0-9]+\]:`)

// pathColumn matches a path column of a table header (a quoted field
// name holding '>').
var pathColumn = regexp.MustCompile(`[{,]"(?:[^"\\]|\\.)*>(?:[^"\\]|\\.)*"`)

// inlineSchema matches a table cell that opens an inline object schema.
var inlineSchema = regexp.MustCompile(`(?m)(?:^ *(?:@[0-9]+ )?|\|)\^\{`)

// nullObject reports whether v holds an object nested two levels or more
// below an object member (an intermediate object of a table field) that
// has members and only null leaves.
func nullObject(v gcfvalue.Value, depth int) bool {
	switch x := v.(type) {
	case []gcfvalue.Value:
		for _, item := range x {
			if nullObject(item, 0) {
				return true
			}
		}
	case *jsonObject:
		if x == nil {
			return false
		}
		if depth >= 2 && len(x.Members) > 0 && nullLeaves(x) {
			return true
		}
		for _, m := range x.Members {
			if nullObject(m.Value, depth+1) {
				return true
			}
		}
	}
	return false
}

// nullLeaves reports whether every leaf below o is null (an empty object
// is no null leaf).
func nullLeaves(o *jsonObject) bool {
	if len(o.Members) == 0 {
		return false
	}
	for _, m := range o.Members {
		switch w := m.Value.(type) {
		case nil:
		case *jsonObject:
			if w != nil && !nullLeaves(w) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// flattenOrder reports whether v holds a table (an array of objects, or an
// object of objects) with a field whose object values have the same keys
// in a different order in some rows, at any depth of the field.
func flattenOrder(v gcfvalue.Value) bool {
	switch x := v.(type) {
	case []gcfvalue.Value:
		var rows []*jsonObject
		for _, item := range x {
			if flattenOrder(item) {
				return true
			}
			if o, ok := item.(*jsonObject); ok && o != nil {
				rows = append(rows, o)
			}
		}
		return len(rows) == len(x) && reordered(rows)
	case *jsonObject:
		if x == nil {
			return false
		}
		var rows []*jsonObject
		for _, m := range x.Members {
			if flattenOrder(m.Value) {
				return true
			}
			if o, ok := m.Value.(*jsonObject); ok && o != nil {
				rows = append(rows, o)
			}
		}
		return len(rows) == len(x.Members) && reordered(rows)
	}
	return false
}

// reordered reports whether some field of rows has object values with
// the same keys in different orders, directly or in a nested field.
func reordered(rows []*jsonObject) bool {
	byField := map[string][]*jsonObject{}
	var order []string
	for _, r := range rows {
		for _, m := range r.Members {
			if o, ok := m.Value.(*jsonObject); ok && o != nil {
				if _, seen := byField[m.Key]; !seen {
					order = append(order, m.Key)
				}
				byField[m.Key] = append(byField[m.Key], o)
			}
		}
	}
	for _, f := range order {
		objs := byField[f]
		first := keysOf(objs[0])
		for _, o := range objs[1:] {
			k := keysOf(o)
			if strings.Join(k, "\x00") != strings.Join(first, "\x00") && sameSet(k, first) {
				return true
			}
		}
		if reordered(objs) {
			return true
		}
	}
	return false
}

func keysOf(o *jsonObject) []string {
	keys := make([]string, len(o.Members))
	for i, m := range o.Members {
		keys[i] = m.Key
	}
	return keys
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := append([]string{}, a...), append([]string{}, b...)
	sort.Strings(x)
	sort.Strings(y)
	return strings.Join(x, "\x00") == strings.Join(y, "\x00")
}

// protoKeys reports whether v holds a key __proto__, constructor or
// prototype.
func protoKeys(v gcfvalue.Value) bool {
	switch x := v.(type) {
	case []gcfvalue.Value:
		for _, item := range x {
			if protoKeys(item) {
				return true
			}
		}
	case *jsonObject:
		if x == nil {
			return false
		}
		for _, m := range x.Members {
			if isProtoKey(m.Key) || protoKeys(m.Value) {
				return true
			}
		}
	}
	return false
}

// jsNumbers returns v with every integer beyond ±2^53 made the nearest
// float64, as a JavaScript number holds it, and whether anything changed.
func jsNumbers(v gcfvalue.Value) (gcfvalue.Value, bool) {
	switch x := v.(type) {
	case jsonNumber:
		if i, ok := x.Int64(); ok && x.IsInt() && (i > 1<<53 || i < -(1<<53)) {
			return jsonFloat(float64(i)), true
		}
		return x, false
	case []gcfvalue.Value:
		out := make([]gcfvalue.Value, len(x))
		changed := false
		for i, item := range x {
			var c bool
			out[i], c = jsNumbers(item)
			changed = changed || c
		}
		return out, changed
	case *jsonObject:
		if x == nil {
			return x, false
		}
		out := &jsonObject{}
		changed := false
		for _, m := range x.Members {
			w, c := jsNumbers(m.Value)
			changed = changed || c
			out.Add(m.Key, w)
		}
		return out, changed
	}
	return v, false
}

// expNumber is a number token in exponent form with a positive exponent.
var expNumber = regexp.MustCompile(`^-?[1-9](?:\.[0-9]+)?e\+[0-9]+$`)

// jsFormat rewrites, in our text, each number token of magnitude in
// [2^53, 1e21) written in exponent form as JavaScript's String writes it:
// plain digits. A token is a run of bytes up to '|', ',' or the end of
// the line that starts a line or follows '=', ' ', '|' or ','; quoted
// strings are left as they are.
func jsFormat(text []byte) []byte {
	var out []byte
	for i := 0; i < len(text); {
		c := text[i]
		if c == '"' {
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(text))
			out = append(out, text[i:j]...)
			i = j
			continue
		}
		if i == 0 || strings.IndexByte("\n= |,", text[i-1]) >= 0 {
			j := i
			for j < len(text) && strings.IndexByte("|,\n\"", text[j]) < 0 {
				j++
			}
			if tok := text[i:j]; j > i && expNumber.Match(tok) {
				if f, err := strconv.ParseFloat(string(tok), 64); err == nil && math.Abs(f) >= 1<<53 && math.Abs(f) < 1e21 {
					out = strconv.AppendFloat(out, f, 'f', -1, 64)
					i = j
					continue
				}
			}
		}
		out = append(out, c)
		i++
	}
	return out
}

// equalUnordered is jsonEqual with object members compared as sets: a
// table's rows come back in the order of the table's field union.
func equalUnordered(a, b gcfvalue.Value) bool { return equalRelaxed(a, b, 0, relax{unordered: true}) }

func jsonOf(v gcfvalue.Value) string {
	b, err := appendJSON(nil, v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func appendNew(list []string, items ...string) []string {
	for _, s := range items {
		if !contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
