package wire

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// A structPlan is what NodeOf needs to know about a struct type: the
// fields that become properties, in order, or the error that refuses the
// type. Plans are built once per type and kept in planCache.
type structPlan struct {
	fields []fieldPlan
	err    *ValueOfError
}

// fieldPlan is one field that becomes a property.
type fieldPlan struct {
	name      string // the property name
	goName    string // the Go field, "Base.Created" through embedded structs
	index     []int  // reflect field indexes from the outer struct
	omitEmpty bool
	omitZero  bool
	quoted    bool                     // the ",string" option applies
	isZero    func(reflect.Value) bool // the type's IsZero method, for omitzero; nil: reflect's IsZero
}

var planCache sync.Map // reflect.Type -> *structPlan

func planOf(t reflect.Type) *structPlan {
	if p, ok := planCache.Load(t); ok {
		return p.(*structPlan)
	}
	p, _ := planCache.LoadOrStore(t, buildPlan(t))
	return p.(*structPlan)
}

// structProperties gives the properties of the struct rv by its plan.
func structProperties(rv reflect.Value) ([]Property, error) {
	p := planOf(rv.Type())
	if p.err != nil {
		e := *p.err
		return nil, &e
	}
	ps := make([]Property, 0, len(p.fields))
	for i := range p.fields {
		f := &p.fields[i]
		fv, ok := fieldByIndex(rv, f.index)
		if !ok {
			continue
		}
		if f.omitEmpty && isEmptyValue(fv) {
			continue
		}
		if f.omitZero {
			zero := false
			if f.isZero != nil {
				zero = f.isZero(fv)
			} else {
				zero = fv.IsZero()
			}
			if zero {
				continue
			}
		}
		var v Value
		var err error
		if f.quoted {
			v, err = quotedValue(fv, f.name)
		} else {
			v, err = reflectValue(fv, f.name, 0)
		}
		if err != nil {
			return nil, inNode(err, f.goName)
		}
		ps = append(ps, Property{Key: f.name, Value: v})
	}
	if len(ps) == 0 {
		return nil, nil
	}
	return ps, nil
}

// fieldByIndex is rv.FieldByIndex(index), or false when the way there
// goes through a nil embedded pointer.
func fieldByIndex(rv reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				return reflect.Value{}, false
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv, true
}

// isEmptyValue is omitempty's test, as encoding/json applies it.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// quotedValue is a field under the ",string" option: the JSON encoding/json
// writes for it, as a string; a type with a MarshalJSON or MarshalText
// method ignores the option, as in encoding/json.
func quotedValue(fv reflect.Value, path string) (Value, error) {
	if fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return Null(), nil
		}
		if methodsOf(fv.Type()) == 0 {
			fv = fv.Elem()
		}
	}
	if methodsOf(fv.Type()) != 0 {
		return reflectValue(fv, path, 0)
	}
	b, err := json.Marshal(fv.Interface())
	if err != nil {
		return Value{}, valueOfErr(path, fv.Type(), "no JSON for the string option").because(err)
	}
	return String(string(b)), nil
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zeroFunc returns the test omitzero applies to a field of type t by its
// IsZero method, or nil when t has none; a nil pointer or interface is
// zero without a call.
func zeroFunc(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) || v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.IsNil() || v.Interface().(isZeroer).IsZero() }
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.Interface().(isZeroer).IsZero() }
	case t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool { return addressable(v).Addr().Interface().(isZeroer).IsZero() }
	}
	return nil
}

// candidate is a field that may become a property, before the embedding
// rules choose among fields of the same name.
type candidate struct {
	fieldPlan
	depth  int    // how many embedded structs in
	also   string // another field of the same name and depth, reached through a second embedding of the same type
	goType reflect.Type
}

// embedded is a struct type whose fields count as the outer struct's.
type embedded struct {
	t      reflect.Type
	index  []int
	goName string
	also   string // the same type embedded a second time at this depth
}

// buildPlan finds the properties of struct type t: its exported fields and
// those of its untagged embedded structs, level by level, a shallower field
// hiding deeper ones of its name; two fields of one name at the
// shallowest depth, and the names "type" and "id", refuse the type.
func buildPlan(t reflect.Type) *structPlan {
	var cands []candidate
	visited := map[reflect.Type]bool{}
	level := []embedded{{t: t}}
	for depth := 0; len(level) > 0; depth++ {
		var next []embedded
		queued := map[reflect.Type]int{}
		for _, em := range level {
			if visited[em.t] {
				continue // its fields are hidden by the same fields at a shallower depth
			}
			visited[em.t] = true
			for i := range em.t.NumField() {
				sf := em.t.Field(i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous {
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(em.index[:len(em.index):len(em.index)], i)
				goName := sf.Name
				if em.goName != "" {
					goName = em.goName + "." + sf.Name
				}
				also := ""
				if em.also != "" {
					also = em.also + "." + sf.Name
				}
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					if j, ok := queued[ft]; ok {
						if next[j].also == "" {
							next[j].also = goName
						}
						continue
					}
					queued[ft] = len(next)
					next = append(next, embedded{t: ft, index: index, goName: goName, also: also})
					continue
				}
				if name == "" {
					name = sf.Name
				}
				c := candidate{depth: depth, also: also, goType: sf.Type, fieldPlan: fieldPlan{
					name:      name,
					goName:    goName,
					index:     index,
					omitEmpty: hasOption(opts, "omitempty"),
					omitZero:  hasOption(opts, "omitzero"),
					quoted:    hasOption(opts, "string") && quotable(ft.Kind()),
				}}
				if c.omitZero {
					c.isZero = zeroFunc(sf.Type)
				}
				cands = append(cands, c)
			}
		}
		level = next
	}

	// For each name, the shallowest field wins; a tie is an error.
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return a.depth - b.depth
	})
	var won []candidate
	var first *ValueOfError // the refusal of the first field in field order
	var firstAt []int
	refuse := func(c candidate, msg string) {
		if first == nil || slices.Compare(c.index, firstAt) < 0 {
			first, firstAt = nodeOfErr(c.name, c.goName, c.goType, msg), c.index
		}
	}
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].name == cands[i].name {
			j++
		}
		c := cands[i]
		switch {
		case j > i+1 && cands[i+1].depth == c.depth:
			refuse(c, "duplicate property "+strconv.Quote(c.name)+": also field "+cands[i+1].goName)
		case c.also != "":
			refuse(c, "duplicate property "+strconv.Quote(c.name)+": also field "+c.also)
		case reservedName(c.name) != "":
			refuse(c, "a field named "+strconv.Quote(c.name)+": "+reservedName(c.name)+
				`, not a property; tag the field json:"-" and pass its value to NodeOf`)
		}
		won = append(won, c)
		i = j
	}
	if first != nil {
		return &structPlan{err: first}
	}
	slices.SortFunc(won, func(a, b candidate) int { return slices.Compare(a.index, b.index) })
	p := &structPlan{fields: make([]fieldPlan, len(won))}
	for i, c := range won {
		p.fields[i] = c.fieldPlan
	}
	return p
}

// quotable reports whether the ",string" option applies to a field of
// kind k.
func quotable(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// hasOption reports whether the comma-separated tag options opts hold
// option.
func hasOption(opts, option string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == option {
			return true
		}
	}
	return false
}

// validTagName reports whether encoding/json takes name from a tag as a
// key: not empty, and only letters, digits and the punctuation it allows
// (no quote, backslash or comma). Otherwise the Go field name is used.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		default:
			return false
		}
	}
	return true
}
