package wire

import (
	"math"
	"strconv"
	"unsafe"
)

// Kind is the kind of a Value.
type Kind uint8

// The kinds of Value. The zero Value is KindNull.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
)

var kindNames = [...]string{"null", "bool", "int", "float", "string", "list"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one property or row-cell value: null, bool, int64, float64, string,
// or a list of values (the result of the collect aggregation).
//
// The zero Value is null. Values are immutable once built; build them with
// Null, Bool, Int, Float, String and ListOf, and read them with Kind and
// the accessor of that kind: Bool, Int, Float, Text and List. String
// prints a value in canonical JSON (fmt's %v). Int and Float are distinct
// kinds, so int 1 and float 1.0 are different values, and so are the
// string "true" and the bool true.
type Value struct {
	_    [0]func() // not comparable with ==: p is an address, not contents
	p    unsafe.Pointer
	num  uint64 // bool (0/1), int64 bits, float64 bits, or the length of str or list
	kind Kind
}

// A Value takes 24 bytes rather than the 56 of a kind, a number, a string
// and a slice: a string value keeps the address of its bytes in p and its
// length in num, a list value the address of its first element and its
// length, and the str and list methods rebuild them. This is sound: p is
// an unsafe.Pointer, so the collector keeps what it points into alive;
// the string and the list's backing array are never written after the
// Value is built (strings are immutable and ListOf retains its slice,
// documented as not to be modified); and unsafe.String and unsafe.Slice
// are given back exactly the pointer and length they were taken from.
// Values built any other way are the zero Value (null) or come from
// these constructors, so p and num always agree.

// strv returns the string of a string value, "" for the other kinds.
func (v Value) strv() string {
	if v.kind != KindString {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.num))
}

// listv returns the items of a list value, nil for the other kinds.
func (v Value) listv() []Value {
	if v.kind != KindList {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), int(v.num))
}

// Null returns the null value (the zero Value).
func Null() Value { return Value{} }

// Bool returns a bool value.
func Bool(b bool) Value {
	v := Value{kind: KindBool}
	if b {
		v.num = 1
	}
	return v
}

// Int returns an integer value.
func Int(i int64) Value { return Value{kind: KindInt, num: uint64(i)} }

// Float returns a floating-point value. NaN and ±Inf are representable in the
// model; codecs whose wire format cannot carry them say so in their docs.
func Float(f float64) Value { return Value{kind: KindFloat, num: math.Float64bits(f)} }

// String returns a string value.
func String(s string) Value {
	return Value{kind: KindString, p: unsafe.Pointer(unsafe.StringData(s)), num: uint64(len(s))}
}

// ListOf returns a list value holding vs. A nil or empty vs gives the empty
// list, which is not null. The slice is retained, not copied.
func ListOf(vs ...Value) Value {
	if vs == nil {
		vs = []Value{}
	}
	return Value{kind: KindList, p: unsafe.Pointer(unsafe.SliceData(vs)), num: uint64(len(vs))}
}

// Kind reports the kind of v.
func (v Value) Kind() Kind { return v.kind }

// Bool returns the bool held by v, or false when v is not a bool.
func (v Value) Bool() bool { return v.kind == KindBool && v.num == 1 }

// Int returns the integer held by v, or 0 when v is not an int.
func (v Value) Int() int64 {
	if v.kind != KindInt {
		return 0
	}
	return int64(v.num)
}

// Float returns the float held by v, or 0 when v is not a float.
func (v Value) Float() float64 {
	if v.kind != KindFloat {
		return 0
	}
	return math.Float64frombits(v.num)
}

// Text returns the text held by a string value, or "" when v is not a
// string. (String, by contrast, is v in canonical JSON, quoted for a
// string value.)
func (v Value) Text() string { return v.strv() }

// List returns the elements of a list value, or nil when v is not a list.
// The returned slice must not be modified.
func (v Value) List() []Value { return v.listv() }

// Equal reports whether v and w are the same value: the same kind and the
// same contents, floats compared bit for bit (so -0.0 differs from 0.0 and a
// NaN equals the same NaN).
func (v Value) Equal(w Value) bool { return v.equal(w, false) }

// EqualNumeric is Equal, except that numbers compare by value across kinds:
// Int(1) equals Float(1.0), and Float(-0.0) equals Int(0). It is the equality
// of codecs whose wire format has one number type (TOON).
func (v Value) EqualNumeric(w Value) bool { return v.equal(w, true) }

func (v Value) equal(w Value, numeric bool) bool {
	if numeric {
		switch {
		case v.kind == KindInt && w.kind == KindFloat:
			return intEqualsFloat(v.Int(), w.Float())
		case v.kind == KindFloat && w.kind == KindInt:
			return intEqualsFloat(w.Int(), v.Float())
		case v.kind == KindFloat && w.kind == KindFloat:
			a, b := v.Float(), w.Float()
			return a == b || (a != a && b != b)
		}
	}
	if v.kind != w.kind || v.num != w.num || v.strv() != w.strv() {
		return false
	}
	vl, wl := v.listv(), w.listv()
	for i := range vl {
		if !vl[i].equal(wl[i], numeric) {
			return false
		}
	}
	return true
}

func intEqualsFloat(i int64, f float64) bool {
	// float64(i) may round; compare exactly by converting back when in range.
	if f != math.Trunc(f) || f < -9223372036854775808 || f >= 9223372036854775808 {
		return false
	}
	return int64(f) == i
}

// String returns v in canonical JSON, the text MarshalJSON writes: null,
// true, 42, 1.5, a float that is a whole number with a fraction (1.0, so
// Int(1) prints 1 and Float(1) prints 1.0), a string quoted with only '"',
// '\\' and control characters escaped, a list as [1,"a",[true]]. A NaN or
// infinite float, which JSON cannot carry and MarshalJSON refuses, is
// written NaN, +Inf or -Inf; invalid UTF-8 in a string is written as
// U+FFFD, as canonical JSON writes it. fmt's %v prints values this way;
// Text is the accessor for a string value's text.
func (v Value) String() string {
	b, _ := appendValue(nil, v, goFloat)
	return string(b)
}
