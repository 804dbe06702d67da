package wire

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// NodeOf builds a node of type typ and id id whose properties come from
// props, named and valued as encoding/json would write props as an object:
//
//   - a struct gives one property per exported field, in field order, by
//     encoding/json's rules: the json tag's name, "-", omitempty,
//     omitzero (by the type's IsZero method when it has one) and the
//     string option; untagged embedded structs flatten by Go's embedding
//     rules (a nil embedded pointer contributes none);
//   - a map whose keys are strings, integers or encoding.TextMarshalers
//     gives one property per entry, sorted bytewise by name, so the node
//     is the same whatever Go's map order;
//   - a json.Marshaler, checked first, gives the properties of the JSON
//     object it writes, in order (null gives none);
//   - a pointer gives what it points to; nil and a nil map give none.
//
// Every property value goes through ValueOf: a field holding a struct or
// a map is an error (embed it, or give its type a MarshalText or
// MarshalJSON method). NodeOf refuses, naming the field, what the model
// forbids and encoding/json would write or drop silently: a property
// named "type" or "id" (pass it as typ or id), two fields or map keys of
// the same name, and props of any other type. Errors are *ValueOfError
// with Func "NodeOf". What NodeOf learns about a struct type is kept for
// later calls.
func NodeOf(typ string, id int64, props any) (Node, error) {
	ps, err := propertiesOf(props)
	if err != nil {
		return Node{}, err
	}
	return Node{Type: typ, ID: id, Properties: ps}, nil
}

func nodeOfErr(path, field string, t reflect.Type, msg string) *ValueOfError {
	return &ValueOfError{Func: "NodeOf", Path: path, Field: field, Type: t.String(), Msg: msg}
}

// inNode marks an error from ValueOf as NodeOf's, at field.
func inNode(err error, field string) error {
	if e, ok := err.(*ValueOfError); ok {
		e.Func, e.Field = "NodeOf", field
	}
	return err
}

func propertiesOf(x any) ([]Property, error) {
	switch x := x.(type) {
	case nil:
		return nil, nil
	case map[string]any: // the common map, without reflection
		return anyMapProperties(x)
	}
	rv := reflect.ValueOf(x)
	for depth := 0; ; depth++ {
		switch rv.Kind() {
		case reflect.Interface, reflect.Pointer:
			if rv.IsNil() {
				return nil, nil
			}
		}
		t := rv.Type()
		m := methodsOf(t)
		if m&(jsonMethod|jsonPtrMethod) != 0 {
			return jsonProperties(rv, m)
		}
		if m != 0 {
			return nil, nodeOfErr("", "", t, "props of type "+t.String()+" has a MarshalText method: its text is a string, not properties")
		}
		switch rv.Kind() {
		case reflect.Interface, reflect.Pointer:
			if depth >= defaultMaxDepth {
				return nil, nodeOfErr("", "", t, "props: pointers nested deeper than "+strconv.Itoa(defaultMaxDepth))
			}
			rv = rv.Elem()
			continue
		case reflect.Struct:
			return structProperties(rv)
		case reflect.Map:
			return mapProperties(rv)
		}
		return nil, nodeOfErr("", "", t, "props of type "+t.String()+": want a struct, a map or a pointer to one")
	}
}

// jsonProperties reads the properties of the JSON object rv's MarshalJSON
// writes.
func jsonProperties(rv reflect.Value, m methods) ([]Property, error) {
	t := rv.Type()
	if m&jsonMethod == 0 {
		rv = addressable(rv).Addr()
	}
	b, err := rv.Interface().(json.Marshaler).MarshalJSON()
	if err != nil {
		return nil, nodeOfErr("", "", t, "MarshalJSON of "+t.String()+" failed").because(err)
	}
	if isJSONNull(b) {
		return nil, nil
	}
	c, err := defaultJSON()
	if err != nil {
		return nil, nodeOfErr("", "", t, "MarshalJSON of "+t.String()+" wrote JSON, which NodeOf reads with the json codec").because(err)
	}
	ps, err := c.DecodeProperties(b)
	if err != nil {
		return nil, nodeOfErr("", "", t, "MarshalJSON of "+t.String()+" wrote no object of properties"+promotedFrom(t)).because(err)
	}
	return ps, nil
}

// promotedFrom names the embedded field that gives the struct type t its
// MarshalJSON method, if one does: a struct embedding time.Time marshals
// as a time.
func promotedFrom(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous && (sf.Type.Implements(jsonMarshalerType) || reflect.PointerTo(sf.Type).Implements(jsonMarshalerType)) {
			return " (the method of embedded field " + sf.Name + "; give that field a name)"
		}
	}
	return ""
}

// anyMapProperties is mapProperties for a map[string]any.
func anyMapProperties(m map[string]any) ([]Property, error) {
	if len(m) == 0 {
		return nil, nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ps := make([]Property, len(keys))
	for i, k := range keys {
		if what := reservedName(k); what != "" {
			return nil, nodeOfErr(k, "", reflect.TypeOf(m), "a map key named "+strconv.Quote(k)+": "+what+", not a property")
		}
		v, err := valueOf(m[k], k, 0)
		if err != nil {
			return nil, inNode(err, "")
		}
		ps[i] = Property{Key: k, Value: v}
	}
	return ps, nil
}

// mapProperties gives one property per entry of the map rv, sorted by name.
func mapProperties(rv reflect.Value) ([]Property, error) {
	t := rv.Type()
	keyName := mapKeyNamer(t.Key())
	if keyName == nil {
		return nil, nodeOfErr("", "", t, "map key type "+t.Key().String()+": want a string, an integer or an encoding.TextMarshaler")
	}
	if rv.Len() == 0 {
		return nil, nil
	}
	type entry struct {
		name string
		v    reflect.Value
	}
	es := make([]entry, 0, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		name, err := keyName(it.Key())
		if err != nil {
			return nil, nodeOfErr("", "", t.Key(), "MarshalText of map key failed").because(err)
		}
		es = append(es, entry{name, it.Value()})
	}
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	ps := make([]Property, len(es))
	for i, e := range es {
		if i > 0 && es[i-1].name == e.name {
			return nil, nodeOfErr(e.name, "", t, "two map keys named "+strconv.Quote(e.name))
		}
		if what := reservedName(e.name); what != "" {
			return nil, nodeOfErr(e.name, "", t, "a map key named "+strconv.Quote(e.name)+": "+what+", not a property")
		}
		v, err := reflectValue(e.v, e.name, 0)
		if err != nil {
			return nil, inNode(err, "")
		}
		ps[i] = Property{Key: e.name, Value: v}
	}
	return ps, nil
}

// mapKeyNamer returns the function that names a key of type k as
// encoding/json does: a string as it is, a TextMarshaler by its text (a nil
// one as ""), an integer in decimal; nil for any other key type.
func mapKeyNamer(k reflect.Type) func(reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return func(v reflect.Value) (string, error) { return v.String(), nil }
	}
	if m := methodsOf(k); m&(textMethod|textPtrMethod) != 0 {
		return func(v reflect.Value) (string, error) {
			if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
				return "", nil
			}
			if m&textMethod == 0 {
				v = addressable(v).Addr()
			}
			b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
			return string(b), err
		}
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v reflect.Value) (string, error) { return strconv.FormatInt(v.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(v reflect.Value) (string, error) { return strconv.FormatUint(v.Uint(), 10), nil }
	}
	return nil
}

// reservedName says what name is when it cannot be a property name (the
// node's type or id), or "".
func reservedName(name string) string {
	switch name {
	case "type":
		return "the node's own type"
	case "id":
		return "the node's own id"
	}
	return ""
}
