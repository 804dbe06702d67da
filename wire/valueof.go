package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// ValueOf builds a Value from an ordinary Go value:
//
//   - nil, and a nil pointer, give null;
//   - a bool gives a bool;
//   - every signed and unsigned integer type gives an int (a uint, uint64
//     or uintptr above math.MaxInt64 is an error: int64 cannot hold it);
//   - float32 and float64 give a float (float32 converted exactly);
//   - a string gives a string;
//   - a json.Number gives an int when it is a JSON integer (no '.', 'e' or
//     'E') and a float otherwise, by the canonical JSON rules: an integer
//     outside int64, a float outside float64's range and a string that is
//     not a JSON number are errors, never a silently rounded value;
//   - a Value is returned as it is;
//   - a slice or array of any of these ([]any, []int64, [][]string...)
//     gives a list, nested to at most DefaultMaxDepth levels;
//   - a non-nil pointer gives what it points to.
//
// Named types count by their underlying kind (a type MyID int64 gives an
// int). Anything else is an error: maps, structs, channels, functions,
// complex numbers, and []byte, whose meaning (text or numbers) ValueOf
// cannot know; convert it to string or to []int first. Errors are
// *ValueOfError, naming the Go type and where in x it was found.
func ValueOf(x any) (Value, error) {
	return valueOf(x, "", 0)
}

// ValueOfError reports a Go value that ValueOf cannot represent.
type ValueOfError struct {
	Path string // where in the argument: "" for x itself, "[2][0]" inside slices
	Type string // the Go type found there, as %T prints it
	Msg  string // what is wrong
}

func (e *ValueOfError) Error() string {
	s := "wire: ValueOf: "
	if e.Path != "" {
		s += e.Path + ": "
	}
	return s + e.Msg
}

func valueOfErr(path string, t reflect.Type, msg string) error {
	name := "nil"
	if t != nil {
		name = t.String()
	}
	return &ValueOfError{Path: path, Type: name, Msg: msg}
}

var (
	valueType  = reflect.TypeFor[Value]()
	numberType = reflect.TypeFor[json.Number]()
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
	case reflect.Float32, reflect.Float64:
		return Float(rv.Float()), nil
	case reflect.String:
		return String(rv.String()), nil
	case reflect.Interface:
		if rv.IsNil() {
			return Null(), nil
		}
		return reflectValue(rv.Elem(), path, depth)
	case reflect.Pointer:
		if rv.IsNil() {
			return Null(), nil
		}
		if depth >= DefaultMaxDepth {
			return Value{}, valueOfErr(path, t, "pointers or lists nested deeper than "+strconv.Itoa(DefaultMaxDepth))
		}
		return reflectValue(rv.Elem(), path, depth+1)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return Value{}, valueOfErr(path, t, "unsupported type "+t.String()+": bytes may be text or numbers; convert to string or []int")
		}
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return ListOf(), nil
		}
		if depth >= DefaultMaxDepth {
			return Value{}, valueOfErr(path, t, "lists nested deeper than "+strconv.Itoa(DefaultMaxDepth))
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

// numberValue reads a json.Number by the canonical JSON number rules.
func numberValue(n json.Number, path string) (Value, error) {
	bad := func(msg string) error {
		s := string(n)
		if len(s) > 64 {
			s = s[:64] + "..."
		}
		return valueOfErr(path, numberType, "json.Number "+strconv.Quote(s)+": "+msg)
	}
	d := decoder{data: []byte(n)}
	end, isFloat, ok := d.scanNumber()
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
	i, ok := parseInt(d.data)
	if !ok {
		return Value{}, bad("integer out of int64 range")
	}
	return Int(i), nil
}
