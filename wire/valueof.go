package wire

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/graphwire/graphwire/internal/textwire"
)

// ValueOf builds a Value from an ordinary Go value, as encoding/json would
// write it where the model can hold that: nil, a nil pointer or interface
// and a nil slice give null; a bool a bool; every integer type an int (a
// uint above math.MaxInt64 is an error); float64 a float, and float32 the
// float64 of the shortest decimal that reads back as the same float32
// (NaN and ±Inf are kept, and refused by the codecs that cannot carry
// them); a string a string; a time.Time its RFC 3339 text
// (time.RFC3339Nano); a json.Number an int when it is a JSON integer and
// a float otherwise, never silently rounded; a Value itself; a slice or
// an array a list; a pointer what it points to.
//
// A json.Marshaler gives the value its JSON reads as under
// Value.UnmarshalJSON (an object is an error), else an
// encoding.TextMarshaler gives its text, both before the kind of the
// type, as in encoding/json; unlike encoding/json, a method with a pointer
// receiver is used even when the value is not addressable. Named types
// count by their underlying kind. Lists and pointers nest at most
// defaultMaxDepth levels, so a cycle ends in an error.
//
// Anything else is an error: maps and structs (use NodeOf), channels,
// functions, complex numbers, and []byte, whose meaning (text or numbers)
// ValueOf cannot know. Errors are *ValueOfError, naming the Go type and
// where in x it was found.
func ValueOf(x any) (Value, error) {
	return valueOf(x, "", 0)
}

// ValueOfError reports a Go value that ValueOf or NodeOf cannot represent.
// Callers find it with errors.As; Error() is one line:
//
//	wire: NodeOf: tags[1] (field Tags): unsupported type map[string]int
type ValueOfError struct {
	Func  string // "ValueOf" or "NodeOf"
	Path  string // where: "" for ValueOf's x itself, "[2][0]" inside its lists; for NodeOf the property name, then list indexes ("tags[1]")
	Field string // NodeOf with a struct: the Go field ("Created", "Base.Created"), else ""
	Type  string // the Go type found there, as reflect.Type's String prints it
	Msg   string // what is wrong
	Err   error  // the error a MarshalJSON, MarshalText or IsZero method returned, if any (errors.Unwrap returns it)
}

// Error returns the one-line message: "wire: ", Func, the path and field
// when there are, the message and the method's error when there is one.
func (e *ValueOfError) Error() string {
	fn := e.Func
	if fn == "" {
		fn = "ValueOf"
	}
	s := "wire: " + fn + ": "
	switch {
	case e.Path != "" && e.Field != "":
		s += e.Path + " (field " + e.Field + "): "
	case e.Path != "":
		s += e.Path + ": "
	case e.Field != "":
		s += "field " + e.Field + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the error of the method that failed, or nil; errors.Is and
// errors.As call it to reach a service's own error from its MarshalJSON or
// MarshalText.
func (e *ValueOfError) Unwrap() error { return e.Err }

// because sets the error of the method that failed, and returns e.
func (e *ValueOfError) because(err error) *ValueOfError {
	e.Err = err
	return e
}

func valueOfErr(path string, t reflect.Type, msg string) *ValueOfError {
	name := "nil"
	if t != nil {
		name = t.String()
	}
	return &ValueOfError{Func: "ValueOf", Path: path, Type: name, Msg: msg}
}

var (
	valueType  = reflect.TypeFor[Value]()
	numberType = reflect.TypeFor[json.Number]()
	timeType   = reflect.TypeFor[time.Time]()

	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func valueOf(x any, path string, depth int) (Value, error) {
	// The common types without reflection.
	switch x := x.(type) {
	case nil:
		return Null(), nil
	case bool:
		return Bool(x), nil
	case int:
		return Int(int64(x)), nil
	case int64:
		return Int(x), nil
	case int32:
		return Int(int64(x)), nil
	case float64:
		return Float(x), nil
	case string:
		return String(x), nil
	case json.Number:
		return numberValue(x, path)
	case time.Time:
		return timeValue(x, path)
	case Value:
		return x, nil
	}
	return reflectValue(reflect.ValueOf(x), path, depth)
}

func reflectValue(rv reflect.Value, path string, depth int) (Value, error) {
	t := rv.Type()
	switch t {
	case valueType:
		return rv.Interface().(Value), nil
	case numberType:
		return numberValue(json.Number(rv.String()), path)
	case timeType:
		return timeValue(rv.Interface().(time.Time), path)
	}
	switch rv.Kind() {
	case reflect.Interface:
		if rv.IsNil() {
			return Null(), nil
		}
		return reflectValue(rv.Elem(), path, depth)
	case reflect.Pointer:
		if rv.IsNil() {
			return Null(), nil
		}
	}
	if m := methodsOf(t); m != 0 {
		return marshaled(rv, m, path, depth)
	}
	switch rv.Kind() {
	case reflect.Bool:
		return Bool(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return Value{}, valueOfErr(path, t, strconv.FormatUint(u, 10)+" ("+t.String()+") is above the int64 range")
		}
		return Int(int64(u)), nil
	case reflect.Float32:
		return Float(float32Value(rv.Float())), nil
	case reflect.Float64:
		return Float(rv.Float()), nil
	case reflect.String:
		return String(rv.String()), nil
	case reflect.Pointer:
		if depth >= defaultMaxDepth {
			return Value{}, valueOfErr(path, t, "pointers or lists nested deeper than "+strconv.Itoa(defaultMaxDepth))
		}
		return reflectValue(rv.Elem(), path, depth+1)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return Value{}, valueOfErr(path, t, "unsupported type "+t.String()+": bytes may be text or numbers; convert to string or []int")
		}
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return Null(), nil
		}
		if depth >= defaultMaxDepth {
			return Value{}, valueOfErr(path, t, "lists nested deeper than "+strconv.Itoa(defaultMaxDepth))
		}
		n := rv.Len()
		vs := make([]Value, n)
		for i := range n {
			v, err := reflectValue(rv.Index(i), path+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return Value{}, err
			}
			vs[i] = v
		}
		return ListOf(vs...), nil
	}
	return Value{}, valueOfErr(path, t, "unsupported type "+t.String())
}

// float32Value is the float64 of the shortest decimal that reads back as
// the float32 f.
func float32Value(f float64) float64 {
	var buf [32]byte
	g, err := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], f, 'g', -1, 32)), 64)
	if err != nil {
		return f // not reached: a float32 always reads back
	}
	return g
}

// timeValue is t as encoding/json writes it, without the quotes.
func timeValue(t time.Time, path string) (Value, error) {
	b, err := t.MarshalText()
	if err != nil {
		return Value{}, valueOfErr(path, timeType, "time.Time has no RFC 3339 form").because(err)
	}
	return String(string(b)), nil
}

// methods says which marshaling methods a type has.
type methods uint8

const (
	jsonMethod    methods = 1 << iota // T implements json.Marshaler
	jsonPtrMethod                     // only *T implements json.Marshaler
	textMethod                        // T implements encoding.TextMarshaler
	textPtrMethod                     // only *T implements encoding.TextMarshaler
)

var methodCache sync.Map // reflect.Type -> methods

// methodsOf reports the marshaling methods of t, remembered per type.
func methodsOf(t reflect.Type) methods {
	switch t.Kind() {
	case reflect.Pointer, reflect.Struct, reflect.Interface:
	default:
		if t.Name() == "" {
			return 0 // an unnamed slice, map, array, func or chan has no methods
		}
	}
	if m, ok := methodCache.Load(t); ok {
		return m.(methods)
	}
	var m methods
	ptr := t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface
	switch {
	case t.Implements(jsonMarshalerType):
		m |= jsonMethod
	case ptr && reflect.PointerTo(t).Implements(jsonMarshalerType):
		m |= jsonPtrMethod
	}
	switch {
	case t.Implements(textMarshalerType):
		m |= textMethod
	case ptr && reflect.PointerTo(t).Implements(textMarshalerType):
		m |= textPtrMethod
	}
	methodCache.Store(t, m)
	return m
}

// addressable returns rv, or a copy of it that is addressable.
func addressable(rv reflect.Value) reflect.Value {
	if rv.CanAddr() {
		return rv
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	return c
}

// marshaled is the value of rv's MarshalJSON, or else of its MarshalText.
func marshaled(rv reflect.Value, m methods, path string, depth int) (Value, error) {
	t := rv.Type()
	if !rv.CanInterface() {
		return Value{}, valueOfErr(path, t, "unexported value of type "+t.String())
	}
	if m&(jsonMethod|jsonPtrMethod) != 0 {
		if m&jsonMethod == 0 {
			rv = addressable(rv).Addr()
		}
		b, err := rv.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return Value{}, valueOfErr(path, t, "MarshalJSON of "+t.String()+" failed").because(err)
		}
		var v Value
		if err := v.UnmarshalJSON(b); err != nil {
			return Value{}, valueOfErr(path, t, "MarshalJSON of "+t.String()+" wrote what a Value cannot hold").because(err)
		}
		if depth+listDepth(v) > defaultMaxDepth {
			return Value{}, valueOfErr(path, t, "pointers or lists nested deeper than "+strconv.Itoa(defaultMaxDepth))
		}
		return v, nil
	}
	if m&textMethod == 0 {
		rv = addressable(rv).Addr()
	}
	b, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return Value{}, valueOfErr(path, t, "MarshalText of "+t.String()+" failed").because(err)
	}
	return String(string(b)), nil
}

// numberValue reads a json.Number by the canonical JSON number rules.
func numberValue(n json.Number, path string) (Value, error) {
	bad := func(msg string) error {
		s := string(n)
		if len(s) > 64 {
			s = s[:64] + "..."
		}
		return valueOfErr(path, numberType, "json.Number "+strconv.Quote(s)+": "+msg)
	}
	end, isFloat, ok := textwire.ScanNumber(string(n), 0)
	if !ok || end != len(n) {
		return Value{}, bad("not a JSON number")
	}
	if isFloat {
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return Value{}, bad("out of float64 range")
		}
		return Float(f), nil
	}
	i, ok := textwire.ParseInt(string(n))
	if !ok {
		return Value{}, bad("integer out of int64 range")
	}
	return Int(i), nil
}
