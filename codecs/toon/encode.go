package toon

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// maxEncodeDepth bounds the nesting the encoder follows; a deeper value is
// almost certainly a cycle of *Object or []Value references.
const maxEncodeDepth = 10000

// Marshal returns the TOON encoding of v (spec v4.0). The output has LF line
// endings and no trailing newline; an empty root object encodes as no
// bytes at all.
func Marshal(v Value, opts EncodeOptions) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := AppendMarshal((*bp)[:0], v, opts)
	var out []byte
	if err == nil {
		out = append(make([]byte, 0, len(b)), b...)
	}
	if cap(b) <= 1<<24 { // do not keep huge buffers alive
		*bp = b[:0]
		bufPool.Put(bp)
	}
	return out, err
}

// bufPool holds scratch buffers for Marshal, which copies the result out
// once its size is known.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// AppendMarshal appends the TOON encoding of v to dst and returns the
// extended slice. On error it returns dst unchanged in length.
func AppendMarshal(dst []byte, v Value, opts EncodeOptions) ([]byte, error) {
	o, err := opts.resolve()
	if err != nil {
		return dst, err
	}
	e := encoder{buf: dst, start: len(dst), opts: o}
	e.setup()
	e.root(v)
	if e.err != nil {
		return dst[:e.start], e.err
	}
	return e.buf, nil
}

// Encoder writes TOON documents to an io.Writer as it produces them,
// flushing every few kilobytes, so the whole text is never held in memory.
type Encoder struct {
	w    io.Writer
	opts EncodeOptions
	err  error
}

// NewEncoder returns an Encoder writing to w with opts. An invalid option
// is reported by the first Encode.
func NewEncoder(w io.Writer, opts EncodeOptions) *Encoder {
	o, err := opts.resolve()
	return &Encoder{w: w, opts: o, err: err}
}

// Encode writes the TOON encoding of v. The value is checked before the
// first byte is written, so an unsupported value or a duplicate key writes
// nothing; only a failing writer can leave partial output. Successive
// documents are written back to back: separate them yourself if needed.
func (enc *Encoder) Encode(v Value) error {
	if enc.err != nil {
		return enc.err
	}
	if err := check(v, 0); err != nil {
		return err
	}
	e := encoder{opts: enc.opts, w: enc.w}
	e.buf = make([]byte, 0, flushSize+4096)
	e.setup()
	e.root(v)
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = enc.w.Write(e.buf)
	}
	return e.err
}

const flushSize = 32 << 10

type encoder struct {
	buf   []byte
	start int // length of buf before this document
	w     io.Writer
	opts  EncodeOptions
	delim byte
	safe  *[256]bool // bytes that may appear in an unquoted string
	lines int
	depth int
	err   error
}

func (e *encoder) setup() {
	e.delim = byte(e.opts.Delimiter)
	switch e.delim {
	case '\t':
		e.safe = &safeTab
	case '|':
		e.safe = &safePipe
	default:
		e.safe = &safeComma
	}
}

var safeComma, safeTab, safePipe = safeTable(','), safeTable('\t'), safeTable('|')

func safeTable(delim byte) [256]bool {
	var t [256]bool
	for c := 0x20; c < 256; c++ {
		t[c] = true
	}
	for _, c := range []byte{':', '"', '\\', '[', ']', '{', '}', delim} {
		t[c] = false
	}
	return t
}

func (e *encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// line starts a new output line at the given depth.
func (e *encoder) line(depth int) {
	if e.lines > 0 {
		e.buf = append(e.buf, '\n')
		if e.w != nil && len(e.buf) >= flushSize {
			e.flush()
		}
	}
	e.lines++
	n := depth * e.opts.IndentSize
	for n > 0 {
		k := min(n, len(spaces))
		e.buf = append(e.buf, spaces[:k]...)
		n -= k
	}
}

const spaces = "                                                                "

func (e *encoder) flush() {
	if e.err != nil {
		e.buf = e.buf[:0]
		return
	}
	_, e.err = e.w.Write(e.buf)
	e.buf = e.buf[:0]
}

// listItem starts a "- " line at depth.
func (e *encoder) listItem(depth int) {
	e.line(depth)
	e.buf = append(e.buf, '-', ' ')
}

func (e *encoder) enter() bool {
	e.depth++
	if e.depth > maxEncodeDepth {
		e.fail(fmt.Errorf("toon: value nested deeper than %d levels (a cycle?)", maxEncodeDepth))
		return false
	}
	return true
}

func (e *encoder) leave() { e.depth-- }

func (e *encoder) root(v Value) {
	switch x := v.(type) {
	case []Value:
		e.array(nil, x, 0)
	case *Object:
		if x == nil {
			e.line(0)
			e.buf = append(e.buf, "null"...)
			return
		}
		if !e.checkKeys(x) {
			return
		}
		if fields := e.keyedFields(x); fields != nil {
			e.keyedObject(nil, x, fields, 0)
			return
		}
		e.objectLines(x.Members, 0)
	case string:
		e.line(0)
		if strings.HasPrefix(x, "\uFEFF") {
			// A leading byte-order mark would be stripped by decoders.
			e.buf = appendQuoted(e.buf, x)
			return
		}
		e.primitive(v)
	default:
		e.line(0)
		e.primitive(v)
	}
}

// isPrimitive reports whether v encodes as a primitive token.
func isPrimitive(v Value) bool {
	switch x := v.(type) {
	case nil, bool, string, Number, int, int64, float64:
		return true
	case *Object:
		return x == nil
	}
	return false
}

// primitive appends the token of a primitive value, quoting strings
// against the document delimiter.
func (e *encoder) primitive(v Value) {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case string:
		e.buf = e.appendString(e.buf, x)
	case Number:
		e.buf = appendNumber(e.buf, x)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case float64:
		e.buf = appendFloat(e.buf, x)
	case *Object: // nil
		e.buf = append(e.buf, "null"...)
	default:
		e.fail(fmt.Errorf("toon: cannot encode value of type %T", v))
	}
}

// appendString appends s, quoted when spec §7.2 requires it.
func (e *encoder) appendString(dst []byte, s string) []byte {
	if e.safeUnquoted(s) {
		return append(dst, s...)
	}
	return appendQuoted(dst, s)
}

func (e *encoder) safeUnquoted(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case ' ', '\t', '-', '#':
		return false
	}
	if c := s[len(s)-1]; c == ' ' || c == '\t' {
		return false
	}
	safe := e.safe
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !safe[c] {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false // quoted, so that appendQuoted replaces the bad byte
		}
		i += size
	}
	if s == "true" || s == "false" || s == "null" {
		return false
	}
	return !isNumericLike(s)
}

// isNumericLike reports whether s matches /^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.
func isNumericLike(s string) bool {
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	j := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == j {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		j = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	return i == len(s)
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a quoted string with the escapes of spec §7.1.
// Ill-formed UTF-8 is replaced by U+FFFD.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// isValidUnquotedKey reports whether key matches ^[A-Za-z_][A-Za-z0-9_.]*$.
func isValidUnquotedKey(key string) bool {
	if key == "" {
		return false
	}
	if c := key[0]; !(c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z') {
		return false
	}
	for i := 1; i < len(key); i++ {
		c := key[i]
		if !(c == '_' || c == '.' || isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z') {
			return false
		}
	}
	return true
}

func appendKey(dst []byte, key string) []byte {
	if isValidUnquotedKey(key) {
		return append(dst, key...)
	}
	return appendQuoted(dst, key)
}

// checkKeys reports whether o's keys are unique, failing the encoding when
// they are not.
func (e *encoder) checkKeys(o *Object) bool {
	if dup, ok := duplicateKey(o.Members); ok {
		e.fail(fmt.Errorf("toon: object has duplicate key %q", dup))
		return false
	}
	return true
}

func duplicateKey(ms []Member) (string, bool) {
	if len(ms) <= 16 {
		for i := 1; i < len(ms); i++ {
			for j := 0; j < i; j++ {
				if ms[i].Key == ms[j].Key {
					return ms[i].Key, true
				}
			}
		}
		return "", false
	}
	seen := make(map[string]struct{}, len(ms))
	for _, m := range ms {
		if _, dup := seen[m.Key]; dup {
			return m.Key, true
		}
		seen[m.Key] = struct{}{}
	}
	return "", false
}

// objectLines writes members as fields at depth.
func (e *encoder) objectLines(ms []Member, depth int) {
	for _, m := range ms {
		if e.err != nil {
			return
		}
		e.field(m.Key, m.Value, depth)
	}
}

// field writes one "key: value" member (or its array/object form) at depth.
func (e *encoder) field(key string, v Value, depth int) {
	switch x := v.(type) {
	case []Value:
		e.array(&key, x, depth)
		return
	case *Object:
		if x == nil {
			break
		}
		if !e.enter() || !e.checkKeys(x) {
			return
		}
		defer e.leave()
		if fields := e.keyedFields(x); fields != nil {
			e.keyedObject(&key, x, fields, depth)
			return
		}
		e.line(depth)
		e.buf = appendKey(e.buf, key)
		e.buf = append(e.buf, ':')
		e.objectLines(x.Members, depth+1)
		return
	}
	e.line(depth)
	e.buf = appendKey(e.buf, key)
	e.buf = append(e.buf, ':', ' ')
	e.primitive(v)
}

// header appends an array or keyed header: key[N<:><delim>]{fields}:
func (e *encoder) header(key *string, n int, fields []field, keyed bool) {
	if key != nil {
		e.buf = appendKey(e.buf, *key)
	}
	e.buf = append(e.buf, '[')
	e.buf = strconv.AppendInt(e.buf, int64(n), 10)
	if keyed {
		e.buf = append(e.buf, ':')
	}
	if e.delim != ',' {
		e.buf = append(e.buf, e.delim)
	}
	e.buf = append(e.buf, ']')
	if fields != nil {
		e.buf = append(e.buf, '{')
		e.fieldSegment(fields)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ':')
}

func (e *encoder) fieldSegment(fields []field) {
	for i, f := range fields {
		if i > 0 {
			e.buf = append(e.buf, e.delim)
		}
		e.buf = appendKey(e.buf, f.name)
		if f.children != nil {
			e.buf = append(e.buf, '{')
			e.fieldSegment(f.children)
			e.buf = append(e.buf, '}')
		}
	}
}

func allPrimitive(vs []Value) bool {
	for _, v := range vs {
		if !isPrimitive(v) {
			return false
		}
	}
	return true
}

// inlineValues appends " v1,v2,…" for a non-empty primitive array.
func (e *encoder) inlineValues(vs []Value) {
	for i, v := range vs {
		if i == 0 {
			e.buf = append(e.buf, ' ')
		} else {
			e.buf = append(e.buf, e.delim)
		}
		e.primitive(v)
	}
}

// array writes an array: as a field named *key, or at the root (key nil).
func (e *encoder) array(key *string, vs []Value, depth int) {
	if !e.enter() {
		return
	}
	defer e.leave()
	if len(vs) == 0 {
		e.line(depth)
		if key != nil {
			e.buf = appendKey(e.buf, *key)
			e.buf = append(e.buf, ':', ' ', '[', ']')
		} else {
			e.buf = append(e.buf, '[', ']')
		}
		return
	}
	if allPrimitive(vs) {
		e.line(depth)
		e.header(key, len(vs), nil, false)
		e.inlineValues(vs)
		return
	}
	if rows, ok := objectsOf(vs); ok {
		if fields := e.tabularFields(rows); fields != nil {
			e.line(depth)
			e.header(key, len(vs), fields, false)
			e.rows(rows, fields, depth+1)
			return
		}
		if e.err != nil {
			return
		}
	}
	// Arrays of primitive arrays and mixed arrays are both list items, and
	// listValue writes an inner primitive array the same way in both.
	e.line(depth)
	e.header(key, len(vs), nil, false)
	for _, v := range vs {
		if e.err != nil {
			return
		}
		e.listValue(v, depth+1)
	}
}

// objectsOf returns vs as objects when every element is a non-nil *Object.
func objectsOf(vs []Value) ([]*Object, bool) {
	for _, v := range vs {
		if o, ok := v.(*Object); !ok || o == nil {
			return nil, false
		}
	}
	rows := make([]*Object, len(vs))
	for i, v := range vs {
		rows[i] = v.(*Object)
	}
	return rows, true
}

// listValue writes one element of an expanded list at depth.
func (e *encoder) listValue(v Value, depth int) {
	if isPrimitive(v) {
		e.listItem(depth)
		e.primitive(v)
		return
	}
	switch x := v.(type) {
	case []Value:
		if !e.enter() {
			return
		}
		defer e.leave()
		e.listItem(depth)
		e.header(nil, len(x), nil, false)
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
	case *Object:
		e.listObject(x, depth)
	default:
		e.primitive(v) // reports the unsupported type
	}
}

// listObject writes an object that is a list item (spec §10).
func (e *encoder) listObject(o *Object, depth int) {
	if !e.enter() || !e.checkKeys(o) {
		return
	}
	defer e.leave()
	if len(o.Members) == 0 {
		e.line(depth)
		e.buf = append(e.buf, '-')
		return
	}
	first := o.Members[0]
	rest := o.Members[1:]
	switch x := first.Value.(type) {
	case []Value:
		if rows, ok := objectsOf(x); ok && len(rows) > 0 {
			if fields := e.tabularFields(rows); fields != nil {
				e.listItem(depth)
				e.header(&first.Key, len(rows), fields, false)
				e.rows(rows, fields, depth+2)
				e.objectLines(rest, depth+1)
				return
			}
			if e.err != nil {
				return
			}
		}
		e.listItem(depth)
		e.buf = appendKey(e.buf, first.Key)
		switch {
		case len(x) == 0:
			e.buf = append(e.buf, ':', ' ', '[', ']')
		case allPrimitive(x):
			e.header(nil, len(x), nil, false)
			e.inlineValues(x)
		default:
			if !e.enter() {
				return
			}
			e.header(nil, len(x), nil, false)
			for _, item := range x {
				if e.err != nil {
					return
				}
				e.listValue(item, depth+2)
			}
			e.leave()
		}
	case *Object:
		if x == nil {
			e.listItem(depth)
			e.buf = appendKey(e.buf, first.Key)
			e.buf = append(e.buf, ": null"...)
			break
		}
		if !e.enter() || !e.checkKeys(x) {
			return
		}
		if fields := e.keyedFields(x); fields != nil {
			e.listItem(depth)
			e.header(&first.Key, len(x.Members), fields, true)
			e.entries(x, fields, depth+2)
		} else {
			e.listItem(depth)
			e.buf = appendKey(e.buf, first.Key)
			e.buf = append(e.buf, ':')
			e.objectLines(x.Members, depth+2)
		}
		e.leave()
	default:
		e.listItem(depth)
		e.buf = appendKey(e.buf, first.Key)
		e.buf = append(e.buf, ':', ' ')
		e.primitive(first.Value)
	}
	e.objectLines(rest, depth+1)
}

// field is one entry of a tabular header's field list.
type field struct {
	name     string
	children []field // nil for a leaf field
}

// lookup returns the value of key in o, trying position hint first.
func lookup(o *Object, key string, hint int) (Value, bool) {
	if hint < len(o.Members) {
		m := &o.Members[hint]
		// Keys read by one parser are often the same string: compare the
		// pointers before the bytes.
		if len(m.Key) == len(key) && (unsafe.StringData(m.Key) == unsafe.StringData(key) || m.Key == key) {
			return m.Value, true
		}
	}
	for i := range o.Members {
		if o.Members[i].Key == key {
			return o.Members[i].Value, true
		}
	}
	return nil, false
}

// Column classes for tabular detection.
const (
	colPrimitive = 1 << iota
	colObject    // a non-empty object
	colOther     // an array, an empty object, or an unsupported value
)

func classify(v Value) uint8 {
	switch x := v.(type) {
	case nil, bool, string, Number, int, int64, float64:
		return colPrimitive
	case *Object:
		switch {
		case x == nil:
			return colPrimitive
		case len(x.Members) > 0:
			return colObject
		}
	}
	return colOther
}

// tabularFields returns the field list under which rows encode in tabular
// form (spec §9.3), or nil when they do not qualify.
func (e *encoder) tabularFields(rows []*Object) []field {
	if len(rows) == 0 {
		return nil
	}
	first := rows[0].Members
	if len(first) == 0 || !e.checkKeys(rows[0]) {
		return nil
	}
	var kindBuf [32]uint8
	var kinds []uint8
	if len(first) <= len(kindBuf) {
		kinds = kindBuf[:len(first)]
	} else {
		kinds = make([]uint8, len(first))
	}
	// Same key set in every row (the first row's keys are distinct, so a
	// row of the same length holding each of them holds exactly them), and
	// every column all primitives or all non-empty objects.
	for _, r := range rows {
		if len(r.Members) != len(first) {
			return nil
		}
		for i := range first {
			v, ok := lookup(r, first[i].Key, i)
			if !ok {
				return nil
			}
			k := kinds[i] | classify(v)
			if k != colPrimitive && k != colObject {
				return nil
			}
			kinds[i] = k
		}
	}
	fields := make([]field, len(first))
	var sub []*Object
	for i := range first {
		key := first[i].Key
		fields[i].name = key
		if kinds[i] == colPrimitive {
			continue
		}
		if e.depth+1 > maxEncodeDepth {
			e.fail(fmt.Errorf("toon: value nested deeper than %d levels (a cycle?)", maxEncodeDepth))
			return nil
		}
		if sub == nil {
			sub = make([]*Object, 0, len(rows))
		}
		sub = sub[:0]
		for _, r := range rows {
			v, _ := lookup(r, key, i)
			sub = append(sub, v.(*Object))
		}
		e.depth++
		children := e.tabularFields(sub)
		e.depth--
		if children == nil {
			return nil
		}
		fields[i].children = children
	}
	return fields
}

// keyedFields returns the field list under which o encodes in keyed tabular
// form (spec §9.5), or nil when it does not qualify.
func (e *encoder) keyedFields(o *Object) []field {
	if len(o.Members) < 2 {
		return nil
	}
	for _, m := range o.Members {
		if x, ok := m.Value.(*Object); !ok || x == nil || len(x.Members) == 0 {
			return nil
		}
	}
	rows := make([]*Object, len(o.Members))
	for i, m := range o.Members {
		rows[i] = m.Value.(*Object)
	}
	return e.tabularFields(rows)
}

// cells appends the leaf values of row in field order, joined by the
// delimiter.
func (e *encoder) cells(row *Object, fields []field, n int) int {
	for i, f := range fields {
		v, _ := lookup(row, f.name, i)
		if f.children != nil {
			n = e.cells(v.(*Object), f.children, n)
			continue
		}
		if n > 0 {
			e.buf = append(e.buf, e.delim)
		}
		e.primitive(v)
		n++
	}
	return n
}

func (e *encoder) rows(rows []*Object, fields []field, depth int) {
	for _, r := range rows {
		e.line(depth)
		e.cells(r, fields, 0)
	}
}

// keyedObject writes o in keyed tabular form as a field named *key (or at
// the root when key is nil).
func (e *encoder) keyedObject(key *string, o *Object, fields []field, depth int) {
	e.line(depth)
	e.header(key, len(o.Members), fields, true)
	e.entries(o, fields, depth+1)
}

func (e *encoder) entries(o *Object, fields []field, depth int) {
	for _, m := range o.Members {
		e.line(depth)
		e.buf = appendKey(e.buf, m.Key)
		e.buf = append(e.buf, ':', ' ')
		e.cells(m.Value.(*Object), fields, 0)
	}
}

// check walks v the way the encoder does and reports the first error the
// encoder would meet (unsupported type, duplicate key, excessive depth).
func check(v Value, depth int) error {
	if depth > maxEncodeDepth {
		return fmt.Errorf("toon: value nested deeper than %d levels (a cycle?)", maxEncodeDepth)
	}
	switch x := v.(type) {
	case nil, bool, string, Number, int, int64, float64:
		return nil
	case []Value:
		for _, item := range x {
			if err := check(item, depth+1); err != nil {
				return err
			}
		}
		return nil
	case *Object:
		if x == nil {
			return nil
		}
		if dup, ok := duplicateKey(x.Members); ok {
			return fmt.Errorf("toon: object has duplicate key %q", dup)
		}
		for _, m := range x.Members {
			if err := check(m.Value, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("toon: cannot encode value of type %T", v)
}
