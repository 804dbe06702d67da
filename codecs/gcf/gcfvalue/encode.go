package gcfvalue

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/keyset"
)

// Marshal encodes v as a generic-profile GCF document under the default
// Options.
func Marshal(v Value) ([]byte, error) { return AppendEncode(nil, v, Options{}) }

// Encode encodes v as a generic-profile GCF document.
func Encode(v Value, opts Options) ([]byte, error) { return AppendEncode(nil, v, opts) }

// AppendEncode appends the generic-profile GCF document of v to dst: the
// header line "GCF profile=generic" and the canonical body of spec §7. On
// error it returns dst unchanged and a *wire.EncodeError naming the path of
// the value it refused (a string that is not UTF-8, NaN or ±Inf, a
// duplicate key, a value past the Limits, a Go type that is not a Value).
func AppendEncode(dst []byte, v Value, opts Options) ([]byte, error) {
	return encodeWith(dst, nil, v, "", nil, opts)
}

// encodeWith is AppendEncode with extra header pairs ("key=value"), the
// identity column mark of the root object's tables, and initial: by
// member of the root object, the fields its table declares first.
func encodeWith(dst []byte, pairs []string, v Value, mark string, initial map[string][]string, opts Options) ([]byte, error) {
	lim, err := opts.resolve()
	if err != nil {
		return dst, err
	}
	for _, p := range pairs {
		if !isHeaderValue(p) {
			return dst, encodeError("", KindMalformedHeaderField, "a header field with a blank or non-ASCII character: "+excerpt(p))
		}
	}
	e := encoder{buf: dst, lim: lim, mark: mark, initial: initial}
	out, err := e.document(pairs, v)
	if err != nil {
		return dst, err
	}
	return out, nil
}

type encoder struct {
	buf        []byte
	lim        limits
	depth      int
	path       []string // segments of the path of the value being written
	mark       string   // the identity column of the root object's tables ("" none)
	initial    map[string][]string
	rootMember string
}

// encFail carries an encode error to document's recover.
type encFail struct{ err error }

// fail stops the encode with an error at the current path; limit names
// the Limits field of a KindLimit error.
func (e *encoder) fail(kind Kind, limit, msg string) {
	err := encodeError(strings.TrimPrefix(strings.Join(e.path, ""), "."), kind, msg)
	err.Limit = limit
	panic(encFail{err})
}

// checkCount refuses n elements (what they are: "members") of a
// container ("an object") past limit.
func (e *encoder) checkCount(container string, n int, what string, limit int) {
	if n > limit {
		e.fail(KindLimit, "MaxElements", container+" of "+strconv.Itoa(n)+" "+what+", more than the limit of "+strconv.Itoa(limit))
	}
}

func (e *encoder) push(seg string) { e.path = append(e.path, seg) }
func (e *encoder) pop()            { e.path = e.path[:len(e.path)-1] }
func (e *encoder) pushKey(k string) {
	if IsBareKey(k) {
		e.push("." + k)
	} else {
		e.push("[" + strconv.Quote(k) + "]")
	}
}
func (e *encoder) pushIndex(i int) { e.push("[" + strconv.Itoa(i) + "]") }

// document writes the header (with the extra pairs) and the body of v.
func (e *encoder) document(pairs []string, v Value) (out []byte, err error) {
	start := len(e.buf)
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(encFail)
			if !ok {
				panic(r)
			}
			out, err = e.buf[:start], f.err
		}
	}()
	e.buf = append(e.buf, "GCF profile=generic"...)
	for _, p := range pairs {
		e.buf = append(e.buf, ' ')
		e.buf = append(e.buf, p...)
	}
	e.buf = append(e.buf, '\n')
	switch x := e.normalize(v).(type) {
	case *jsonvalue.Object:
		if e.openObject(x) {
			e.buf = append(e.buf, "## "...)
			e.keyedBody(x, 0)
		} else {
			e.members(x, 0)
		}
		e.leave()
	case []Value:
		e.buf = append(e.buf, "## "...)
		e.array(x, 0, nil)
	default:
		e.headed(x, 0, nil)
	}
	return e.buf, nil
}

func (e *encoder) enter() {
	e.depth++
	if e.depth > e.lim.maxDepth {
		e.fail(KindLimit, "MaxDepth", "nested deeper than the limit of "+strconv.Itoa(e.lim.maxDepth))
	}
}

func (e *encoder) leave() { e.depth-- }

// normalize maps the convenience types to Values and refuses any other Go
// type.
func (e *encoder) normalize(v Value) Value {
	switch x := v.(type) {
	case nil, bool, string, []Value:
		return v
	case jsonvalue.Number:
		if !x.IsInt() && (math.IsNaN(x.Float64()) || math.IsInf(x.Float64(), 0)) {
			e.fail(KindUnsupported, "", "NaN and infinite numbers are outside the JSON data model")
		}
		return v
	case *jsonvalue.Object:
		if x == nil {
			return nil
		}
		return v
	case int, int64, float64:
		return e.normalize(toNumber(x))
	}
	e.fail(KindUnsupported, "", fmt.Sprintf("a value of Go type %T is not a JSON value", v))
	return nil
}

// toNumber maps int, int64 and float64 to a jsonvalue.Number, and leaves
// any other value as it is.
func toNumber(v Value) Value {
	switch x := v.(type) {
	case int:
		return jsonvalue.Int(int64(x))
	case int64:
		return jsonvalue.Int(x)
	case float64:
		return jsonvalue.Float(x)
	}
	return v
}

// isScalar reports whether v is not a container (a nil *jsonvalue.Object is
// null, a scalar).
func isScalar(v Value) bool {
	switch x := v.(type) {
	case []Value:
		return false
	case *jsonvalue.Object:
		return x == nil
	}
	return true
}

// asObject returns v as a non-nil object.
func asObject(v Value) (*jsonvalue.Object, bool) {
	o, ok := v.(*jsonvalue.Object)
	return o, ok && o != nil
}

// checkObject refuses an object of more than limit members (MaxElements;
// a table row's members are its columns, bounded by maxFields), with a
// duplicate key or a key that is not a valid string.
func (e *encoder) checkObject(o *jsonvalue.Object, limit int) {
	e.checkCount("an object", len(o.Members), "members", limit)
	if i := keyset.FirstRepeat(len(o.Members), func(i int) string { return o.Members[i].Key }); i >= 0 {
		e.pushKey(o.Members[i].Key)
		e.fail(KindDuplicateKey, "", "duplicate key")
	}
	for i := range o.Members {
		e.checkString(o.Members[i].Key)
	}
}

// openObject enters o and checks it, reporting whether it is written as a
// keyed table; the caller leaves it.
func (e *encoder) openObject(o *jsonvalue.Object) bool {
	e.enter()
	e.checkObject(o, e.lim.maxElements)
	return keyedEligible(o)
}

func (e *encoder) checkString(s string) {
	if len(s) > e.lim.maxString {
		e.fail(KindLimit, "MaxStringBytes", "a string of "+strconv.Itoa(len(s))+" bytes, longer than the limit of "+strconv.Itoa(e.lim.maxString))
	}
	if !utf8.ValidString(s) {
		e.fail(KindInvalidUTF8, "", "a string that is not valid UTF-8")
	}
}

func (e *encoder) indent(depth int) {
	for range depth {
		e.buf = append(e.buf, ' ', ' ')
	}
}

// key writes k as a key (bare or quoted).
func (e *encoder) key(k string) { e.buf = AppendKey(e.buf, k) }

// scalar writes a scalar.
func (e *encoder) scalar(v Value) {
	switch x := e.normalize(v).(type) {
	case nil:
		e.buf = append(e.buf, '-')
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case jsonvalue.Number:
		e.buf = appendNumber(e.buf, x)
	case string:
		e.str(x)
	}
}

// str writes the string value s, refusing one past MaxStringBytes or not
// UTF-8.
func (e *encoder) str(s string) {
	e.checkString(s)
	e.buf, _ = AppendValidString(e.buf, s)
}

// members writes the members of o at depth (spec §7.2): an object as a
// section (or a keyed table), an array inline or as a section, a scalar
// as key=value.
func (e *encoder) members(o *jsonvalue.Object, depth int) {
	for i := range o.Members {
		m := &o.Members[i]
		if depth == 0 {
			e.rootMember = m.Key
		}
		e.pushKey(m.Key)
		e.indent(depth)
		switch x := e.normalize(m.Value).(type) {
		case *jsonvalue.Object:
			e.buf = append(e.buf, "## "...)
			e.key(m.Key)
			if e.openObject(x) {
				e.buf = append(e.buf, ' ')
				e.keyedBody(x, depth)
			} else {
				e.buf = append(e.buf, '\n')
				e.members(x, depth+1)
			}
			e.leave()
		case []Value:
			if len(x) == 0 || !allScalars(x) {
				e.buf = append(e.buf, "## "...)
				e.key(m.Key)
				e.buf = append(e.buf, ' ')
			} else {
				e.key(m.Key)
			}
			e.array(x, depth, nil)
		default:
			e.key(m.Key)
			e.headed(x, depth, nil)
		}
		e.pop()
	}
}

func allScalars(items []Value) bool {
	for _, v := range items {
		if !isScalar(v) {
			return false
		}
	}
	return true
}

// inlineItems writes "[N]: a,b,c" and the line end.
func (e *encoder) inlineItems(items []Value) {
	e.buf = append(e.buf, '[')
	e.buf = strconv.AppendInt(e.buf, int64(len(items)), 10)
	e.buf = append(e.buf, "]:"...)
	for i, v := range items {
		if i == 0 {
			e.buf = append(e.buf, ' ')
		} else {
			e.buf = append(e.buf, ',')
		}
		e.pushIndex(i)
		e.scalar(v)
		e.pop()
	}
	e.buf = append(e.buf, '\n')
}

// array writes, after a header prefix already written ("## name ", "@3 ",
// ".field "), the count bracket and body of a (spec §7.3): "[0]", the
// inline form for scalars, a table, or expanded items; rows and items go
// at depth. shared is the field's shared array schema in an attachment
// (nil elsewhere).
func (e *encoder) array(a []Value, depth int, shared *sharedSchema) {
	e.enter()
	defer e.leave()
	e.checkCount("an array", len(a), "items", e.lim.maxElements)
	switch {
	case len(a) == 0:
		e.buf = append(e.buf, "[0]\n"...)
		return
	case allScalars(a):
		e.inlineItems(a)
		return
	}
	if rows, ok := objectRows(a); ok {
		var initial []string
		if e.depth == 2 {
			initial = e.initial[e.rootMember]
		}
		if p := e.plan(rows, initial); len(p.cols) > 0 {
			e.table(p, rows, nil, depth, shared)
			return
		}
	}
	if shared != nil && shared.set {
		e.fail(KindUnsupported, "", "an expanded array after a shared array schema for the same field (spec §7.4.5.3 gives it no form)")
	}
	e.buf = append(e.buf, '[')
	e.buf = strconv.AppendInt(e.buf, int64(len(a)), 10)
	e.buf = append(e.buf, "]\n"...)
	for i, v := range a { // spec §7.6
		e.pushIndex(i)
		e.indent(depth)
		e.buf = append(e.buf, '@')
		e.buf = strconv.AppendInt(e.buf, int64(i), 10)
		e.buf = append(e.buf, ' ')
		e.headed(e.normalize(v), depth+1, nil)
		e.pop()
	}
}

// objectRows returns the items as objects when every one is an object.
func objectRows(items []Value) ([]*jsonvalue.Object, bool) {
	rows := make([]*jsonvalue.Object, len(items))
	for i, v := range items {
		o, ok := asObject(v)
		if !ok {
			return nil, false
		}
		rows[i] = o
	}
	return rows, true
}

// headed writes v, normalized, after the head of an item or an attachment
// ("@i ", ".name ") or a key, its body at depth: an object's members (or
// its keyed table), an array (under the shared schema, for an
// attachment), or =scalar.
func (e *encoder) headed(v Value, depth int, shared *sharedSchema) {
	switch x := v.(type) {
	case *jsonvalue.Object:
		if e.openObject(x) {
			e.keyedBody(x, depth)
		} else {
			e.buf = append(e.buf, "{}\n"...)
			e.members(x, depth)
		}
		e.leave()
	case []Value:
		e.array(x, depth, shared)
	default:
		e.buf = append(e.buf, '=')
		e.scalar(v)
		e.buf = append(e.buf, '\n')
	}
}
