package jsonvalue

import (
	"math"
	"strconv"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Value is any JSON value, in the form Parse returns, Append writes, and
// the generic TOON library (codecs/toon/toonvalue) reads and writes:
//
//	nil        null
//	bool       true, false
//	Number     a number, kept exact (see Number)
//	string     a string (UTF-8)
//	[]Value    an array
//	*Object    an object, its members in order
//
// Parse and toonvalue.Unmarshal return only these types. Append and
// toonvalue.Marshal also accept, as conveniences, int, int64 and float64 for
// numbers, a nil *Object for null, and a nil []Value for an empty array.
type Value = any

// Object is a JSON object: its members in order. Keys must be unique;
// encoders report a duplicate key as an error. Build one with NewObject and
// Add or Set, or fill Members directly.
type Object struct {
	Members []Member
}

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value Value
}

// NewObject returns an empty object with room for n members.
func NewObject(n int) *Object {
	if n < 0 {
		n = 0
	}
	return &Object{Members: make([]Member, 0, n)}
}

// Len returns the number of members.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.Members)
}

// Add appends a member without checking whether key is already present.
func (o *Object) Add(key string, v Value) {
	o.Members = append(o.Members, Member{Key: key, Value: v})
}

// Set replaces the value of the member named key, keeping its position, or
// appends a new member when there is none (last write wins, first position
// kept, as JavaScript objects do).
func (o *Object) Set(key string, v Value) {
	if i := o.index(key); i >= 0 {
		o.Members[i].Value = v
		return
	}
	o.Add(key, v)
}

// Get returns the value of the member named key, and whether there is one.
func (o *Object) Get(key string) (Value, bool) {
	if i := o.index(key); i >= 0 {
		return o.Members[i].Value, true
	}
	return nil, false
}

func (o *Object) index(key string) int {
	if o == nil {
		return -1
	}
	for i := range o.Members {
		if o.Members[i].Key == key {
			return i
		}
	}
	return -1
}

// Number is a JSON number (in a Value built by Parse, the TOON reader, or
// a caller), held exactly as an int64 or as a float64 — never
// an integer squeezed through a float64. Decoding gives an int64 Number for
// an integer literal (no '.', 'e' or 'E') that fits int64, and a float64
// Number, correctly rounded, for every other literal.
//
// The zero Number is the integer 0.
type Number struct {
	bits    uint64 // int64 or float64 bits
	isFloat bool
}

// Int returns an integer Number (where wire.Int returns a wire.Value).
func Int(i int64) Number { return Number{bits: uint64(i)} }

// Float returns a floating-point Number. NaN and ±Inf are representable
// but encode as null (TOON spec §3).
func Float(f float64) Number { return Number{bits: math.Float64bits(f), isFloat: true} }

// IsInt reports whether n holds an int64 (as opposed to a float64).
func (n Number) IsInt() bool { return !n.isFloat }

// Int64 returns the integer n holds, and true; or, for a float64 Number, its
// value converted to int64 and whether that conversion is exact.
func (n Number) Int64() (int64, bool) {
	if !n.isFloat {
		return int64(n.bits), true
	}
	f := math.Float64frombits(n.bits)
	if f != math.Trunc(f) || f < -9223372036854775808 || f >= 9223372036854775808 {
		return 0, false
	}
	return int64(f), true
}

// Value returns n as a wire.Value: wire.Int for an integer Number,
// wire.Float for a float64 one.
func (n Number) Value() wire.Value {
	if !n.isFloat {
		return wire.Int(int64(n.bits))
	}
	return wire.Float(math.Float64frombits(n.bits))
}

// Float64 returns n as a float64 (rounded when n is an int64 beyond 2^53).
func (n Number) Float64() float64 {
	if n.isFloat {
		return math.Float64frombits(n.bits)
	}
	return float64(int64(n.bits))
}

// String returns n in TOON's canonical number form (spec §2): integers in
// plain decimal; floats in the shortest form that reads back exactly, with
// no exponent when 1e-6 <= |n| < 1e21, otherwise in exponent form such as
// 1e-7 or 1.5e+21 (exactly as JavaScript's Number#toString writes them);
// -0 as 0; NaN and ±Inf as null. One deliberate difference from
// JavaScript: an integer-valued float of magnitude 2^53 to 2^63 is written
// with all its digits (18014398509482032, where JavaScript writes the
// shortest 18014398509482030), because this package reads integer literals
// as exact int64 values and the shortest form would read back as a
// different number.
func (n Number) String() string { return string(n.Append(nil)) }

// Append appends n as String writes it. The TOON writer and Append call it.
func (n Number) Append(dst []byte) []byte {
	if !n.isFloat {
		return strconv.AppendInt(dst, int64(n.bits), 10)
	}
	return appendFloat(dst, math.Float64frombits(n.bits))
}

// Equal reports whether n and m are the same number by value: Int(1) equals
// Float(1), and -0 equals 0. NaN equals nothing.
func (n Number) Equal(m Number) bool {
	if !n.isFloat && !m.isFloat {
		return n.bits == m.bits
	}
	if n.isFloat && m.isFloat {
		return n.Float64() == m.Float64()
	}
	if n.isFloat {
		n, m = m, n
	}
	// n is an int, m a float.
	i, ok := m.Int64()
	return ok && i == int64(n.bits)
}

// ParseNumber parses a number literal of the JSON grammar (TOON's for
// unquoted numbers, spec §4): an integer literal that fits int64 gives an
// int64 Number, any other the nearest float64; one beyond the float64
// range is an error.
func ParseNumber(s string) (Number, error) {
	if !isNumberLiteral(s) {
		return Number{}, &strconv.NumError{Func: "ParseNumber", Num: s, Err: strconv.ErrSyntax}
	}
	n, ok := fromLiteral(s)
	if !ok {
		return Number{}, &strconv.NumError{Func: "ParseNumber", Num: s, Err: strconv.ErrRange}
	}
	return n, nil
}

// LiteralNumber is ParseNumber for a caller that makes its own error: it
// reports false, allocating nothing, where ParseNumber fails.
func LiteralNumber(s string) (Number, bool) {
	if !isNumberLiteral(s) {
		return Number{}, false
	}
	return fromLiteral(s)
}

// fromLiteral converts a literal already known to match the number
// grammar. It reports false when the value is outside the float64 range.
func fromLiteral(s string) (Number, bool) {
	isInt := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' || c == 'e' || c == 'E' {
			isInt = false
			break
		}
	}
	if isInt {
		if i, ok := textwire.ParseInt(s); ok {
			return Int(i), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return Number{}, false
	}
	if f == 0 {
		f = 0 // -0 decodes as 0 (spec §4)
	}
	return Float(f), true
}

// isNumberLiteral reports whether s is a whole JSON number literal.
func isNumberLiteral(s string) bool {
	end, _, ok := textwire.ScanNumber(s, 0)
	return ok && end == len(s)
}

// appendFloat writes f as JavaScript's Number#toString does, -0 as 0 and
// non-finite values as null.
func appendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0')
	}
	if abs := math.Abs(f); abs >= 1<<53 && abs < 1<<63 && f == math.Trunc(f) {
		// The shortest form of such a float (18014398509482030 for
		// 18014398509482032.0) would read back as a different int64: write
		// every digit instead.
		return strconv.AppendFloat(dst, f, 'f', 0, 64)
	}
	return textwire.AppendShortest(dst, f)
}

// Equal reports whether a and b are the same JSON value: numbers by value
// (Int(1) equals Float(1); int, int64 and float64 as the Numbers they
// encode as), objects by their members in order, arrays element by
// element.
func Equal(a, b Value) bool {
	if na, ok := asNumber(a); ok {
		nb, ok := asNumber(b)
		return ok && na.Equal(nb)
	}
	switch x := a.(type) {
	case nil:
		return b == nil || isNilObject(b)
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []Value:
		y, ok := b.([]Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Object:
		if x == nil {
			return b == nil || isNilObject(b)
		}
		y, ok := b.(*Object)
		if !ok || y == nil || len(x.Members) != len(y.Members) {
			return false
		}
		for i := range x.Members {
			if x.Members[i].Key != y.Members[i].Key || !Equal(x.Members[i].Value, y.Members[i].Value) {
				return false
			}
		}
		return true
	}
	return false
}

// Duplicate returns a key that o holds twice, if any: Append and the TOON
// writer refuse such an object.
func (o *Object) Duplicate() (string, bool) {
	ms := o.Members
	if i := keyset.FirstRepeat(len(ms), func(i int) string { return ms[i].Key }); i >= 0 {
		return ms[i].Key, true
	}
	return "", false
}

func isNilObject(v Value) bool {
	o, ok := v.(*Object)
	return ok && o == nil
}

func asNumber(v Value) (Number, bool) {
	switch x := v.(type) {
	case Number:
		return x, true
	case int:
		return Int(int64(x)), true
	case int64:
		return Int(x), true
	case float64:
		return Float(x), true
	}
	return Number{}, false
}
