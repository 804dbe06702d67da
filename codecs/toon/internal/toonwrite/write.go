package toonwrite

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
)

// FlushSize is how much text a Writer gathers before it writes it out.
const FlushSize = 32 << 10

// maxDepth bounds the nesting the writer follows (a deeper value is
// almost certainly a cycle).
const maxDepth = 10000

// Writer writes TOON text line by line into Buf; with an io.Writer, Buf
// is written out every FlushSize bytes, at line boundaries.
type Writer struct {
	Buf    []byte
	w      io.Writer
	indent int
	delim  byte
	safe   *[256]bool // bytes that may appear in an unquoted string
	lines  int
	depth  int
	err    error
	item   bool // the next Line is a list item's "- " line, a level up
}

// New returns a Writer appending to dst and writing out to w, if not nil;
// delim and indent are checked by the caller.
func New(dst []byte, w io.Writer, delim byte, indent int) *Writer {
	e := &Writer{Buf: dst, w: w, indent: indent, delim: delim}
	switch delim {
	case '\t':
		e.safe = &safeTab
	case '|':
		e.safe = &safePipe
	default:
		e.safe = &safeComma
	}
	return e
}

// Delim returns the document delimiter.
func (e *Writer) Delim() byte { return e.delim }

// Err returns the first error met.
func (e *Writer) Err() error { return e.err }

// Fail records err unless an error is already recorded.
func (e *Writer) Fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Line starts a new output line at the given depth.
func (e *Writer) Line(depth int) {
	if e.lines > 0 {
		e.Buf = append(e.Buf, '\n')
		if e.w != nil && len(e.Buf) >= FlushSize {
			e.Flush()
		}
	}
	e.lines++
	item := e.item
	if item {
		e.item, depth = false, depth-1
	}
	n := depth * e.indent
	for n > 0 {
		k := min(n, len(spaces))
		e.Buf = append(e.Buf, spaces[:k]...)
		n -= k
	}
	if item {
		e.Buf = append(e.Buf, '-', ' ')
	}
}

const spaces = "                                                                "

// Flush writes out what Buf holds to the io.Writer, if there is one.
func (e *Writer) Flush() {
	if e.w == nil {
		return
	}
	if e.err == nil && len(e.Buf) > 0 {
		_, e.err = e.w.Write(e.Buf)
	}
	e.Buf = e.Buf[:0]
}

// ListItem starts a "- " line at depth.
func (e *Writer) ListItem(depth int) {
	e.Line(depth)
	e.Buf = append(e.Buf, '-', ' ')
}

// Enter enters one level of nesting, failing past maxDepth; Leave leaves it.
func (e *Writer) Enter() bool {
	e.depth++
	if e.depth > maxDepth {
		e.Fail(fmt.Errorf("toon: value nested deeper than %d levels (a cycle?)", maxDepth))
		return false
	}
	return true
}

func (e *Writer) Leave() { e.depth-- }

// Root writes v as a whole document.
func (e *Writer) Root(v jsonvalue.Value) {
	switch x := v.(type) {
	case []jsonvalue.Value:
		e.array(nil, x, 0)
		return
	case *jsonvalue.Object:
		if x == nil {
			break
		}
		if !e.checkKeys(x) {
			return
		}
		if fields := e.keyedFields(x); fields != nil {
			e.keyedObject(nil, x, fields, 0)
			return
		}
		e.objectLines(x.Members, 0)
		return
	case string:
		if strings.HasPrefix(x, "\uFEFF") {
			// A leading byte-order mark would be stripped by decoders.
			e.Line(0)
			e.Buf = textwire.TOON.AppendQuoted(e.Buf, x)
			return
		}
	}
	e.Line(0)
	e.Primitive(v)
}

// isPrimitive reports whether v encodes as a primitive token.
func isPrimitive(v jsonvalue.Value) bool { return classify(v) == colPrimitive }

// Primitive appends the token of a primitive value.
func (e *Writer) Primitive(v jsonvalue.Value) {
	switch x := v.(type) {
	case nil:
		e.Buf = append(e.Buf, "null"...)
	case bool:
		e.Buf = strconv.AppendBool(e.Buf, x)
	case string:
		e.Buf = e.AppendString(e.Buf, x)
	case jsonvalue.Number:
		e.Buf = x.Append(e.Buf)
	case int:
		e.Buf = strconv.AppendInt(e.Buf, int64(x), 10)
	case int64:
		e.Buf = strconv.AppendInt(e.Buf, x, 10)
	case float64:
		e.Buf = jsonvalue.Float(x).Append(e.Buf)
	case *jsonvalue.Object: // nil
		e.Buf = append(e.Buf, "null"...)
	default:
		e.Fail(fmt.Errorf("toon: cannot encode value of type %T", v))
	}
}

// checkKeys reports whether o's keys are unique, failing if not.
func (e *Writer) checkKeys(o *jsonvalue.Object) bool {
	if dup, ok := o.Duplicate(); ok {
		e.Fail(fmt.Errorf("toon: object has duplicate key %q", dup))
		return false
	}
	return true
}

// objectLines writes members as fields at depth.
func (e *Writer) objectLines(ms []jsonvalue.Member, depth int) {
	for _, m := range ms {
		if e.err != nil {
			return
		}
		e.Field(m.Key, m.Value, depth)
	}
}

// Field writes one "key: value" member (or its array/object form) at depth.
func (e *Writer) Field(key string, v jsonvalue.Value, depth int) {
	switch x := v.(type) {
	case []jsonvalue.Value:
		e.array(&key, x, depth)
		return
	case *jsonvalue.Object:
		if x == nil {
			break
		}
		if !e.Enter() || !e.checkKeys(x) {
			return
		}
		defer e.Leave()
		if fields := e.keyedFields(x); fields != nil {
			e.keyedObject(&key, x, fields, depth)
			return
		}
		e.Line(depth)
		e.Buf = AppendKey(e.Buf, key)
		e.Buf = append(e.Buf, ':')
		e.objectLines(x.Members, depth+1)
		return
	}
	e.Line(depth)
	e.Buf = AppendKey(e.Buf, key)
	e.Buf = append(e.Buf, ':', ' ')
	e.Primitive(v)
}

// StringField writes the member "key: s" at depth, without boxing s.
func (e *Writer) StringField(key, s string, depth int) {
	e.Line(depth)
	e.Buf = AppendKey(e.Buf, key)
	e.Buf = append(e.Buf, ':', ' ')
	e.Buf = e.AppendString(e.Buf, s)
}

// Header appends an array or keyed header: key[N<:><delim>]{fields}:
func (e *Writer) Header(key *string, n int, fields []Field, keyed bool) {
	if key != nil {
		e.Buf = AppendKey(e.Buf, *key)
	}
	e.Buf = append(e.Buf, '[')
	e.Buf = strconv.AppendInt(e.Buf, int64(n), 10)
	if keyed {
		e.Buf = append(e.Buf, ':')
	}
	if e.delim != ',' {
		e.Buf = append(e.Buf, e.delim)
	}
	e.Buf = append(e.Buf, ']')
	if fields != nil {
		e.Buf = append(e.Buf, '{')
		e.fieldSegment(fields)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ':')
}

func (e *Writer) fieldSegment(fields []Field) {
	for i, f := range fields {
		if i > 0 {
			e.Buf = append(e.Buf, e.delim)
		}
		e.Buf = AppendKey(e.Buf, f.Name)
		if f.Children != nil {
			e.Buf = append(e.Buf, '{')
			e.fieldSegment(f.Children)
			e.Buf = append(e.Buf, '}')
		}
	}
}

func allPrimitive(vs []jsonvalue.Value) bool {
	for _, v := range vs {
		if !isPrimitive(v) {
			return false
		}
	}
	return true
}

// inlineValues appends " v1,v2,…" for a non-empty primitive array.
func (e *Writer) inlineValues(vs []jsonvalue.Value) {
	for i, v := range vs {
		if i == 0 {
			e.Buf = append(e.Buf, ' ')
		} else {
			e.Buf = append(e.Buf, e.delim)
		}
		e.Primitive(v)
	}
}

// array writes an array: as a field named *key, or at the root (key nil).
func (e *Writer) array(key *string, vs []jsonvalue.Value, depth int) {
	if !e.Enter() {
		return
	}
	defer e.Leave()
	if len(vs) == 0 {
		e.Line(depth)
		if key != nil {
			e.Buf = append(AppendKey(e.Buf, *key), ": []"...)
		} else {
			e.Buf = append(e.Buf, '[', ']')
		}
		return
	}
	if allPrimitive(vs) {
		e.Line(depth)
		e.Header(key, len(vs), nil, false)
		e.inlineValues(vs)
		return
	}
	if rows, ok := objectsOf(vs); ok {
		if fields := e.tabularFields(rows); fields != nil {
			e.Line(depth)
			e.Header(key, len(vs), fields, false)
			for _, r := range rows {
				e.Line(depth + 1)
				e.cells(r, fields, 0)
			}
			return
		}
		if e.err != nil {
			return
		}
	}
	e.Line(depth)
	e.Header(key, len(vs), nil, false)
	for _, v := range vs {
		if e.err != nil {
			return
		}
		e.listValue(v, depth+1)
	}
}

// objectsOf returns vs as objects when every element is a non-nil object.
func objectsOf(vs []jsonvalue.Value) ([]*jsonvalue.Object, bool) {
	for _, v := range vs {
		if o, ok := v.(*jsonvalue.Object); !ok || o == nil {
			return nil, false
		}
	}
	rows := make([]*jsonvalue.Object, len(vs))
	for i, v := range vs {
		rows[i] = v.(*jsonvalue.Object)
	}
	return rows, true
}

// listValue writes one element of an expanded list at depth.
func (e *Writer) listValue(v jsonvalue.Value, depth int) {
	if isPrimitive(v) {
		e.ListItem(depth)
		e.Primitive(v)
		return
	}
	switch x := v.(type) {
	case []jsonvalue.Value:
		if !e.Enter() {
			return
		}
		defer e.Leave()
		e.ListItem(depth)
		e.Header(nil, len(x), nil, false)
		if allPrimitive(x) {
			e.inlineValues(x)
			return
		}
		for _, item := range x {
			if e.err != nil {
				return
			}
			e.listValue(item, depth+1)
		}
	case *jsonvalue.Object:
		e.listObject(x, depth)
	default:
		e.Primitive(v) // reports the unsupported type
	}
}

// listObject writes an object that is a list item (spec §10): its first
// member as Field writes it one level deeper, on the "- " line, and the
// others below it.
func (e *Writer) listObject(o *jsonvalue.Object, depth int) {
	if !e.Enter() || !e.checkKeys(o) {
		return
	}
	defer e.Leave()
	if len(o.Members) == 0 {
		e.Line(depth)
		e.Buf = append(e.Buf, '-')
		return
	}
	e.item = true
	e.Field(o.Members[0].Key, o.Members[0].Value, depth+1)
	e.objectLines(o.Members[1:], depth+1)
}
