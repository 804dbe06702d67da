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
	lim, err := opts.resolve()
	if err != nil {
		return dst, err
	}
	e := encoder{buf: dst, lim: lim}
	out, err := e.document(nil, v, "")
	if err != nil {
		return dst, err
	}
	return out, nil
}

type encoder struct {
	buf   []byte
	lim   limits
	depth int
	path  []string // segments of the path of the value being written
	mark  string   // the identity column of the root object's tables ("" none)
	// initial gives, by member of the root object, the fields a table
	// there declares first (a keyed set's declared fields).
	initial    map[string][]string
	rootMember string
}

// encFail carries an encode error to document's recover.
type encFail struct{ err error }

func (e *encoder) fail(kind Kind, msg string) {
	p := strings.Join(e.path, "")
	if p != "" && p[0] == '.' {
		p = p[1:]
	}
	panic(encFail{encodeError(p, kind, msg)})
}

func (e *encoder) failLimit(limit, msg string) {
	err := encodeError(strings.TrimPrefix(strings.Join(e.path, ""), "."), KindLimit, msg)
	err.Limit = limit
	panic(encFail{err})
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

// document writes the header (with the extra pairs, each "key=value") and
// the body of v. mark names the identity column of the root table.
func (e *encoder) document(pairs []string, v Value, mark string) (out []byte, err error) {
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
	e.mark = mark
	e.buf = append(e.buf, "GCF profile=generic"...)
	for _, p := range pairs {
		e.buf = append(e.buf, ' ')
		e.buf = append(e.buf, p...)
	}
	e.buf = append(e.buf, '\n')
	v = e.normalize(v)
	switch x := v.(type) {
	case *jsonvalue.Object:
		e.enter()
		e.checkObject(x)
		if keyedEligible(x) {
			e.keyedBlock("", false, x, 0)
		} else {
			e.members(x, 0)
		}
		e.leave()
	case []Value:
		e.arrayBlock("", false, x, 0)
	default:
		e.buf = append(e.buf, '=')
		e.scalar(v)
		e.buf = append(e.buf, '\n')
	}
	return e.buf, nil
}

func (e *encoder) enter() {
	e.depth++
	if e.depth > e.lim.maxDepth {
		e.failLimit("MaxDepth", "nested deeper than the limit of "+strconv.Itoa(e.lim.maxDepth))
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
			e.fail(KindUnsupported, "NaN and infinite numbers are outside the JSON data model")
		}
		return v
	case *jsonvalue.Object:
		if x == nil {
			return nil
		}
		return v
	case int:
		return jsonvalue.Int(int64(x))
	case int64:
		return jsonvalue.Int(x)
	case float64:
		return e.normalize(jsonvalue.Float(x))
	}
	e.fail(KindUnsupported, "a value of Go type "+typeName(v)+" is not a JSON value")
	return nil
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

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

// checkObject refuses an object past MaxElements or with a duplicate key,
// and normalizes its member values in place of nothing (members are
// normalized as they are written).
func (e *encoder) checkObject(o *jsonvalue.Object) { e.checkObjectMax(o, e.lim.maxElements) }

// checkObjectMax is checkObject with at most limit members: a table row's
// members are its columns, bounded by maxFields.
func (e *encoder) checkObjectMax(o *jsonvalue.Object, limit int) {
	n := len(o.Members)
	if n > limit {
		e.failLimit("MaxElements", "an object of "+strconv.Itoa(n)+" members, more than the limit of "+strconv.Itoa(limit))
	}
	if i := keyset.FirstRepeat(n, func(i int) string { return o.Members[i].Key }); i >= 0 {
		e.pushKey(o.Members[i].Key)
		e.fail(KindDuplicateKey, "duplicate key")
	}
	for i := range o.Members {
		e.checkString(o.Members[i].Key)
	}
}

func (e *encoder) checkArray(a []Value) {
	if len(a) > e.lim.maxElements {
		e.failLimit("MaxElements", "an array of "+strconv.Itoa(len(a))+" items, more than the limit of "+strconv.Itoa(e.lim.maxElements))
	}
}

func (e *encoder) checkString(s string) {
	if len(s) > e.lim.maxString {
		e.failLimit("MaxStringBytes", "a string of "+strconv.Itoa(len(s))+" bytes, longer than the limit of "+strconv.Itoa(e.lim.maxString))
	}
	if !utf8.ValidString(s) {
		e.fail(KindInvalidUTF8, "a string that is not valid UTF-8")
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
		e.checkString(x)
		e.buf = AppendString(e.buf, x)
	}
}

// members writes the members of o at depth (spec §7.2).
func (e *encoder) members(o *jsonvalue.Object, depth int) {
	for i := range o.Members {
		m := &o.Members[i]
		if depth == 0 {
			e.rootMember = m.Key
		}
		e.pushKey(m.Key)
		v := e.normalize(m.Value)
		switch x := v.(type) {
		case *jsonvalue.Object:
			e.enter()
			e.checkObject(x)
			if keyedEligible(x) {
				e.keyedBlock(m.Key, true, x, depth)
			} else {
				e.indent(depth)
				e.buf = append(e.buf, "## "...)
				e.key(m.Key)
				e.buf = append(e.buf, '\n')
				e.members(x, depth+1)
			}
			e.leave()
		case []Value:
			e.arrayBlock(m.Key, true, x, depth)
		default:
			e.indent(depth)
			e.key(m.Key)
			e.buf = append(e.buf, '=')
			e.scalar(v)
			e.buf = append(e.buf, '\n')
		}
		e.pop()
	}
}

// arrayBlock writes the array a as the member named name (named) or as the
// root array, at depth (spec §7.3).
func (e *encoder) arrayBlock(name string, named bool, a []Value, depth int) {
	e.enter()
	defer e.leave()
	e.checkArray(a)
	items := a
	e.indent(depth)
	if len(items) > 0 && allScalars(items) {
		if named {
			e.key(name)
		} else {
			e.buf = append(e.buf, "## "...)
		}
		e.inlineItems(items)
		return
	}
	e.buf = append(e.buf, "## "...)
	if named {
		e.key(name)
		e.buf = append(e.buf, ' ')
	}
	e.arrayBody(items, depth)
}

func allScalars(items []Value) bool {
	for _, v := range items {
		if !isScalar(v) {
			return false
		}
	}
	return true
}

// inlineItems writes "[N]: a,b,c" (or "[0]:" for none) and the line end.
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

// arrayBody writes, after a header prefix already written ("## name ",
// "@3 ", ".field "), the count bracket and body of a non-inline array, or
// the inline form for scalars. Rows and items go at bodyDepth. shared is
// the field's shared array schema in an attachment context (nil elsewhere).
func (e *encoder) arrayBody(items []Value, bodyDepth int) {
	e.arrayBodyShared(items, bodyDepth, nil)
}

func (e *encoder) arrayBodyShared(items []Value, bodyDepth int, shared *sharedSchema) {
	switch {
	case len(items) == 0:
		e.buf = append(e.buf, "[0]\n"...)
	case allScalars(items):
		e.inlineItems(items)
	default:
		if rows, ok := objectRows(items); ok {
			if p := e.plan(rows, e.rootTable()); len(p.cols) > 0 {
				e.table(p, rows, nil, bodyDepth, shared)
				return
			}
		}
		if shared != nil && shared.set {
			e.fail(KindUnsupported, "an expanded array after a shared array schema for the same field (spec §7.4.5.3 gives it no form)")
		}
		e.buf = append(e.buf, '[')
		e.buf = strconv.AppendInt(e.buf, int64(len(items)), 10)
		e.buf = append(e.buf, "]\n"...)
		for i, v := range items {
			e.pushIndex(i)
			e.item(i, v, bodyDepth)
			e.pop()
		}
	}
}

// rootTable returns the initial fields of a table that is a member of the
// root object, when the caller gave some.
func (e *encoder) rootTable() []string {
	if e.depth != 2 || e.initial == nil {
		return nil
	}
	return e.initial[e.rootMember]
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

// item writes one item of an expanded array (spec §7.6).
func (e *encoder) item(i int, v Value, depth int) {
	v = e.normalize(v)
	e.indent(depth)
	e.buf = append(e.buf, '@')
	e.buf = strconv.AppendInt(e.buf, int64(i), 10)
	e.buf = append(e.buf, ' ')
	e.headed(v, depth+1, nil)
}

// headed writes v after the head of an item or an attachment ("@i ",
// ".name "), its body at depth: an object's members (or its keyed
// table), an array (under the shared schema, for an attachment), or
// =scalar.
func (e *encoder) headed(v Value, depth int, shared *sharedSchema) {
	switch x := v.(type) {
	case *jsonvalue.Object:
		e.enter()
		e.checkObject(x)
		if keyedEligible(x) {
			e.keyedBody(x, depth)
		} else {
			e.buf = append(e.buf, "{}\n"...)
			e.members(x, depth)
		}
		e.leave()
	case []Value:
		e.enter()
		e.checkArray(x)
		e.arrayBodyShared(x, depth, shared)
		e.leave()
	default:
		e.buf = append(e.buf, '=')
		e.scalar(v)
		e.buf = append(e.buf, '\n')
	}
}
