package toonread

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// DefaultIndentSize and DefaultMaxDepth are Options' defaults.
const (
	DefaultIndentSize = 2
	DefaultMaxDepth   = 1000
)

// IndentSize is the indentation option n, the default for 0, or an error
// out of 1 to 64.
func IndentSize(n int) (int, error) {
	switch {
	case n == 0:
		return DefaultIndentSize, nil
	case n < 0 || n > 64:
		return n, fmt.Errorf("toon: invalid IndentSize %d (want 1 to 64)", n)
	}
	return n, nil
}

// Options are toonvalue.DecodeOptions, which converts to this type.
type Options struct {
	IndentSize int
	Lenient    bool
	MaxDepth   int
}

func (o Options) resolve() (Options, error) {
	var err error
	if o.IndentSize, err = IndentSize(o.IndentSize); err != nil {
		return o, err
	}
	switch {
	case o.MaxDepth == 0:
		o.MaxDepth = DefaultMaxDepth
	case o.MaxDepth < 0:
		return o, fmt.Errorf("toon: invalid MaxDepth %d", o.MaxDepth)
	}
	return o, nil
}

// Limits are the wire.Limits the GraphResponse codec applies (see its
// Security section); toonvalue.Unmarshal passes none. MaxFields bounds a
// field group or an object, as it is read.
type Limits struct {
	Set             bool
	MaxElements     int
	MaxFields       int
	MaxString       int
	MaxMaterialized int64
}

// DecodeSinks decodes one TOON document (spec v4.0), the arrays s
// chooses read by its sinks (see Sinks); s may be nil.
func DecodeSinks(data []byte, opts Options, lim Limits, s Sinks) (jsonvalue.Value, error) {
	v, _, err := decode(data, opts, lim, s, nil)
	return v, err
}

// A Step is one element of a path into a document: a key, or an index
// when Index >= 0.
type Step struct {
	Key   string
	Index int
}

// Locate returns the line of data where the value at path starts, or
// that of its nearest ancestor found, or 0. It reads data again as
// DecodeSinks does, keeping nothing, up to the value or the first error.
func Locate(data []byte, opts Options, lim Limits, path []Step) int {
	_, line, _ := decode(data, opts, lim, discard{}, path)
	return line
}

// decode is DecodeSinks, locating find (see Locate) when it is not nil.
func decode(data []byte, opts Options, lim Limits, s Sinks, find []Step) (v jsonvalue.Value, found int, err error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, 0, err
	}
	d := decoder{opts: o, strict: !o.Lenient, lim: lim, sinks: s, find: find}
	d.path = d.pathBuf[:0]
	if len(data) > 0 {
		// One copy of the input, which the decoded strings share.
		d.src = string(data)
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			v, found, err = nil, d.found, nil
			if f.err != nil {
				err = f.err
			}
		}
	}()
	// Ill-formed UTF-8 is found at memory speed; in strict mode its first
	// byte is an error when the lines read reach it (see peek), so that
	// the error reported is the first.
	d.badUTF8 = len(d.src)
	if !utf8.ValidString(d.src) {
		if d.strict {
			d.badUTF8 = textwire.InvalidUTF8(d.src)
		} else {
			d.src = strings.ToValidUTF8(d.src, "\uFFFD")
			d.badUTF8 = len(d.src)
		}
	}
	d.rules = textwire.LineRules{
		IndentUnit: o.IndentSize, StrictIndent: d.strict, TabInBlank: true, TrimRight: " ",
		SkipBlank: true, BlankRuns: true, SkipBOM: true, IsComment: untabbed,
	}
	d.lines = textwire.NewLines(d.src, &d.rules)
	return d.document(), d.found, nil
}

// at notes, for Locate, that the member key (or element index) of the
// value being read starts on line l, and ends the read at the path's end.
func (d *decoder) at(key string, index int, l *textwire.Line) {
	m := d.matched
	if m == len(d.find) || m != len(d.path) || d.find[m].Index != index || d.find[m].Key != key {
		return
	}
	d.matched, d.found = m+1, l.Num
	if d.matched == len(d.find) {
		panic(failure{})
	}
}

// discard is Locate's sinks: they read every row and item and keep none.
type discard struct{}

func (discard) Table(path []string, h Header) TableSink { return discard{} }
func (discard) List(path []string, h Header) ListSink   { return discard{} }
func (discard) Value() jsonvalue.Value                  { return nil }

func (discard) Item(v jsonvalue.Value, line int) *wire.DecodeError { return nil }

func (discard) Row(r *Row) *wire.DecodeError {
	for range r.leaves {
		r.span()
	}
	return nil
}

type decoder struct {
	src     string
	opts    Options
	strict  bool
	badUTF8 int // offset of the first ill-formed byte (strict), or len(src)

	rules textwire.LineRules
	lines textwire.Lines // the lines of src, read through peek and read

	lim   Limits
	depth int
	arena []byte             // unescaped strings (see unescape)
	strs  []string           // slab of boxed strings (box.go)
	nums  []jsonvalue.Number // slab of boxed numbers
	slabs [slabKinds]int     // the size of each kind's last slab
	objs  []jsonvalue.Object // slab of the rows' objects
	mems  []jsonvalue.Member // slab of the rows' members

	sinks   Sinks     // see DecodeSinks
	path    []string  // with sinks: the keys of the values being read
	pathBuf [8]string // path\'s first room
	sinkRow Row       // the row a TableSink reads (a Row given to a sink escapes)
	// reuseItem: the next list item goes to a ListSink, in item.
	reuseItem bool
	item      *jsonvalue.Object

	find           []Step // the path Locate looks for, matched steps of it
	matched, found int    // found: the line of the last step matched
}

type span struct{ start, end int } // offsets into a string

// document decodes the root (spec §5).
func (d *decoder) document() jsonvalue.Value {
	first := d.peek()
	if first == nil {
		return &jsonvalue.Object{Members: []jsonvalue.Member{}}
	}
	if first.Depth != 0 {
		d.overIndented(first, 0)
	}
	c := first.Text
	if c == "[]" {
		d.read()
		d.consumed()
		return []jsonvalue.Value{}
	}
	if strings.HasPrefix(c, "[") && unquotedIndex(c, ':', 0) >= 0 {
		if h, ok := d.header(first, c, first.TextStart()); ok {
			l := d.read()
			v := d.arrayFromHeader(&h, 0, l)
			d.consumed()
			return v
		}
	}
	l := d.read()
	if !isKeyValue(c) {
		next := d.peek()
		if next == nil {
			return d.primitive(l, c, l.TextStart())
		}
		if next.Depth == 0 {
			d.fail(next, next.TextStart(), "a document with more than one line must be an object or array: expected key: value, found a second top-level value line")
		}
	}
	b := d.newObject(8)
	d.keyValue(l, c, l.TextStart(), 0, &b)
	for {
		l := d.peek()
		if l == nil {
			break
		}
		if l.Depth != 0 {
			d.overIndented(l, 0)
		}
		l = d.read()
		d.keyValue(l, l.Text, l.TextStart(), 0, &b)
	}
	return b.o
}

// consumed fails, in strict mode, at lines after a root array.
func (d *decoder) consumed() {
	if l := d.peek(); l != nil && d.strict {
		d.fail(l, l.TextStart(), "unexpected content after the root value")
	}
}

// objBuilder builds an object, finding a repeated key (strict mode) or
// letting the last value win at the first position (lenient) as the key
// is read: by comparison up to smallObject members, then by a nameIndex.
type objBuilder struct {
	o   *jsonvalue.Object
	idx nameIndex // past smallObject members
}

const smallObject = 24

// rowSlab bounds the members of a row taken from the members slab.
const rowSlab = 256

// newRowObject returns a builder of an object of n members taken from the
// decoder's slabs, so that rows cost an allocation per slab, not two a
// row; an append past n moves the members off the slab.
func (d *decoder) newRowObject(n int) objBuilder {
	if len(d.objs) == 0 {
		d.objs = make([]jsonvalue.Object, nextSlab(&d.slabs[slabObjs]))
	}
	o := &d.objs[0]
	d.objs = d.objs[1:]
	if n > rowSlab/4 {
		o.Members = make([]jsonvalue.Member, 0, n)
		return objBuilder{o: o}
	}
	if len(d.mems) < n {
		d.mems = make([]jsonvalue.Member, max(n, 4*nextSlab(&d.slabs[slabMems])))
	}
	o.Members = d.mems[:0:n]
	d.mems = d.mems[n:]
	return objBuilder{o: o}
}

func (d *decoder) newObject(n int) objBuilder {
	return objBuilder{o: &jsonvalue.Object{Members: make([]jsonvalue.Member, 0, n)}}
}

// add returns the position of the member named key, or -1, having
// indexed key as the next member.
func (b *objBuilder) add(key string) int {
	ms := b.o.Members
	if b.idx.slots != nil {
		return b.idx.add(b.idx.hash(key, 0), len(ms), func(j int) bool { return ms[j].Key == key })
	}
	for i := range ms {
		if ms[i].Key == key {
			return i
		}
	}
	if len(ms) >= smallObject {
		b.idx.start(2*len(ms), len(ms), func(i int) uint64 { return b.idx.hash(ms[i].Key, 0) })
		b.idx.place(b.idx.hash(key, 0), len(ms))
	}
	return -1
}

// put adds key=v (claim, set).
func (d *decoder) put(b *objBuilder, key string, v jsonvalue.Value, l *textwire.Line, off int) {
	b.set(d.claim(b, key, l, off), key, v)
}

// claim checks key before its value is read (the object's width, a
// repeat in strict mode) and returns add's position for set.
func (d *decoder) claim(b *objBuilder, key string, l *textwire.Line, off int) int {
	if d.find != nil {
		d.at(key, -1, l)
	}
	d.checkWidth(b, l, off)
	i := b.add(key)
	if i >= 0 && d.strict {
		d.fail(l, off, "duplicate key %s", textwire.Excerpt(key))
	}
	return i
}

// set stores the value of the member claim returned i for.
func (b *objBuilder) set(i int, key string, v jsonvalue.Value) {
	if i >= 0 {
		b.o.Members[i].Value = v
		return
	}
	ms := b.o.Members
	if len(ms) == cap(ms) && len(ms) >= smallObject {
		// Doubled: a wide object's members are copied twice in all.
		grown := make([]jsonvalue.Member, len(ms), 2*len(ms))
		copy(grown, ms)
		ms = grown
	}
	b.o.Members = append(ms, jsonvalue.Member{Key: key, Value: v})
}

// checkWidth refuses a member past Limits.MaxFields.
func (d *decoder) checkWidth(b *objBuilder, l *textwire.Line, off int) {
	if d.lim.Set && len(b.o.Members) >= d.lim.MaxFields {
		d.failLimit(l, off, "MaxElements", "an object of more than "+strconv.Itoa(d.lim.MaxFields)+" members, past the limit of "+strconv.Itoa(d.lim.MaxElements)+" properties or cells")
	}
}

// keyValue decodes the field line c (at offset coff of d.src) of an object
// at baseDepth.
func (d *decoder) keyValue(l *textwire.Line, c string, coff, baseDepth int, b *objBuilder) {
	if h, ok := d.header(l, c, coff); ok {
		if h.hasKey {
			i := d.claim(b, h.key, l, coff)
			d.push(h.key)
			b.set(i, h.key, d.arrayFromHeader(&h, baseDepth, l))
			d.pop()
			return
		}
		if d.strict {
			if h.keyed {
				d.fail(l, coff, "a keyed header without a key is only valid at the document root")
			}
			d.fail(l, coff, "an array header without a key is only valid at the document root or as a list item")
		}
		// Lenient: read the line as key: value with a literal key.
	}
	key, end := d.keyToken(l, c, coff)
	rest, roff := trimSpacesOff(c, end)
	i := d.claim(b, key, l, coff)
	switch rest {
	case "":
		var v jsonvalue.Value
		if next := d.peek(); next != nil && next.Depth > baseDepth {
			d.noDepthJump(next, baseDepth)
			d.enter(next)
			d.push(key)
			v = d.objectFields(baseDepth + 1)
			d.pop()
			d.leave()
		} else {
			v = &jsonvalue.Object{Members: []jsonvalue.Member{}}
		}
		b.set(i, key, v)
	case "[]":
		b.set(i, key, []jsonvalue.Value{})
	default:
		b.set(i, key, d.primitive(l, rest, coff+roff))
	}
}

// push and pop keep, for the Sinks, the keys of the values being read.
func (d *decoder) push(key string) {
	if d.sinks != nil {
		d.path = append(d.path, key)
	}
}

func (d *decoder) pop() {
	if d.sinks != nil {
		d.path = d.path[:len(d.path)-1]
	}
}

func (d *decoder) noDepthJump(next *textwire.Line, parentDepth int) {
	if d.strict && next.Depth > parentDepth+1 {
		d.fail(next, next.TextStart(), "indentation jumps more than one level (depth %d, expected %d)", next.Depth, parentDepth+1)
	}
}

// objectFields decodes a nested object whose lines are at baseDepth or more.
func (d *decoder) objectFields(baseDepth int) *jsonvalue.Object {
	b := d.newObject(4)
	depth := -1
	for {
		l := d.peek()
		if l == nil || l.Depth < baseDepth {
			break
		}
		if depth < 0 {
			depth = l.Depth
		}
		if l.Depth != depth {
			d.overIndented(l, depth)
		}
		l = d.read()
		d.keyValue(l, l.Text, l.TextStart(), depth, &b)
	}
	return b.o
}

// scopeDepth is the depth of a scope's content opened at baseDepth.
func (d *decoder) scopeDepth(baseDepth int) int {
	first := d.peek()
	if first == nil || first.Depth <= baseDepth+1 {
		return baseDepth + 1
	}
	d.noDepthJump(first, baseDepth)
	return first.Depth
}
